/**
 * The Claude Code plugin (`plugin/`) and the marketplace that lists it
 * (`.claude-plugin/marketplace.json`), written from the same hook table as
 * `git mem init --claude`, so the two never drift (`npm run docs:check` fails when they do).
 */
import type { HookEvent } from '../core/hook-events.ts';
import { hookGroups } from '../agents/claude/install.ts';

const DESCRIPTION = 'Persistent, searchable memory for coding agents, stored as git notes in the repository: context at session start and before edits, capture of decisions and learnings, recall over MCP';

/** What the plugin's SessionStart says, in one line, when git-mem is not on PATH. */
export const NOT_ON_PATH =
  'git-mem is not on PATH, so its memory hooks and MCP server do nothing. Install it: in a git-mem checkout, npm ci && npm run build && make install PREFIX=/usr/local';

/**
 * The plugin calls git-mem on PATH. When it is missing, SessionStart says so (a systemMessage the
 * user sees) and every other event does nothing; a hook never fails for it.
 */
export function pluginHookCommand(event: HookEvent): string {
  const run = `command -v git-mem >/dev/null 2>&1 && exec git-mem hook ${event}`;
  if (event !== 'SessionStart') return `${run} || true`;
  return `${run} || printf '%s\\n' '${JSON.stringify({ systemMessage: NOT_ON_PATH })}'`;
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Path (relative to the repository root) → content. */
export function pluginFiles(version: string): Array<[string, string]> {
  return [
    ['plugin/.claude-plugin/plugin.json', json({ name: 'git-mem', version, description: DESCRIPTION, author: { name: 'The git-mem developers' }, license: 'MIT', keywords: ['memory', 'git', 'notes', 'mcp'] })],
    ['plugin/hooks/hooks.json', json({ description: "git-mem's memory hooks (the same as git mem init --claude installs)", hooks: hookGroups(pluginHookCommand) })],
    ['plugin/.mcp.json', json({ mcpServers: { 'git-mem': { command: 'git-mem', args: ['mcp'] } } })],
    [
      '.claude-plugin/marketplace.json',
      json({ name: 'git-mem', owner: { name: 'The git-mem developers' }, description: 'The git-mem plugin for Claude Code: memory kept as git notes', plugins: [{ name: 'git-mem', source: './plugin', description: DESCRIPTION, version, author: { name: 'The git-mem developers' } }] }),
    ],
  ];
}

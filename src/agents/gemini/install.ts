/**
 * Installing git-mem into Gemini CLI's settings (.gemini/settings.json of the project, or
 * ~/.gemini/settings.json with --scope user): a hook entry per event it answers (timeouts in
 * milliseconds) and the MCP server `gitmem`, merged beside what the file holds; removal takes out
 * exactly those.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import type { Deps } from '../../services/deps.ts';
import { worktreeTop } from '../../stores/git/repo.ts';
import { type ClientInstall, mergeNamedEntry } from '../config-install.ts';
import { agentHookCommand, isOurs, readJsonObject, writeIfChanged } from '../hook-command.ts';
import { GEMINI_EVENTS, GEMINI_FILE_TOOLS, type GeminiEvent } from './hooks.ts';

export type GeminiInstallDeps = Pick<Deps, 'env' | 'repo'>;
export type GeminiScope = 'project' | 'user';

/** How long Gemini CLI lets each hook run, in milliseconds. */
const TIMEOUTS: Record<GeminiEvent, number> = { SessionStart: 30_000, BeforeAgent: 30_000, AfterTool: 30_000, PreCompress: 60_000, AfterAgent: 30_000, SessionEnd: 5_000 };
/** AfterTool runs only for the file tools. */
const MATCHERS: Partial<Record<GeminiEvent, string>> = { AfterTool: Object.keys(GEMINI_FILE_TOOLS).join('|') };

/** The MCP server entry, as Gemini CLI's `mcpServers` holds it. */
export const GEMINI_MCP = { command: 'git', args: ['mem', 'mcp'] };

interface Handler {
  type?: string;
  command?: unknown;
  [key: string]: unknown;
}
interface Group {
  matcher?: string;
  hooks?: Handler[];
  [key: string]: unknown;
}

export function geminiSettingsFile(ctx: GeminiInstallDeps, scope: GeminiScope): string {
  if (scope === 'user') return path.join(ctx.env.HOME || os.homedir(), '.gemini', 'settings.json');
  const top = worktreeTop(ctx.repo);
  if (!top) throw new UsageError('Gemini CLI project settings need a working tree; use --scope user');
  return path.join(top, '.gemini', 'settings.json');
}

/** Settings with git-mem's hook entries taken out, then (unless `remove`) one group per event added. Pure. */
export function mergeGeminiHooks(settings: Record<string, unknown>, command: (e: GeminiEvent) => string, remove: boolean): Record<string, unknown> {
  const current = settings.hooks && typeof settings.hooks === 'object' && !Array.isArray(settings.hooks) ? (settings.hooks as Record<string, unknown>) : {};
  const hooks: Record<string, unknown> = {};
  for (const [event, value] of Object.entries(current)) {
    // Not a list of groups (another setting kept under hooks): left as it is.
    if (!Array.isArray(value)) {
      hooks[event] = value;
      continue;
    }
    const groups = (value as Group[])
      .map((g) => (g && Array.isArray(g.hooks) ? { ...g, hooks: g.hooks.filter((h) => !isOurs(h?.command)) } : g))
      .filter((g) => !g || !Array.isArray(g.hooks) || g.hooks.length > 0);
    if (groups.length) hooks[event] = groups;
  }
  if (!remove) {
    for (const event of Object.keys(GEMINI_EVENTS) as GeminiEvent[]) {
      const group: Group = { ...(MATCHERS[event] ? { matcher: MATCHERS[event] } : {}), hooks: [{ name: 'git-mem', type: 'command', command: command(event), timeout: TIMEOUTS[event] }] };
      hooks[event] = [...((hooks[event] as Group[] | undefined) ?? []), group];
    }
  }
  const out: Record<string, unknown> = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete out.hooks;
  return out;
}

/** The Gemini CLI events whose hooks in `settings` run git-mem. */
export function geminiEventsInstalled(settings: Record<string, unknown>): string[] {
  const hooks = settings.hooks && typeof settings.hooks === 'object' ? (settings.hooks as Record<string, unknown>) : {};
  return Object.entries(hooks)
    .filter(([, groups]) => Array.isArray(groups) && (groups as Group[]).some((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isOurs(h?.command))))
    .map(([event]) => event);
}

export function installGemini(ctx: GeminiInstallDeps, scope: GeminiScope, remove: boolean): ClientInstall {
  const file = geminiSettingsFile(ctx, scope);
  const current = readJsonObject(file);
  const withHooks = mergeGeminiHooks(current, (event) => agentHookCommand('gemini', event, scope === 'project'), remove);
  const { config, conflict } = mergeNamedEntry(withHooks, 'mcpServers', 'gitmem', GEMINI_MCP, remove);
  // Settings left empty by a removal held only git-mem's entries: the file goes with them.
  const empty = Object.keys(config).length === 0;
  // Nothing to change: the file is not rewritten (its own formatting kept).
  const same = fs.existsSync(file) && isDeepStrictEqual(config, current);
  const changed = !same && writeIfChanged(file, empty && remove ? null : `${JSON.stringify(config, null, 2)}\n`);
  const events = geminiEventsInstalled(config);
  const mcp = !remove && !conflict;
  const holds = remove ? 'nothing of git-mem' : `hooks ${events.join(', ')}${mcp ? '; MCP server gitmem' : ''}`;
  const warnings = conflict ? [`${file} already has an MCP server named gitmem that is not git-mem's; left as it is`] : [];
  return { client: 'gemini', name: 'Gemini CLI', removed: remove, files: [{ file, changed, holds }], warnings };
}

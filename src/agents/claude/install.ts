/**
 * Installing git-mem's hooks into Claude Code's settings.json: merged beside
 * every other tool's hooks, idempotent, and removable to the exact entries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GitMemError, UsageError } from '../../core/errors.ts';
import type { Deps } from '../../services/deps.ts';
import { HOOK_EVENTS, type HookEvent } from '../../core/hook-events.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { worktreeTop } from '../../stores/git/repo.ts';
import { agentHookCommand, type HookGroup as Group, MINIMAL_PATH, mergeHookGroups, OURS, onMinimalPath, removeEmptyDirs, writeIfChanged } from '../hook-command.ts';

/** What this file's services use. */
export type ClaudeSettingsDeps = Pick<Deps, 'env' | 'repo'>;

export const SCOPES = ['project', 'local', 'user'] as const;
export type Scope = (typeof SCOPES)[number];

export { MINIMAL_PATH, OURS, onMinimalPath } from '../hook-command.ts';

const FILE_TOOLS_MATCHER = 'Read|Write|Edit|MultiEdit|NotebookEdit';
const MATCHERS: Partial<Record<HookEvent, string>> = { PreToolUse: FILE_TOOLS_MATCHER, PostToolUse: FILE_TOOLS_MATCHER, PostToolUseFailure: 'Bash' };
const TIMEOUTS: Record<HookEvent, number> = { SessionStart: 30, UserPromptSubmit: 30, PreToolUse: 10, PostToolUse: 30, PostToolUseFailure: 30, SubagentStart: 10, PreCompact: 60, Stop: 30, SessionEnd: 5 };

/**
 * The command a hook runs. In the project's settings, which teams commit,
 * `git-mem hook <Event>`: no path of one machine. In local or user settings,
 * the same when git-mem is on a minimal PATH, else this binary's absolute path.
 */
export function hookCommandLine(event: HookEvent, scope: Scope): string {
  return agentHookCommand('claude', event, scope === 'project');
}

export function settingsFile(ctx: ClaudeSettingsDeps, scope: Scope): string {
  if (scope === 'user') return path.join(ctx.env.HOME || os.homedir(), '.claude', 'settings.json');
  const top = worktreeTop(ctx.repo);
  if (!top) throw new UsageError('project and local scopes need a working tree; use --scope user');
  return path.join(top, '.claude', scope === 'local' ? 'settings.local.json' : 'settings.json');
}

/** git-mem's hook groups, event by event: the same for settings.json and for the plugin's hooks/hooks.json. Pure. */
export function hookGroups(command: (e: HookEvent) => string): Record<HookEvent, Group[]> {
  return Object.fromEntries(HOOK_EVENTS.map((event) => [event, [{ ...(MATCHERS[event] ? { matcher: MATCHERS[event] } : {}), hooks: [{ type: 'command', command: command(event), timeout: TIMEOUTS[event] }] }]])) as Record<HookEvent, Group[]>;
}

/** Settings with git-mem's hooks removed, then (unless `remove`) added once. Pure. */
export function mergeHooks(settings: Record<string, unknown>, command: (e: HookEvent) => string, remove: boolean): Record<string, unknown> {
  return mergeHookGroups(settings, hookGroups(command), remove);
}

export interface InstallResult {
  file: string;
  scope: Scope;
  changed: boolean;
  /** The events git-mem answers there now. */
  events: string[];
  hooks: Record<string, unknown>;
  /** Set when the hooks would not find git-mem in a session started outside a shell. */
  warning?: string;
}

export function installClaudeHooks(ctx: ClaudeSettingsDeps, scope: Scope, remove: boolean): InstallResult {
  const file = settingsFile(ctx, scope);
  let current: Record<string, unknown> = {};
  if (fs.existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
      if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
      current = parsed as Record<string, unknown>;
    } catch (err) {
      throw new GitMemError(`${file} is not valid JSON (${(err as Error).message}); not changing it`);
    }
  }
  const next = mergeHooks(current, (event) => hookCommandLine(event, scope), remove);
  const text = `${JSON.stringify(next, null, 2)}\n`;
  let changed: boolean;
  if (remove && Object.keys(next).length === 0) {
    // Nothing left but what git-mem added: the file (and a .claude folder left empty) goes.
    changed = writeIfChanged(file, null);
    removeEmptyDirs(path.dirname(file));
  } else {
    changed = !fs.existsSync(file) ? !remove : fs.readFileSync(file, 'utf8') !== text;
    if (changed) writeFileAtomic(file, text);
  }
  const ours = Object.fromEntries(Object.entries((next.hooks as Record<string, Group[]>) ?? {}).map(([e, groups]) => [e, groups.filter((g) => g.hooks.some((h) => typeof h.command === 'string' && OURS.test(h.command)))]).filter(([, g]) => (g as Group[]).length));
  const warning =
    !remove && scope === 'project' && !onMinimalPath()
      ? `git-mem is not in ${MINIMAL_PATH.join(':')}, where a Claude Code session started outside a shell looks; install it there (PREFIX=/usr/local make install), or use --scope local to write this machine's path instead`
      : undefined;
  return { file, scope, changed, events: HOOK_EVENTS.filter((e) => e in ours), hooks: ours, ...(warning ? { warning } : {}) };
}

/**
 * What every client's install shares: the command line a hook runs, how git-mem's own entries
 * are recognised among other tools', and reading and writing a client's JSON config so that
 * only git-mem's entries change.
 */
import fs from 'node:fs';
import path from 'node:path';
import { GitMemError } from '../core/errors.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { selfCommand } from '../io/self.ts';
import type { AgentId } from './event.ts';

/** Directories a GUI-launched session is likely to have on PATH. */
export const MINIMAL_PATH = ['/usr/local/bin', '/usr/bin', '/bin', '/opt/homebrew/bin'];
/** Recognises our own handlers, however the binary was named. */
export const OURS = /(?:^|[\s'"/])git[- ]mem['"]?\s+hook\s/;

export function shellQuote(s: string): string {
  return /^[\w./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Whether git-mem is where a session started outside a shell (a GUI) looks for commands. */
export function onMinimalPath(): boolean {
  return MINIMAL_PATH.some((dir) => fs.existsSync(path.join(dir, 'git-mem')));
}

/**
 * The command a hook runs for `event` of `agent` (Claude Code's hooks name no agent). In files
 * teams commit (`portable`), `git-mem hook …`: no path of one machine. Elsewhere the same when
 * git-mem is on a minimal PATH, else this binary's absolute path.
 */
export function agentHookCommand(agent: AgentId, event: string, portable: boolean): string {
  const args = agent === 'claude' ? ['hook', event] : ['hook', '--agent', agent, event];
  if (portable || onMinimalPath()) return `git-mem ${args.join(' ')}`;
  return [...selfCommand(), ...args].map(shellQuote).join(' ');
}

/** A JSON config file's object ({} when the file does not exist); a GitMemError when it is not a JSON object. */
export function readJsonObject(file: string): Record<string, unknown> {
  if (!fs.existsSync(file)) return {};
  try {
    const parsed: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('not an object');
    return parsed as Record<string, unknown>;
  } catch (err) {
    throw new GitMemError(`${file} is not valid JSON (${(err as Error).message}); not changing it`);
  }
}

/** Writes `text` to `file` when it differs (null: removes the file); whether anything changed. */
export function writeIfChanged(file: string, text: string | null): boolean {
  const exists = fs.existsSync(file);
  if (text === null) {
    if (!exists) return false;
    fs.rmSync(file);
    return true;
  }
  if (exists && fs.readFileSync(file, 'utf8') === text) return false;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  writeFileAtomic(file, text);
  return true;
}

/** Whether a hook entry's command is one of git-mem's. */
export const isOurs = (command: unknown): boolean => typeof command === 'string' && OURS.test(command);

export interface HookHandler {
  type: string;
  command?: string;
  timeout?: number;
  [key: string]: unknown;
}
/** A group of handlers, as Claude Code and Codex write them: `{matcher?, hooks: [...]}`. */
export interface HookGroup {
  matcher?: string;
  hooks: HookHandler[];
  [key: string]: unknown;
}

/**
 * Settings (Claude Code's, Codex's hooks.json) with git-mem's handlers removed, then (unless
 * `remove`) `groups` added once. Other tools' handlers stay as they were. Pure.
 */
export function mergeHookGroups(settings: Record<string, unknown>, groups: Record<string, HookGroup[]>, remove: boolean): Record<string, unknown> {
  const hooks = { ...((settings.hooks as Record<string, HookGroup[]> | undefined) ?? {}) };
  for (const event of Object.keys(hooks)) {
    const kept = (Array.isArray(hooks[event]) ? hooks[event] : [])
      .map((g) => ({ ...g, hooks: (Array.isArray(g.hooks) ? g.hooks : []).filter((h) => !(typeof h.command === 'string' && OURS.test(h.command))) }))
      .filter((g) => g.hooks.length > 0);
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!remove) {
    for (const [event, list] of Object.entries(groups)) hooks[event] = [...(hooks[event] ?? []), ...list];
  }
  const out = { ...settings, hooks };
  if (Object.keys(hooks).length === 0) delete (out as Record<string, unknown>).hooks;
  return out;
}

/** What `git mem init --<client>` did for a client other than Claude Code (whose result keeps its own shape). */
export interface AgentInstall {
  agent: AgentId;
  /** As people call the client. */
  name: string;
  /** Each file written or removed, with what it holds for git-mem. */
  files: Array<{ file: string; changed: boolean; what: string }>;
  /** The events git-mem answers there now (none after a removal). */
  events: string[];
  /** One line each: what the user must still do, or why something was not done. */
  notes: string[];
}

/** The JSON text git-mem writes a config file as. */
export const jsonText = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** The MCP server entry git-mem writes in JSON configs: `git-mem mcp`, found on PATH. */
export const MCP_SERVER = { command: 'git-mem', args: ['mcp'] } as const;
/** Whether an MCP server entry runs git-mem's server. */
export const isOurServer = (entry: unknown): boolean => {
  const e = entry as { command?: unknown; args?: unknown } | null;
  return !!e && typeof e.command === 'string' && /(?:^|\/)git(?:-mem)?$/.test(e.command) && Array.isArray(e.args) && e.args.includes('mcp');
};

/** A JSON config with `mcpServers[name]` set to git-mem's server, or (remove) taken out when it is git-mem's; keys left empty go. Pure. */
export function mergeMcpServer(config: Record<string, unknown>, name: string, remove: boolean): Record<string, unknown> {
  const servers = { ...((config.mcpServers as Record<string, unknown> | undefined) ?? {}) };
  if (remove) {
    if (isOurServer(servers[name])) delete servers[name];
  } else servers[name] = { ...MCP_SERVER, args: [...MCP_SERVER.args] };
  const out = { ...config, mcpServers: servers };
  if (Object.keys(servers).length === 0) delete (out as Record<string, unknown>).mcpServers;
  return out;
}

/** Writes a JSON config (an empty object is removed, when git-mem is taking its entries out). */
export function writeJsonConfig(file: string, value: Record<string, unknown>, remove: boolean): boolean {
  return writeIfChanged(file, remove && Object.keys(value).length === 0 ? null : jsonText(value));
}

/** Removes each directory when it is empty (a removal leaves no empty folder git-mem made), innermost first. */
export function removeEmptyDirs(...dirs: string[]): void {
  for (const dir of dirs) {
    try {
      if (fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    } catch {
      // not there, or not empty: left as it is
    }
  }
}

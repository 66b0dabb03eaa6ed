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

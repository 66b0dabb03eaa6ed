/**
 * Per-session state for hooks (which memories were injected, what was captured),
 * in the git common dir, keyed by Claude Code's session_id. Hooks run in
 * parallel, so every change is a locked read-modify-write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { acquireLock, lockFileFor } from './lock.ts';
import type { MemDir } from './mem-dir.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';

export interface SessionState {
  /** Keys of memories already injected in this session. */
  injected: string[];
  /** Normalized-content hashes of what this session captured. */
  captured: string[];
  /** The files the session's file tools worked on lately, newest last: what a memory said then is likely about. */
  working?: WorkingFile[];
}

export interface WorkingFile {
  /** As the tool named it (absolute, usually). */
  file: string;
  /** The lines an edit changed, as `10-40,52` (core/history/blame.ts formatRange). */
  lines?: string;
  /** Written (Edit, Write...), not only read. */
  edited?: boolean;
  /** The prompt it was worked on under, when the client says (prompt_id). */
  prompt?: string;
  /** When (ms). */
  at: number;
}

/** Working files kept per session: the last turn's, not the session's history. */
const WORKING_MAX = 12;

const EMPTY: SessionState = { injected: [], captured: [] };
/** Sessions untouched for this long are removed when another session writes. */
const STALE_MS = 7 * 24 * 3600 * 1000;

function fileFor(dir: MemDir, sessionId: string): string | null {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '');
  return safe ? path.join(dir.file('sessions'), `${safe}.json`) : null;
}

export function readSession(dir: MemDir, sessionId: string): SessionState {
  const file = fileFor(dir, sessionId);
  if (!file) return { ...EMPTY };
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SessionState>;
    const working = Array.isArray(data.working) ? data.working.filter((w) => w && typeof w.file === 'string' && typeof w.at === 'number') : [];
    return { injected: Array.isArray(data.injected) ? data.injected : [], captured: Array.isArray(data.captured) ? data.captured : [], ...(working.length ? { working } : {}) };
  } catch {
    return { injected: [], captured: [] };
  }
}

/** The lock files of every session's state (doctor reports abandoned ones). */
export function sessionLockFiles(dir: MemDir): string[] {
  const sessions = dir.file('sessions');
  try {
    return fs.readdirSync(sessions).filter((n) => n.endsWith('.lock')).map((n) => path.join(sessions, n));
  } catch {
    return [];
  }
}

/**
 * Applies `change` to the session's state under a lock; returns what `change`
 * returned. When the state cannot be written (the cache folder unusable, a
 * full disk), the change lives as long as this process: the hook still
 * answers, it only forgets what it did (it may inject a memory again).
 */
export function updateSession<T>(dir: MemDir, sessionId: string, change: (state: SessionState) => T): T {
  const file = fileFor(dir, sessionId);
  if (!file) return change({ injected: [], captured: [] });
  let release: (() => void) | null = null;
  const writable = dir.writable();
  if (writable) {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      release = acquireLock(lockFileFor(file), 2000);
    } catch {
      // sessions/ cannot be made: the write below fails too, and the change stays in memory.
    }
  }
  try {
    const state = readSession(dir, sessionId);
    const result = change(state);
    if (writable) {
      try {
        writeFileAtomic(file, JSON.stringify(state));
        pruneStale(path.dirname(file));
      } catch {
        // Kept in memory only: see above.
      }
    }
    return result;
  } finally {
    release?.();
  }
}

function pruneStale(dir: string): void {
  if (Math.random() > 0.05) return; // now and then is enough
  for (const name of fs.readdirSync(dir)) {
    const p = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(p).mtimeMs > STALE_MS) fs.rmSync(p, { force: true });
    } catch {
      // Another process got there first.
    }
  }
}

/** Records a file a file tool works on (a file again moves to the end, its lines merged). */
export function noteWorkingFile(dir: MemDir, sessionId: string, entry: WorkingFile): void {
  updateSession(dir, sessionId, (s) => {
    const before = (s.working ?? []).find((w) => w.file === entry.file && w.prompt === entry.prompt);
    const lines = [...new Set([...(before?.lines?.split(',') ?? []), ...(entry.lines?.split(',') ?? [])])].filter(Boolean).join(',');
    const rest = (s.working ?? []).filter((w) => w !== before);
    s.working = [...rest, { ...entry, ...(lines ? { lines } : {}), ...(entry.edited || before?.edited ? { edited: true } : {}) }].slice(-WORKING_MAX);
  });
}

/** Within this long of a capture, a file worked on counts when the client gives no prompt ids. */
const WORKING_WINDOW_MS = 10 * 60 * 1000;

/** The files worked on under the prompt (or, without prompt ids, lately) that a capture's memories are likely about. */
export function workingFiles(state: SessionState, prompt: string, now: number): WorkingFile[] {
  return (state.working ?? []).filter((w) => (prompt && w.prompt ? w.prompt === prompt : now - w.at <= WORKING_WINDOW_MS));
}

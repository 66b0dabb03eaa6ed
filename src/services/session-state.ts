/**
 * Per-session state for hooks (which memories were injected, what was captured),
 * in the git common dir, keyed by Claude Code's session_id. Hooks run in
 * parallel, so every change is a locked read-modify-write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { acquireLock, lockFileFor } from '../stores/index/lock.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';

export interface SessionState {
  /** Keys of memories already injected in this session. */
  injected: string[];
  /** Normalized-content hashes of what this session captured. */
  captured: string[];
}

const EMPTY: SessionState = { injected: [], captured: [] };
/** Sessions untouched for this long are removed when another session writes. */
const STALE_MS = 7 * 24 * 3600 * 1000;

function fileFor(commonDir: string, sessionId: string): string | null {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '');
  return safe ? path.join(commonDir, 'mem', 'sessions', `${safe}.json`) : null;
}

export function readSession(commonDir: string, sessionId: string): SessionState {
  const file = fileFor(commonDir, sessionId);
  if (!file) return { ...EMPTY };
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<SessionState>;
    return { injected: Array.isArray(data.injected) ? data.injected : [], captured: Array.isArray(data.captured) ? data.captured : [] };
  } catch {
    return { injected: [], captured: [] };
  }
}

/** The lock files of every session's state (doctor reports abandoned ones). */
export function sessionLockFiles(commonDir: string): string[] {
  const dir = path.join(commonDir, 'mem', 'sessions');
  try {
    return fs.readdirSync(dir).filter((n) => n.endsWith('.lock')).map((n) => path.join(dir, n));
  } catch {
    return [];
  }
}

/** Applies `change` to the session's state under a lock; returns what `change` returned. */
export function updateSession<T>(commonDir: string, sessionId: string, change: (state: SessionState) => T): T {
  const file = fileFor(commonDir, sessionId);
  if (!file) return change({ injected: [], captured: [] });
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const release = acquireLock(lockFileFor(file), 2000);
  try {
    const state = readSession(commonDir, sessionId);
    const result = change(state);
    writeFileAtomic(file, JSON.stringify(state));
    pruneStale(path.dirname(file));
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

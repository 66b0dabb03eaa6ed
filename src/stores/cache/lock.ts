/**
 * A lock file (O_EXCL), so parallel processes (hooks) take turns writing. It
 * names its owner (`<pid> <host>`): a lock left by a process that is gone
 * (killed, crashed) is taken at once, not after waiting for it to age.
 */
import fs from 'node:fs';
import os from 'node:os';
import { processAlive, sleepSync } from '../../io/processes.ts';

/** A lock whose owner cannot be checked (another host, an old format) is taken over past this age. */
const STALE_MS = 15_000;
const HOST = os.hostname();


/** Whether the lock in `file` is abandoned: its owner on this host is gone, or it is older than STALE_MS. */
function abandoned(file: string): boolean {
  let text: string;
  let age: number;
  try {
    text = fs.readFileSync(file, 'utf8');
    age = Date.now() - fs.statSync(file).mtimeMs;
  } catch {
    return false; // gone meanwhile: the next attempt takes it
  }
  const [pid, host] = text.trim().split(' ');
  const owner = Number(pid);
  if (host === HOST && Number.isInteger(owner) && owner > 0) return owner !== process.pid && !processAlive(owner);
  // A lock being written has no content for a moment: only age speaks against it.
  return age > STALE_MS;
}

/** What is known of a lock file: who holds it, whether it is abandoned, how old it is; null when there is none. */
export function inspectLock(file: string): { owner: string; abandoned: boolean; ageMs: number } | null {
  try {
    const owner = fs.readFileSync(file, 'utf8').trim();
    return { owner, abandoned: abandoned(file), ageMs: Date.now() - fs.statSync(file).mtimeMs };
  } catch {
    return null;
  }
}

/** The lock file that guards `file`. */
export function lockFileFor(file: string): string {
  return `${file}.lock`;
}

/** Returns a release function, or null if the lock could not be had within `waitMs`. */
export function acquireLock(file: string, waitMs: number): (() => void) | null {
  const deadline = Date.now() + waitMs;
  // The lock appears with its owner already in it (written aside, then linked into place), so a
  // process killed at any moment never leaves a lock that does not say whose it is.
  const mine = `${file}.${process.pid}.owner`;
  try {
    fs.writeFileSync(mine, `${process.pid} ${HOST}`);
  } catch {
    return null;
  }
  for (;;) {
    try {
      fs.linkSync(mine, file);
      fs.rmSync(mine, { force: true });
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        fs.rmSync(mine, { force: true });
        return null;
      }
      if (abandoned(file)) {
        // Renamed away, then checked again: another process may have taken the abandoned lock over
        // between our look and the rename, and a live owner's lock is put back.
        const aside = `${file}.${process.pid}.stale`;
        try {
          fs.renameSync(file, aside);
          if (!abandoned(aside)) fs.linkSync(aside, file);
        } catch {
          // Taken over by another process first, or put back already.
        }
        fs.rmSync(aside, { force: true });
        continue;
      }
      if (Date.now() > deadline) {
        fs.rmSync(mine, { force: true });
        return null;
      }
      sleepSync(5 + Math.random() * 10);
    }
  }
}

/** A lock file (O_EXCL), so parallel processes (hooks) take turns writing the index. */
import fs from 'node:fs';

const STALE_MS = 15_000;

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Returns a release function, or null if the lock could not be had within `waitMs`. */
export function acquireLock(file: string, waitMs: number): (() => void) | null {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      return () => fs.rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null;
      try {
        if (Date.now() - fs.statSync(file).mtimeMs > STALE_MS) fs.rmSync(file, { force: true });
      } catch {
        // Gone meanwhile: try again.
      }
      if (Date.now() > deadline) return null;
      sleep(5 + Math.random() * 10);
    }
  }
}

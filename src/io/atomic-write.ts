/** Replacing a file so readers see the old content or the new, never half of it. */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { processAlive } from './processes.ts';

/** `<file>.<pid>[.<hex>].tmp` (written aside), `<lock>.<pid>.owner` and `.stale` (lock handover). */
const TEMP = /\.(\d+)(?:\.[0-9a-f]+)?\.(?:tmp|owner|stale)$/;

export function writeFileAtomic(file: string, data: string | Uint8Array, options: { mode?: number } = {}): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(tmp, data, options.mode === undefined ? {} : { mode: options.mode });
    try {
      fs.renameSync(tmp, file);
    } catch (err) {
      // A cache file replaced by a directory (by hand, by a broken tool): the cache is ours to rebuild.
      if ((err as NodeJS.ErrnoException).code !== 'EISDIR' && !fs.statSync(file, { throwIfNoEntry: false })?.isDirectory()) throw err;
      fs.rmSync(file, { recursive: true, force: true });
      fs.renameSync(tmp, file);
    }
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
}

/** Temporary files that processes no longer running left in `dir` (killed mid-write). */
export function deadTemps(dir: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((name) => {
    const pid = Number(TEMP.exec(name)?.[1]);
    return pid && pid !== process.pid && !processAlive(pid);
  }).map((name) => path.join(dir, name));
}

export function removeDeadTemps(dir: string): void {
  for (const p of deadTemps(dir)) fs.rmSync(p, { force: true, recursive: true });
}

/**
 * A cache file of the cache folder (mem-dir.ts) that holds one JSON value,
 * read whole and written whole: absent, unreadable, of another version or of
 * the wrong shape, it reads as nothing and is made again; written atomically,
 * and only when the folder can be written. Services keep their caches
 * through this and never open a file of the folder themselves.
 */
import fs from 'node:fs';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import type { MemDir, MemFile } from './mem-dir.ts';

export class JsonFile<T extends object> {
  /**
   * @param version bumped when what the file holds changes: a file of another version is started again.
   * @param valid the shape a reader can rely on (the version aside).
   */
  constructor(
    private readonly dir: MemDir,
    private readonly name: MemFile,
    private readonly version: number,
    private readonly valid: (value: Partial<T>) => boolean,
  ) {}

  /** What the file holds, or null (none yet, damaged, or written by another version). */
  read(): T | null {
    try {
      const value = JSON.parse(fs.readFileSync(this.dir.file(this.name), 'utf8')) as (T & { version?: number }) | null;
      if (value && typeof value === 'object' && value.version === this.version && this.valid(value)) {
        delete value.version;
        return value;
      }
    } catch {
      // None yet, or unreadable: the caller makes it again.
    }
    return null;
  }

  /** Replaces the file; false when the folder cannot be written or the write failed (a cache: made again next time). */
  write(value: T): boolean {
    if (!this.dir.writable()) return false;
    try {
      writeFileAtomic(this.dir.file(this.name), JSON.stringify({ version: this.version, ...value }));
      return true;
    } catch {
      return false;
    }
  }
}

/** Reading a whole cache file cheaply when only parts of it will be looked at. */
import fs from 'node:fs';

/**
 * The file's bytes: memory-mapped under Bun (the compiled binary: nothing is
 * read until touched, so a lookup in a 12 MB table reads a few pages), else
 * read. Only for files replaced by rename, never written in place.
 */
export function mapFile(file: string): Buffer {
  const bun = (globalThis as { Bun?: { mmap?: (path: string) => Uint8Array } }).Bun;
  if (bun?.mmap) {
    // mmap of an empty file fails; a missing one throws as readFileSync would.
    if (fs.statSync(file).size === 0) return Buffer.alloc(0);
    const bytes = bun.mmap(file);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return fs.readFileSync(file);
}

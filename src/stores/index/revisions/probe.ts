/**
 * A read-only look at the index file for `git mem doctor` and `git mem stats`:
 * can it be opened, which version wrote it, which notes-ref tips it reflects,
 * what it holds. Unlike RevisionIndex.open it never refreshes, rebuilds or
 * writes. It reads the schema of schema.ts.
 */
import fs from 'node:fs';
import { errorMessage } from '../../../core/errors.ts';
import { loadSqlJs } from '../sqljs.ts';
import { INDEX_VERSION } from './schema.ts';

export interface IndexProbe {
  file: string;
  exists: boolean;
  bytes: number;
  /** The version that wrote it; null when unreadable or absent. */
  version: string | null;
  expectedVersion: string;
  /** Why it could not be read, or what the integrity check found. */
  error: string | null;
  /** Notes-ref tips (namespace → commit) it last indexed. */
  tips: Record<string, string> | null;
  memories: number | null;
}

export async function probeIndex(file: string): Promise<IndexProbe> {
  const probe: IndexProbe = { file, exists: false, bytes: 0, version: null, expectedVersion: INDEX_VERSION, error: null, tips: null, memories: null };
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') probe.error = errorMessage(err);
    return probe;
  }
  probe.exists = true;
  probe.bytes = bytes.length;
  try {
    const sql = await loadSqlJs();
    const db = new sql.Database(bytes);
    try {
      const one = (q: string) => db.exec(q)[0]?.values[0]?.[0];
      const check = String(one('PRAGMA quick_check') ?? 'no answer');
      if (check !== 'ok') probe.error = `integrity check: ${check}`;
      probe.version = String(one("SELECT value FROM meta WHERE key = 'version'") ?? '') || null;
      probe.tips = JSON.parse(String(one("SELECT value FROM meta WHERE key = 'tips'") ?? '{}')) as Record<string, string>;
      if (probe.version === INDEX_VERSION) probe.memories = Number(one('SELECT count(*) FROM memories WHERE current = 1') ?? 0);
    } finally {
      db.close();
    }
  } catch (err) {
    probe.error = errorMessage(err);
  }
  return probe;
}

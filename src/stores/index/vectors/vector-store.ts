/**
 * Stored sentence vectors, a cache like the index: one row per memory key,
 * model and content hash, the vector as little-endian Float32 bytes.
 *
 * They live in their own SQLite file beside the index
 * (`<git common dir>/mem/vectors.sqlite`), not in index.sqlite: sql.js keeps a
 * database in memory and the index file is rewritten whole whenever the notes
 * change, so 1.5 KB per memory there (15 MB at 10,000 memories) would slow
 * every capture, list and lexical recall. This file is read only by semantic
 * and hybrid recall and written only when they embedded something new.
 *
 * Writes go through sql.js (under a lock, to a temporary file, then a rename,
 * like the index). Reads, on every semantic recall, use Bun's built-in SQLite
 * when running under Bun (the compiled binary): sql.js would load the whole
 * file into memory and copies each blob byte by byte, about three times slower
 * at 10,000 vectors. Under Node (tests) reads use sql.js.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic } from 'sql.js';
import { bytesToVector, vectorToBytes } from '../../../core/search/embedding.ts';
import { acquireLock } from '../../cache/lock.ts';
import { loadSqlJs } from '../sqljs.ts';
import { writeFileAtomic } from '../../../io/atomic-write.ts';

export const VECTORS_VERSION = '1';

// 64 KiB pages: a vector row (1.5 KB for 384 dimensions) fits whole in a page
// with little waste; with 4 KiB pages each row spilled into overflow pages and
// the file was three times the size of its data.
const SCHEMA = `
PRAGMA page_size = 65536;
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE vectors(
  model TEXT NOT NULL,
  key TEXT NOT NULL,
  hash TEXT NOT NULL,
  vec BLOB NOT NULL
);
CREATE UNIQUE INDEX vectors_id ON vectors(model, key, hash);
`;

// A plain scan: through the unique index, every row would be a lookup (three times slower at 10,000 rows).
const READ = 'SELECT key, hash, vec FROM vectors NOT INDEXED WHERE model = ?';

export interface StoredVector {
  key: string;
  hash: string;
  vec: Float32Array;
}

/** A memory key's vector and the content hash it was computed from. */
export type VectorMap = Map<string, { hash: string; vec: Float32Array }>;

export class VectorStore {
  private pending: StoredVector[] = [];
  private pendingModel = '';

  constructor(readonly file: string) {}

  /** The database in `file`, or a new empty one when it is missing, unreadable or of another version (it is only a cache). */
  private static load(sql: SqlJsStatic, file: string): Database {
    try {
      const db = new sql.Database(fs.readFileSync(file));
      try {
        if (db.exec("SELECT value FROM meta WHERE key = 'version'")[0]?.values[0]?.[0] === VECTORS_VERSION) return db;
      } catch {
        // Not ours.
      }
      db.close();
    } catch {
      // Missing or unreadable.
    }
    const db = new sql.Database();
    db.run(SCHEMA);
    db.run("INSERT INTO meta(key, value) VALUES ('version', ?)", [VECTORS_VERSION]);
    return db;
  }

  /** Every stored vector of a model (and those queued for it), by memory key. */
  async vectors(model: string): Promise<VectorMap> {
    const out: VectorMap = new Map();
    // bytesToVector views each row's own bytes (both readers return a fresh array per row): no copy.
    const put = (key: unknown, hash: unknown, vec: unknown) => out.set(String(key), { hash: String(hash), vec: bytesToVector(vec as Uint8Array) });
    if (process.versions.bun) {
      for (const r of await readWithBun(this.file, model)) put(r.key, r.hash, r.vec);
    } else {
      const db = VectorStore.load(await loadSqlJs(), this.file);
      const stmt = db.prepare(READ);
      try {
        stmt.bind([model]);
        while (stmt.step()) {
          const [key, hash, vec] = stmt.get();
          put(key, hash, vec);
        }
      } finally {
        stmt.free();
        db.close();
      }
    }
    for (const v of this.pendingModel === model ? this.pending : []) out.set(v.key, { hash: v.hash, vec: v.vec });
    return out;
  }

  /** Queues vectors for the next persist(). */
  add(model: string, vectors: StoredVector[]): void {
    if (this.pendingModel !== model) {
      this.pending = [];
      this.pendingModel = model;
    }
    this.pending.push(...vectors);
  }

  /**
   * Writes the queued vectors of `model`: under a lock, reads the file
   * (another process may have added vectors meanwhile), adds ours, drops older
   * hashes of the same keys and, given `keep` (every current key and hash), any
   * vector of this model not in it; then a temporary file and a rename.
   * Returns false when the lock could not be had (the vectors are recomputed
   * next time).
   */
  async persist(model: string, keep?: ReadonlyMap<string, string>): Promise<boolean> {
    if (this.pendingModel !== model) this.pending = [];
    if (this.pending.length === 0 && !keep) return true;
    const sql = await loadSqlJs();
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const release = acquireLock(`${this.file}.lock`, 3000);
    if (!release) return false;
    let db: Database | undefined;
    try {
      db = VectorStore.load(sql, this.file);
      db.run('BEGIN');
      const del = db.prepare('DELETE FROM vectors WHERE model = ? AND key = ? AND hash <> ?');
      const put = db.prepare('INSERT OR REPLACE INTO vectors(model, key, hash, vec) VALUES (?, ?, ?, ?)');
      for (const v of this.pending) {
        del.run([model, v.key, v.hash]);
        put.run([model, v.key, v.hash, vectorToBytes(v.vec)]);
      }
      del.free();
      put.free();
      if (keep) {
        const stale: Array<[string, string]> = [];
        const stmt = db.prepare('SELECT key, hash FROM vectors WHERE model = ?');
        stmt.bind([model]);
        while (stmt.step()) {
          const [key, hash] = stmt.get().map(String) as [string, string];
          if (keep.get(key) !== hash) stale.push([key, hash]);
        }
        stmt.free();
        for (const [key, hash] of stale) db.run('DELETE FROM vectors WHERE model = ? AND key = ? AND hash = ?', [model, key, hash]);
      }
      db.run('COMMIT');
      writeFileAtomic(this.file, db.export());
      this.pending = [];
      return true;
    } finally {
      db?.close();
      release();
    }
  }

  /** Rows per model: for status and tests. */
  async count(model: string): Promise<number> {
    return (await this.vectors(model)).size;
  }
}

/** Bun's native SQLite, read-only: nothing is loaded but what the query reads. A missing, foreign or corrupt file reads as empty. */
async function readWithBun(file: string, model: string): Promise<Array<{ key: unknown; hash: unknown; vec: Uint8Array }>> {
  if (!fs.existsSync(file)) return [];
  const { Database: BunDatabase } = await import('bun:sqlite');
  let db: InstanceType<typeof BunDatabase> | undefined;
  try {
    db = new BunDatabase(file, { readonly: true });
    const version = (db.query("SELECT value FROM meta WHERE key = 'version'").all() as Array<{ value: string }>)[0]?.value;
    if (version !== VECTORS_VERSION) return [];
    return db.query(READ).all(model) as Array<{ key: string; hash: string; vec: Uint8Array }>;
  } catch {
    return [];
  } finally {
    db?.close();
  }
}

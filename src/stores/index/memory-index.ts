/**
 * The sql.js index: a cache of the notes, kept in the git common dir. Before
 * every read it catches up with the notes refs, whoever moved them, reading
 * only the notes that changed since the tips it recorded.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { errorMessage, GitError } from '../../core/errors.ts';
import { type IdQuery, type Memory, type Status, type Tombstone } from '../../core/memory.ts';
import { parseNote } from '../../core/note-format.ts';
import { embeddingHash } from '../../core/embedding.ts';
import { sha1Hex } from '../../core/hash.ts';
import { currentRevision } from '../../core/revisions.ts';
import type { NotesStore } from '../git/notes-store.ts';
import { acquireLock } from './lock.ts';
import { loadSqlJs } from './sqljs.ts';
import { INDEX_VERSION, SCHEMA } from './schema.ts';

export interface ListFilter {
  namespaces?: string[];
  /** Attached to one of these objects (full ids). */
  objects?: string[];
  statuses?: Status[];
  since?: string;
  until?: string;
  limit?: number;
}

export interface SearchFilter extends ListFilter {
  /** Memories carrying every one of these tags. */
  tags?: string[];
  spec?: string;
}

export interface ScoredMemory {
  memory: Memory;
  score: number;
}

export interface RefreshOptions {
  rebuild?: boolean;
  progress?: (done: number, total: number) => void;
}

/** SQL conditions for a filter on the memories table (`alias` prefixes its columns); only current revisions. */
function filterClause(filter: SearchFilter, alias = ''): { where: string[]; params: SqlValue[] } {
  const a = alias ? `${alias}.` : '';
  const where = [`${a}current = 1`];
  const params: SqlValue[] = [];
  const anyOf = (column: string, values: readonly string[] | undefined) => {
    if (!values?.length) return;
    where.push(`${a}${column} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  anyOf('ns', filter.namespaces);
  anyOf('status', filter.statuses);
  anyOf('object', filter.objects);
  if (filter.since) {
    where.push(`${a}created >= ?`);
    params.push(filter.since);
  }
  if (filter.until) {
    where.push(`${a}created <= ?`);
    params.push(filter.until);
  }
  if (filter.spec) {
    where.push(`${a}spec = ?`);
    params.push(filter.spec);
  }
  for (const tag of filter.tags ?? []) {
    // tags holds a JSON array; a tag's JSON string (quotes included) appears in it only as a whole element.
    where.push(`instr(${a}tags, ?) > 0`);
    params.push(JSON.stringify(tag));
  }
  return { where, params };
}

type Row = Record<string, SqlValue>;

function rowToMemory(r: Row): Memory {
  const m: Memory = {
    key: String(r.key),
    namespace: String(r.ns),
    object: String(r.object),
    summary: String(r.summary),
    body: String(r.body),
    created: String(r.created),
    updated: String(r.updated),
    tags: JSON.parse(String(r.tags)) as string[],
    status: r.status as Status,
    relatesTo: JSON.parse(String(r.relates_to)) as string[],
  };
  if (r.spec) m.spec = String(r.spec);
  if (r.phase) m.phase = String(r.phase);
  if (r.author) m.author = String(r.author);
  if (r.source) m.source = String(r.source);
  if (typeof r.confidence === 'number') m.confidence = r.confidence;
  return m;
}

export interface IndexOptions {
  file: string;
  notes: NotesStore;
  /** One-line notices (rebuilt index, skipped notes) for stderr. */
  notice: (message: string) => void;
}

export class MemoryIndex {
  private constructor(
    private db: Database,
    private readonly sql: SqlJsStatic,
    private readonly options: IndexOptions,
  ) {}

  /** What the refresh done by open() did. */
  opened: { updated: boolean } = { updated: false };

  /** Opens the index and brings it up to date (`refresh` options: a forced rebuild, a progress callback). */
  static async open(options: IndexOptions, refresh: RefreshOptions = {}): Promise<MemoryIndex> {
    const sql = await loadSqlJs();
    const index = new MemoryIndex(MemoryIndex.load(sql, options), sql, options);
    index.opened = index.refresh(refresh);
    return index;
  }

  private static load(sql: SqlJsStatic, options: IndexOptions): Database {
    let bytes: Buffer | undefined;
    try {
      bytes = fs.readFileSync(options.file);
    } catch {
      // No index yet.
    }
    if (bytes) {
      try {
        const db = new sql.Database(bytes);
        const version = db.exec("SELECT value FROM meta WHERE key = 'version'")[0]?.values[0]?.[0];
        if (version === INDEX_VERSION) return db;
        db.close();
      } catch (err) {
        options.notice(`index at ${options.file} was unreadable (${errorMessage(err)}); rebuilding it from the notes`);
      }
    }
    const db = new sql.Database();
    db.run(SCHEMA);
    db.run("INSERT INTO meta(key, value) VALUES ('version', ?), ('tips', '{}')", [INDEX_VERSION]);
    return db;
  }

  private indexedTips(): Record<string, string> {
    const v = this.db.exec("SELECT value FROM meta WHERE key = 'tips'")[0]?.values[0]?.[0];
    return JSON.parse(String(v ?? '{}')) as Record<string, string>;
  }

  /** Brings the index up to date with the notes refs; persists under a lock when anything changed. */
  refresh(options: RefreshOptions = {}): { updated: boolean } {
    const tips = Object.fromEntries(this.options.notes.tips());
    const same = (a: Record<string, string>) => JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(tips).sort());
    if (!options.rebuild && same(this.indexedTips())) return { updated: false };

    fs.mkdirSync(path.dirname(this.options.file), { recursive: true });
    const release = acquireLock(`${this.options.file}.lock`, 5000);
    try {
      if (release && !options.rebuild) {
        // Another process may have caught up while we waited.
        this.db.close();
        this.db = MemoryIndex.load(this.sql, { ...this.options, notice: () => {} });
        if (same(this.indexedTips())) return { updated: false };
      }
      if (options.rebuild) {
        this.db.close();
        this.db = new this.sql.Database();
        this.db.run(SCHEMA);
        this.db.run("INSERT INTO meta(key, value) VALUES ('version', ?), ('tips', '{}')", [INDEX_VERSION]);
      }
      this.apply(tips, options.progress);
      if (release) this.persist();
      return { updated: true };
    } finally {
      release?.();
    }
  }

  private apply(tips: Record<string, string>, progress?: (done: number, total: number) => void): void {
    const indexed = this.indexedTips();
    const notes = this.options.notes;
    const touchedKeys = new Set<string>();
    const work: Array<{ ns: string; object: string; blob: string }> = [];
    this.db.run('BEGIN');
    const clear = (ns: string, object?: string) => {
      const where = object ? 'ns = ? AND object = ?' : 'ns = ?';
      const params = object ? [ns, object] : [ns];
      // The full-text rows first: FTS4 reads their text from memories to remove it.
      this.db.run(`DELETE FROM memories_fts WHERE docid IN (SELECT id FROM memories WHERE ${where})`, params);
      for (const table of ['memories', 'tombstones']) {
        for (const r of this.all(`SELECT key FROM ${table} WHERE ${where}`, params)) touchedKeys.add(String(r.key));
        this.db.run(`DELETE FROM ${table} WHERE ${where}`, params);
      }
    };
    for (const ns of new Set([...Object.keys(tips), ...Object.keys(indexed)])) {
      const from = indexed[ns];
      const to = tips[ns];
      if (from === to) continue;
      let changes: Array<{ object: string; blob: string | null; oldBlob: string | null }> | undefined;
      if (from && to) {
        try {
          changes = notes.diffNotes(from, to);
        } catch (err) {
          if (!(err instanceof GitError)) throw err;
        }
      }
      if (!changes) {
        // No usable diff (first build, or the old tip is gone): index the whole namespace afresh.
        clear(ns);
        changes = to ? notes.listNotes(to).map((n) => ({ ...n, oldBlob: null })) : [];
      }
      for (const c of changes) {
        if (c.oldBlob) clear(ns, c.object);
        if (c.blob) work.push({ ns, object: c.object, blob: c.blob });
      }
    }

    const insertMemory = this.db.prepare(
      `INSERT INTO memories(key, ns, object, summary, body, tags, status, spec, phase, relates_to, created, updated, author, source, confidence, tiebreak, ehash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertTombstone = this.db.prepare('INSERT INTO tombstones(key, ns, object, updated) VALUES (?, ?, ?, ?)');
    // Rows inserted below get ids above this (INTEGER PRIMARY KEY: max + 1), so one statement indexes their text.
    const lastId = Number(this.db.exec('SELECT coalesce(max(id), 0) FROM memories')[0]?.values[0]?.[0] ?? 0);
    const CHUNK = 2000;
    for (let i = 0; i < work.length; i += CHUNK) {
      const chunk = work.slice(i, i + CHUNK);
      const texts = notes.readTexts(chunk.map((w) => w.blob));
      for (const w of chunk) {
        const { docs, warnings } = parseNote(texts.get(w.blob) ?? '', w.ns, w.object);
        for (const warning of warnings) this.options.notice(warning);
        for (const doc of docs) {
          if (doc.kind === 'memory') {
            const m = doc.memory;
            touchedKeys.add(m.key);
            insertMemory.run([
              m.key, m.namespace, m.object, m.summary, m.body, JSON.stringify(m.tags), m.status, m.spec ?? null, m.phase ?? null,
              JSON.stringify(m.relatesTo), m.created, m.updated, m.author ?? null, m.source ?? null, m.confidence ?? null, sha1Hex(doc.raw),
              embeddingHash(m),
            ]);
          } else if (doc.kind === 'tombstone') {
            const t: Tombstone = doc.tombstone;
            touchedKeys.add(t.key);
            insertTombstone.run([t.key, t.namespace, t.object, t.updated]);
          }
        }
      }
      progress?.(Math.min(i + CHUNK, work.length), work.length);
    }
    insertMemory.free();
    insertTombstone.free();
    this.db.run('INSERT INTO memories_fts(docid, summary, tags, body) SELECT id, summary, tags, body FROM memories WHERE id > ?', [lastId]);
    this.markCurrent(touchedKeys);
    this.db.run("UPDATE meta SET value = ? WHERE key = 'tips'", [JSON.stringify(tips)]);
    this.db.run('COMMIT');
  }

  /** One current revision per key: the newest, unless a tombstone hides it. */
  private markCurrent(keys: Set<string>): void {
    const revisions = this.db.prepare('SELECT id, updated, tiebreak FROM memories WHERE key = ?');
    const tombs = this.db.prepare('SELECT updated FROM tombstones WHERE key = ?');
    const set = this.db.prepare('UPDATE memories SET current = ? WHERE id = ?');
    for (const key of keys) {
      const rows = this.collect(revisions, [key]);
      if (rows.length === 1 && this.collect(tombs, [key]).length === 0) {
        set.run([1, rows[0]!.id!]);
        continue;
      }
      const winner = currentRevision(
        rows.map((r) => ({ updated: String(r.updated), tiebreak: String(r.tiebreak) })),
        this.collect(tombs, [key]).map((r) => ({ updated: String(r.updated) })),
      );
      rows.forEach((r, i) => set.run([i === winner ? 1 : 0, r.id!]));
    }
    revisions.free();
    tombs.free();
    set.free();
  }

  private collect(stmt: ReturnType<Database['prepare']>, params: SqlValue[]): Row[] {
    stmt.bind(params);
    const rows: Row[] = [];
    while (stmt.step()) rows.push(stmt.getAsObject());
    stmt.reset();
    return rows;
  }

  private all(sql: string, params: SqlValue[] = []): Row[] {
    const stmt = this.db.prepare(sql);
    try {
      return this.collect(stmt, params);
    } finally {
      stmt.free();
    }
  }

  /** Write to a temporary file, then rename: readers never see a half-written index. */
  private persist(): void {
    const tmp = `${this.options.file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, this.db.export());
    fs.renameSync(tmp, this.options.file);
  }

  list(filter: ListFilter = {}): Memory[] {
    const { where, params } = filterClause(filter);
    const limit = filter.limit && filter.limit > 0 ? ` LIMIT ${Math.floor(filter.limit)}` : '';
    return this.all(`SELECT * FROM memories WHERE ${where.join(' AND ')} ORDER BY created DESC, key${limit}`, params).map(rowToMemory);
  }

  /** Current memories whose id matches the query (any unique key prefix). */
  find(query: IdQuery): Memory[] {
    const where = ['current = 1', 'key >= ?', 'key < ?'];
    const params: SqlValue[] = [query.keyPrefix, `${query.keyPrefix}g`];
    if (query.namespace) {
      where.push('ns = ?');
      params.push(query.namespace);
    }
    if (query.objectPrefix) {
      where.push('object >= ? AND object < ?');
      params.push(query.objectPrefix, `${query.objectPrefix}g`);
    }
    return this.all(`SELECT * FROM memories WHERE ${where.join(' AND ')} ORDER BY key LIMIT 20`, params).map(rowToMemory);
  }

  /**
   * Full-text search: current memories matching the FTS4 expression and the
   * filter, scored by `score` from each row's `matchinfo(fts, 'pcnalx')`, best
   * first (ties: newer first), at most `filter.limit`. Only the winners' rows are read.
   */
  search(match: string, filter: SearchFilter, score: (matchinfo: Uint8Array) => number): ScoredMemory[] {
    const { where, params } = filterClause(filter, 'm');
    const stmt = this.db.prepare(
      `SELECT m.id AS id, m.created AS created, m.key AS key, matchinfo(memories_fts, 'pcnalx') AS info
       FROM memories_fts CROSS JOIN memories m ON m.id = memories_fts.docid
       WHERE memories_fts MATCH ? AND ${where.join(' AND ')}`,
    );
    const hits: Array<{ id: number; created: string; key: string; score: number }> = [];
    try {
      stmt.bind([match, ...params]);
      while (stmt.step()) {
        const [id, created, key, info] = stmt.get();
        hits.push({ id: Number(id), created: String(created), key: String(key), score: score(info as Uint8Array) });
      }
    } finally {
      stmt.free();
    }
    hits.sort((x, y) => y.score - x.score || (x.created < y.created ? 1 : x.created > y.created ? -1 : 0) || (x.key < y.key ? -1 : 1));
    const top = filter.limit && filter.limit > 0 ? hits.slice(0, Math.floor(filter.limit)) : hits;
    const rows = this.rowsById(top.map((h) => h.id));
    return top.flatMap((h) => {
      const row = rows.get(h.id);
      return row ? [{ memory: rowToMemory(row), score: h.score }] : [];
    });
  }

  private rowsById(ids: readonly number[]): Map<number, Row> {
    const rows = new Map<number, Row>();
    for (let i = 0; i < ids.length; i += 500) {
      const chunk = ids.slice(i, i + 500);
      for (const r of this.all(`SELECT * FROM memories WHERE id IN (${chunk.map(() => '?').join(',')})`, chunk)) rows.set(Number(r.id), r);
    }
    return rows;
  }

  /** Memories by row id (as embeddingCandidates() gives them), in the order given; ids no longer present are skipped. */
  byIds(ids: readonly number[]): Memory[] {
    const rows = this.rowsById(ids);
    return ids.flatMap((id) => {
      const row = rows.get(id);
      return row ? [rowToMemory(row)] : [];
    });
  }

  /**
   * Current memories matching the filter (its limit ignored), as semantic
   * search needs them: row id, key and the hash of their embedding text, in row order.
   */
  embeddingCandidates(filter: SearchFilter): Array<{ id: number; key: string; hash: string }> {
    const { where, params } = filterClause(filter);
    // A plain scan: it reads most rows anyway, and through an index each is a lookup (twice as slow at 10,000).
    const stmt = this.db.prepare(`SELECT id, key, ehash FROM memories NOT INDEXED WHERE ${where.join(' AND ')}`);
    const out: Array<{ id: number; key: string; hash: string }> = [];
    try {
      stmt.bind(params);
      while (stmt.step()) {
        const [id, key, hash] = stmt.get();
        out.push({ id: Number(id), key: String(key), hash: String(hash) });
      }
    } finally {
      stmt.free();
    }
    return out;
  }

  /** Memories and tombstones stored in a namespace's notes, every revision counted. */
  documentCount(namespace: string): number {
    const [m] = this.all('SELECT (SELECT count(*) FROM memories WHERE ns = ?) + (SELECT count(*) FROM tombstones WHERE ns = ?) AS n', [namespace, namespace]);
    return Number(m?.n ?? 0);
  }

  counts(): Map<string, number> {
    return new Map(this.all('SELECT ns, count(*) AS n FROM memories INDEXED BY memories_ns_created WHERE current = 1 GROUP BY ns').map((r) => [String(r.ns), Number(r.n)]));
  }

  /** Sizes for `git mem index`: current memories per namespace, all stored revisions, tombstones. */
  stats(): { namespaces: Map<string, number>; memories: number; revisions: number; tombstones: number } {
    const namespaces = this.counts();
    const count = (sql: string) => Number(this.db.exec(sql)[0]?.values[0]?.[0] ?? 0);
    return {
      namespaces,
      memories: [...namespaces.values()].reduce((x, y) => x + y, 0),
      revisions: count('SELECT count(*) FROM memories'),
      tombstones: count('SELECT count(*) FROM tombstones'),
    };
  }

  close(): void {
    this.db.close();
  }
}

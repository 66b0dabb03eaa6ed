/**
 * The sql.js index: a cache of the notes, kept in the git common dir. Before
 * every read it catches up with the notes refs, whoever moved them, reading
 * only the notes that changed since the tips it recorded.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Database, SqlJsStatic, SqlValue } from 'sql.js';
import { errorMessage, GitError } from '../../../core/errors.ts';
import type { Memory, Tombstone } from '../../../core/memory.ts';
import { parseNote } from '../../../core/note-format.ts';
import { embeddingHash } from '../../../core/search/embedding.ts';
import { currentRevision, tiebreakOf } from '../../../core/revisions.ts';
import type { NotesStore } from '../../git/notes-store.ts';
import { tracePhase } from '../../../io/trace.ts';
import { acquireLock } from '../../cache/lock.ts';
import { removeDeadTemps, writeFileAtomic } from '../../../io/atomic-write.ts';
import { buildTermIndex, writeTermIndex } from '../terms/build.ts';
import { sameTips, TermIndex } from '../terms/reader.ts';
import { keyHashesOf, overlayFileOf } from '../terms/format.ts';
import { loadSqlJs } from '../sqljs.ts';
import { INDEX_VERSION, SCHEMA } from './schema.ts';
import { compileFilter, type CompiledFilter, type SearchFilter } from '../filter.ts';


export interface RefreshOptions {
  rebuild?: boolean;
  progress?: (done: number, total: number) => void;
}

/** A memory's identity in the index: its namespace and key (two namespaces may hold the same key), joined by a character neither holds. */
function memoryKey(namespace: string, key: string): string {
  return `${namespace}\x01${key}`;
}

/** SQL conditions for a compiled filter on the memories table (`alias` prefixes its columns); only current revisions. */
function filterClause(filter: CompiledFilter, alias = ''): { where: string[]; params: SqlValue[] } {
  const a = alias ? `${alias}.` : '';
  const where = [`${a}current = 1`];
  const params: SqlValue[] = [];
  const anyOf = (column: string, values: readonly string[] | null) => {
    if (!values) return;
    where.push(`${a}${column} IN (${values.map(() => '?').join(',')})`);
    params.push(...values);
  };
  anyOf('ns', filter.namespaces);
  anyOf('status', filter.statuses);
  if (filter.objects) {
    // Attached to one of them: any copy of the memory counts.
    where.push(`(${a}ns, ${a}key) IN (SELECT ns, key FROM memories WHERE object IN (${[...filter.objects].map(() => '?').join(',')}))`);
    params.push(...filter.objects);
  }
  if (filter.sinceMs > -Infinity) {
    where.push(`${a}created_ms >= ?`);
    params.push(filter.sinceMs);
  }
  if (filter.untilMs < Infinity) {
    where.push(`${a}created_ms <= ?`);
    params.push(filter.untilMs);
  }
  if (filter.spec) {
    where.push(`${a}spec = ?`);
    params.push(filter.spec);
  }
  for (const tag of filter.tags) {
    // tags holds a JSON array; a tag's JSON string (quotes included) appears in it only as a whole element.
    where.push(`instr(${a}tags, ?) > 0`);
    params.push(JSON.stringify(tag));
  }
  return { where, params };
}

type Row = Record<string, SqlValue>;

/** Hex digests are stored as their bytes: half the size, in the table and in every page of it. */
function hexBytes(hex: string): Uint8Array {
  return Uint8Array.from(Buffer.from(hex, 'hex'));
}

/** A creation time in ms, as the term index keeps it; an unreadable one sorts oldest. */
/** Rows by memory (memoryKey, as markCurrent's keys are), each memory's in the order given. */
function groupByMemory(rows: Row[]): Map<string, Row[]> {
  const out = new Map<string, Row[]>();
  for (const r of rows) {
    const id = memoryKey(String(r.ns), String(r.key));
    const list = out.get(id);
    if (list) list.push(r);
    else out.set(id, [r]);
  }
  return out;
}

/**
 * Keys with more than one row, whatever their namespace (a superset of those with more than one
 * per namespace, narrowed by the caller): a walk of the key index, where grouping by namespace and
 * key sorted every row (78 ms of a 10,000-memory update in a new process).
 */
const REPEATED_KEYS = 'SELECT key FROM memories INDEXED BY memories_key GROUP BY key HAVING count(*) > 1';

/** Row ids from `id<2>created_ms<1>...`, ordered by creation time, then id (the order appends add documents in). */
function inCreationOrder(list: string): number[] {
  if (!list) return [];
  const rows = list.split('\x01');
  const ids = new Float64Array(rows.length);
  const times = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    const sep = row.indexOf('\x02');
    ids[i] = Number(row.slice(0, sep));
    times[i] = Number(row.slice(sep + 1));
  });
  const order = Array.from(rows, (_, i) => i).sort((a, b) => times[a]! - times[b]! || ids[a]! - ids[b]!);
  return order.map((i) => ids[i]!);
}

function createdMs(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

const LIFECYCLE_FIELDS = ['consolidates', 'consolidatedInto', 'supersedes', 'supersededBy', 'reprieves'] as const;

/** The lifecycle fields a memory has, as one JSON column (null when it has none: most memories). */
function lifecycleJson(m: Memory): string | null {
  const present = LIFECYCLE_FIELDS.filter((f) => m[f] !== undefined);
  return present.length ? JSON.stringify(Object.fromEntries(present.map((f) => [f, m[f]]))) : null;
}

/** What the SQLite index is given: the facade (index.ts) derives it from its IndexOptions. */
export interface RevisionIndexOptions {
  file: string;
  /** The term index kept beside it (terms/reader.ts). */
  termFile: string;
  notes: NotesStore;
  /** One-line notices (rebuilt index, skipped notes) for stderr. */
  notice: (message: string) => void;
  /** Whether the cache folder can be written (stores/cache/mem-dir.ts); when not, updates stay in memory. */
  writable: () => boolean;
}

export class RevisionIndex {
  private constructor(
    private db: Database,
    private readonly sql: SqlJsStatic,
    private readonly options: RevisionIndexOptions,
  ) {}

  /** What the refresh done by open() did: read from the notes, and whether the file holds it. */
  opened: { updated: boolean; written: boolean } = { updated: false, written: true };

  /** Memories read from the notes by this process, by row: the term index takes their text from here (the table keeps none). */
  private readonly fresh = new Map<number, Memory>();

  /** The term index of exactly this index (termIndex()), once read or built. */
  private terms?: TermIndex;

  /** Opens the index and brings it up to date (`refresh` options: a forced rebuild, a progress callback). */
  static async open(options: RevisionIndexOptions, refresh: RefreshOptions = {}): Promise<RevisionIndex> {
    const sql = await loadSqlJs();
    tracePhase('sql.js ready');
    // Stamped before reading: if the file is replaced in between, the stamp is stale and a later check reloads.
    const stamp = RevisionIndex.stamp(options.file);
    const index = new RevisionIndex(RevisionIndex.load(sql, options), sql, options);
    index.loadedStamp = stamp;
    tracePhase('index loaded');
    index.opened = index.refresh(refresh);
    tracePhase(index.opened.updated ? 'index updated' : 'index current');
    return index;
  }

  /** Identifies the index file loaded: writers replace it by rename, so the same inode, size and time mean the same content. */
  private loadedStamp = '';

  private static stamp(file: string): string {
    try {
      const st = fs.statSync(file);
      return `${st.ino}:${st.size}:${st.mtimeMs}`;
    } catch {
      return '';
    }
  }

  private static load(sql: SqlJsStatic, options: RevisionIndexOptions): Database {
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
    return RevisionIndex.create(sql);
  }

  /** An empty index. Its generation changes with every rebuild: row ids of one generation mean nothing in another. */
  private static create(sql: SqlJsStatic): Database {
    const db = new sql.Database();
    db.run(SCHEMA);
    db.run("INSERT INTO meta(key, value) VALUES ('version', ?), ('tips', '{}'), ('generation', ?)", [INDEX_VERSION, randomBytes(8).toString('hex')]);
    return db;
  }

  private newGeneration(): void {
    this.db.run("UPDATE meta SET value = ? WHERE key = 'generation'", [randomBytes(8).toString('hex')]);
  }

  private meta(key: string): string | undefined {
    const v = this.db.exec('SELECT value FROM meta WHERE key = ?', [key])[0]?.values[0]?.[0];
    return v === undefined || v === null ? undefined : String(v);
  }

  private indexedTips(): Record<string, string> {
    return JSON.parse(this.meta('tips') ?? '{}') as Record<string, string>;
  }

  /**
   * Brings the index up to date with the notes refs; persists under a lock
   * when anything changed. Without the folder or the lock the update stays in
   * memory (`written: false`).
   */
  refresh(options: RefreshOptions = {}): { updated: boolean; written: boolean } {
    const tips = Object.fromEntries(this.options.notes.tips());
    const same = (a: Record<string, string>) => sameTips(a, tips);
    if (!options.rebuild && same(this.indexedTips())) return { updated: false, written: true };

    const release = this.options.writable() ? acquireLock(`${this.options.file}.lock`, 5000) : null;
    try {
      const stamp = RevisionIndex.stamp(this.options.file);
      if (release && !options.rebuild && (stamp !== this.loadedStamp || !stamp)) {
        // Another process wrote the index since we read it (it may have caught up while we waited).
        this.db.close();
        this.db = RevisionIndex.load(this.sql, { ...this.options, notice: () => {} });
        this.forgetRows();
        this.loadedStamp = stamp;
        if (same(this.indexedTips())) return { updated: false, written: true };
      }
      if (options.rebuild) {
        this.db.close();
        this.db = RevisionIndex.create(this.sql);
        this.forgetRows();
      }
      // Without the lock this update stays in memory, where new rows get ids the file's rows
      // (and the term index on disk) may give to other memories: a generation of its own keeps them apart.
      if (!release) this.newGeneration();
      this.apply(tips, options.progress);
      tracePhase('notes applied');
      if (release) {
        // Written since we read it, though we hold the lock: a stale lock was taken over from a
        // process that then wrote anyway. Our row ids are not the file's: a new generation.
        if (RevisionIndex.stamp(this.options.file) !== this.loadedStamp) this.newGeneration();
        this.persist();
        this.loadedStamp = RevisionIndex.stamp(this.options.file);
        tracePhase('index written');
        this.syncTermIndex(true);
      }
      return { updated: true, written: Boolean(release) };
    } finally {
      release?.();
    }
  }

  /** Row ids of another database (reloaded, rebuilt) mean nothing here. */
  private forgetRows(): void {
    this.fresh.clear();
    this.terms = undefined;
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
      for (const table of ['memories', 'tombstones']) {
        for (const r of this.all(`SELECT ns, key FROM ${table} WHERE ${where}`, params)) touchedKeys.add(memoryKey(String(r.ns), String(r.key)));
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
      `INSERT INTO memories(id, key, ns, object, summary, tags, status, spec, created, created_ms, updated, paths, lifecycle, tiebreak, ehash)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // Row ids given here, as AUTOINCREMENT would (never reused): the term index is built from the memories by row.
    let rowid = Number(this.db.exec("SELECT seq FROM sqlite_sequence WHERE name = 'memories'")[0]?.values[0]?.[0] ?? 0);
    const insertTombstone = this.db.prepare('INSERT INTO tombstones(key, ns, object, updated) VALUES (?, ?, ?, ?)');
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
            touchedKeys.add(memoryKey(m.namespace, m.key));
            insertMemory.run([
              ++rowid, m.key, m.namespace, m.object, m.summary, JSON.stringify(m.tags), m.status, m.spec ?? null, m.created, createdMs(m.created), m.updated,
              JSON.stringify(m.paths ?? []), lifecycleJson(m), hexBytes(tiebreakOf(doc.raw)), hexBytes(embeddingHash(m)),
            ]);
            this.fresh.set(rowid, m);
          } else if (doc.kind === 'tombstone') {
            const t: Tombstone = doc.tombstone;
            touchedKeys.add(memoryKey(t.namespace, t.key));
            insertTombstone.run([t.key, t.namespace, t.object, t.updated]);
          }
        }
      }
      progress?.(Math.min(i + CHUNK, work.length), work.length);
    }
    insertMemory.free();
    insertTombstone.free();
    this.markCurrent(touchedKeys);
    this.db.run("UPDATE meta SET value = ? WHERE key = 'tips'", [JSON.stringify(tips)]);
    this.db.run('COMMIT');
  }

  /** One current revision per memory (namespace and key, memoryKey): the newest, unless a tombstone hides it. */
  private markCurrent(keys: Set<string>): void {
    // In object order: identical revisions on several commits (a rewrite's copies) tie, and the first wins, the same in every clone and after a rebuild.
    // By key (the key index): left to choose, SQLite takes the (ns, object) index for `ns = ?` and reads every row of the namespace for each key (issue 31).
    // The keys' rows asked for in chunks, not two queries per key: 100 new memories took 15 ms in queries alone.
    const set = this.db.prepare('UPDATE memories SET current = ? WHERE id = ?');
    const all = [...keys];
    for (let i = 0; i < all.length; i += 400) {
      const chunk = all.slice(i, i + 400);
      const names = [...new Set(chunk.map((id) => id.split('\x01')[1]!))];
      const marks = names.map(() => '?').join(',');
      const revisions = groupByMemory(this.all(`SELECT id, ns, key, updated, lower(hex(tiebreak)) AS tiebreak FROM memories INDEXED BY memories_key WHERE key IN (${marks}) ORDER BY object, id`, names));
      const tombs = groupByMemory(this.all(`SELECT ns, key, updated FROM tombstones INDEXED BY tombstones_key WHERE key IN (${marks})`, names));
      for (const id of chunk) {
        const rows = revisions.get(id) ?? [];
        const tombstones = tombs.get(id) ?? [];
        if (rows.length === 1 && tombstones.length === 0) {
          set.run([1, rows[0]!.id!]);
          continue;
        }
        const winner = currentRevision(
          rows.map((r) => ({ updated: String(r.updated), tiebreak: String(r.tiebreak) })),
          tombstones.map((r) => ({ updated: String(r.updated) })),
        );
        rows.forEach((r, i) => set.run([i === winner ? 1 : 0, r.id!]));
      }
    }
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

  /**
   * The term index (lexical search) for what this index holds: the file when
   * it matches, else brought up to date from it, re-tokenizing only the
   * memories it lacks, and written back when the lock can be had. It also
   * holds the text of every current memory, which this index does not keep.
   */
  termIndex(): TermIndex {
    if (this.terms && this.describes(this.terms)) return this.terms;
    const current = TermIndex.read(this.options.termFile);
    if (current && this.describes(current)) return this.use(current);
    current?.close();
    const release = this.options.writable() ? acquireLock(`${this.options.file}.lock`, 2000) : null;
    try {
      return this.syncTermIndex(Boolean(release));
    } finally {
      release?.();
    }
  }

  /** Kept for later reads (an index handed out earlier stays open: its reader may still read documents from it). */
  private use(terms: TermIndex): TermIndex {
    this.terms = terms;
    return terms;
  }

  /** Whether a term index reflects exactly this index: the same tips, the same row ids. */
  private describes(terms: TermIndex): boolean {
    return terms.generation === this.meta('generation') && terms.reflects(this.indexedTips());
  }

  private syncTermIndex(locked: boolean): TermIndex {
    const previous = TermIndex.read(this.options.termFile);
    if (previous && this.describes(previous)) return this.use(previous);
    const tips = this.indexedTips();
    // One string across the wasm boundary rather than a row object per memory. New documents in
    // creation order, as appends add them: document order breaks ties (feedback's best 10).
    // Sorted here, not by SQL: an ORDER BY over every row took 45 ms of a 10,000-memory update in a new process, the scan 12.
    // (created_ms holds whole milliseconds, which its text gives exactly.)
    const list = this.db.exec("SELECT group_concat(id || char(2) || created_ms, char(1)) FROM memories WHERE current = 1")[0]?.values[0]?.[0];
    const rowids = inCreationOrder(list ? String(list) : '');
    // Most indexes hold no key twice (no copies, no merged revisions): one walk of the key index says so.
    const repeated = Number(this.db.exec(`SELECT count(*) FROM (${REPEATED_KEYS})`)[0]?.values[0]?.[0] ?? 1) > 0;
    const copies = repeated ? Object.fromEntries(this.copies()) : {};
    // Every key the notes hold, so that an update adding only new keys can be told apart (terms/catch-up.ts).
    // Joined by a character no key holds (a hand-written id may hold a space or a comma). Repeats are
    // left to keyHashesOf (sorted, each once): a UNION sorted every key first.
    const keys = this.db.exec('SELECT group_concat(key, char(1)) FROM (SELECT key FROM memories INDEXED BY memories_key UNION ALL SELECT key FROM tombstones)')[0]?.values[0]?.[0];
    const keyHashes = keyHashesOf(keys ? String(keys).split('\x01') : []);
    // Keys with more than their current memory stored: an edit or a forget of any other changes one document (terms/catch-up.ts).
    const multi = this.db.exec(
      repeated
        ? `SELECT group_concat(key, char(1)) FROM (SELECT key FROM memories WHERE key IN (${REPEATED_KEYS}) GROUP BY ns, key HAVING count(*) > 1 UNION SELECT key FROM tombstones)`
        : 'SELECT group_concat(key, char(1)) FROM tombstones',
    )[0]?.values[0]?.[0];
    const multiKeys = keyHashesOf(multi ? String(multi).split('\x01') : []);
    const bytes = buildTermIndex({ tips, generation: this.meta('generation') ?? '', copies, keyHashes, multiKeys }, rowids, previous, (ids) => this.memoriesOfRows(ids));
    previous?.close();
    this.fresh.clear();
    tracePhase('term index built');
    if (locked) {
      writeTermIndex(this.options.termFile, bytes);
      // The overlay extended the file just replaced: if the notes went back to that file's tips, it would apply again, to no purpose.
      fs.rmSync(overlayFileOf(this.options.termFile), { force: true });
    }
    return this.use(TermIndex.fromBytes(bytes));
  }

  /**
   * The memories of these rows, for a term index that lacks them: those this
   * process read from the notes, else read again from the notes (a term index
   * lost or left behind by a process that stopped between its two writes).
   */
  private memoriesOfRows(ids: readonly number[]): Array<{ rowid: number; memory: Memory }> {
    const out: Array<{ rowid: number; memory: Memory }> = [];
    const missing: number[] = [];
    for (const id of ids) {
      const memory = this.fresh.get(id);
      if (memory) out.push({ rowid: id, memory });
      else missing.push(id);
    }
    if (!missing.length) return out;
    // Rows by note: the note's revisions are told apart by key and tiebreak (the hash of the document).
    const wanted = new Map<string, Map<string, number>>();
    for (let i = 0; i < missing.length; i += 500) {
      const chunk = missing.slice(i, i + 500);
      for (const r of this.all(`SELECT id, ns, object, key, lower(hex(tiebreak)) AS tiebreak FROM memories WHERE id IN (${chunk.map(() => '?').join(',')})`, chunk)) {
        const note = `${String(r.ns)} ${String(r.object)}`;
        if (!wanted.has(note)) wanted.set(note, new Map());
        wanted.get(note)!.set(`${String(r.key)} ${String(r.tiebreak)}`, Number(r.id));
      }
    }
    const tips = this.indexedTips();
    for (const ns of new Set([...wanted.keys()].map((note) => note.split(' ')[0]!))) {
      const tip = tips[ns];
      if (!tip) continue;
      const notes = this.options.notes.listNotes(tip).filter((n) => wanted.has(`${ns} ${n.object}`));
      const texts = this.options.notes.readTexts(notes.map((n) => n.blob));
      for (const n of notes) {
        const rows = wanted.get(`${ns} ${n.object}`)!;
        for (const doc of parseNote(texts.get(n.blob) ?? '', ns, n.object).docs) {
          if (doc.kind !== 'memory') continue;
          const id = rows.get(`${doc.memory.key} ${tiebreakOf(doc.raw)}`);
          if (id !== undefined) out.push({ rowid: id, memory: doc.memory });
        }
      }
    }
    return out;
  }

  /** The current memories of these rows, in the order given: from the term index, or from their notes where it lacks them. */
  private memoriesById(ids: readonly number[]): Memory[] {
    const terms = this.termIndex();
    const lacking = ids.filter((id) => terms.documentOfRow(id) === undefined);
    const fromNotes = new Map(lacking.length ? this.memoriesOfRows(lacking).map((r) => [r.rowid, r.memory]) : []);
    return ids.flatMap((id) => {
      const doc = terms.documentOfRow(id);
      const memory = doc === undefined ? fromNotes.get(id) : terms.memory(doc);
      return memory ? [memory] : [];
    });
  }

  /** Write to a temporary file, then rename: readers never see a half-written index. Temp files of killed writers go. */
  private persist(): void {
    writeFileAtomic(this.options.file, this.db.export());
    removeDeadTemps(path.dirname(this.options.file));
  }

  /** Current memories that carry lifecycle links (consolidations, supersessions, reprieves): few, read without the rest. */
  withLifecycle(): Memory[] {
    return this.memoriesById(this.all('SELECT id FROM memories WHERE current = 1 AND lifecycle IS NOT NULL ORDER BY key').map((r) => Number(r.id)));
  }

  /** Every object holding a revision of the memory (its copies), in object order. */
  copiesOf(namespace: string, key: string): string[] {
    return this.all('SELECT DISTINCT object FROM memories INDEXED BY memories_key WHERE ns = ? AND key = ? ORDER BY object', [namespace, key]).map((r) => String(r.object));
  }

  /**
   * Current memories that have copies on more than one object, as
   * `<namespace>:<key>` → objects, the current revision's object first.
   */
  copies(): Map<string, string[]> {
    // One string across the wasm boundary, grouped here: a GROUP BY with a join took tens of ms at 10,000 rows.
    // Fields and rows joined by characters no namespace, key or object holds (a hand-written id may hold a space or a comma).
    // Only the rows of keys stored more than once (by the key index): a memory with one row has no copies.
    const all = this.db.exec(`SELECT group_concat(ns || char(2) || key || char(2) || object || char(2) || current, char(1)) FROM memories WHERE key IN (${REPEATED_KEYS})`)[0]?.values[0]?.[0];
    const byMemory = new Map<string, { current?: string; objects: Set<string> }>();
    for (const row of all ? String(all).split('\x01') : []) {
      const [ns, key, object, current] = row.split('\x02');
      const id = `${ns}:${key}`;
      let m = byMemory.get(id);
      if (!m) byMemory.set(id, (m = { objects: new Set() }));
      m.objects.add(object!);
      if (current === '1') m.current = object;
    }
    const out = new Map<string, string[]>();
    for (const [id, m] of byMemory) {
      if (m.objects.size < 2 || !m.current) continue;
      out.set(id, [m.current, ...[...m.objects].filter((o) => o !== m.current).sort()]);
    }
    return out;
  }

  /** Which of these keys the notes hold, as a memory or a tombstone, on any commit: `<namespace>:<key>`. */
  presentKeys(keys: readonly string[]): Set<string> {
    const out = new Set<string>();
    const unique = [...new Set(keys)];
    for (let i = 0; i < unique.length; i += 500) {
      const chunk = unique.slice(i, i + 500);
      const marks = chunk.map(() => '?').join(',');
      for (const r of this.all(`SELECT ns, key FROM memories WHERE key IN (${marks}) UNION SELECT ns, key FROM tombstones WHERE key IN (${marks})`, [...chunk, ...chunk])) {
        out.add(`${String(r.ns)}:${String(r.key)}`);
      }
    }
    return out;
  }

  /** Every stored document (each revision of a memory, each tombstone) by namespace, key and object: where copies sit. */
  documents(): Array<{ namespace: string; key: string; object: string; created: string; paths: string[] }> {
    const rows = this.all(`SELECT ns, key, object, created, paths FROM memories UNION ALL SELECT ns, key, object, '' AS created, '[]' AS paths FROM tombstones`);
    return rows.map((r) => ({ namespace: String(r.ns), key: String(r.key), object: String(r.object), created: String(r.created), paths: JSON.parse(String(r.paths)) as string[] }));
  }

  /**
   * Memories whose copies disagree: some object holds another revision, or a
   * tombstone, than another does. Their objects, each once, in object order.
   */
  divergentCopies(): Array<{ namespace: string; key: string; objects: string[] }> {
    const rows = this.all(
      `SELECT ns, key, group_concat(object, char(1)) AS objects FROM (
         SELECT ns, key, object, tiebreak AS doc FROM memories
         UNION ALL SELECT ns, key, object, 't' || updated FROM tombstones)
       GROUP BY ns, key HAVING count(*) > 1 AND count(DISTINCT doc) > 1 AND count(DISTINCT object) > 1`,
    );
    return rows.map((r) => ({ namespace: String(r.ns), key: String(r.key), objects: [...new Set(String(r.objects).split('\x01'))].sort() }));
  }

  /** Memories by row id (as embeddingCandidates() gives them), in the order given; ids no longer present are skipped. */
  byIds(ids: readonly number[]): Memory[] {
    return this.memoriesById(ids);
  }

  /**
   * Current memories matching the filter (its limit ignored), as semantic
   * search needs them: row id, key and the hash of their embedding text, in row order.
   */
  embeddingCandidates(filter: SearchFilter): Array<{ id: number; key: string; hash: string }> {
    const { where, params } = filterClause(compileFilter(filter));
    // A plain scan: it reads most rows anyway, and through an index each is a lookup (twice as slow at 10,000).
    const stmt = this.db.prepare(`SELECT id, key, lower(hex(ehash)) FROM memories NOT INDEXED WHERE ${where.join(' AND ')}`);
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
    return this.termIndex().counts();
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
    this.terms?.close();
  }
}

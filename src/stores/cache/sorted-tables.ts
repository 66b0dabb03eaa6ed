/**
 * A cache file of keyed tables that a command reads a few rows of: lines
 * `key<TAB>value` sorted by key, so a lookup is a binary search over the
 * file's bytes and no other row is decoded. The caches that hold a row per
 * memory's commit (anchors, commit files) were one JSON value each: at
 * 100,000 memories a hook that showed five memories parsed 19 MB of them
 * (about 110 ms) to read ten rows.
 *
 * Layout: one line of JSON, the header (`version`, what the cache keeps
 * beside its tables, and `tables`: [name, rows, bytes] in file order), then
 * each table's lines, sorted by key in byte order. A key holds no tab or
 * control character; a value is one line of JSON. Unreadable, of another version or
 * of the wrong shape, the file reads as nothing and is made again, as a
 * JsonFile is; it is written whole, atomically.
 */
import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { mapFile } from '../../io/map-file.ts';
import type { MemDir, MemFile } from './mem-dir.ts';

const NL = 0x0a;
const TAB = 0x09;

type TableIndex = ReadonlyArray<readonly [name: string, rows: number, bytes: number]>;

/** A table of the file: its rows looked up by key, or walked in key order. */
export interface Table<V> {
  readonly size: number;
  get(key: string): V | undefined;
  entries(): IterableIterator<[string, V]>;
  keys(): IterableIterator<string>;
  /** The rows whose value, as JSON, holds `text`: a scan of the bytes that decodes only those rows. */
  containing(text: string): IterableIterator<[string, V]>;
  /** Each row's key and its value as stored (JSON, as bytes), in key order: for a reader that wants a part of every value without decoding them. */
  forEachRaw(fn: (key: string, value: Buffer) => void): void;
  /** @internal Its lines as stored (sorted by key, each ending in a newline): a write copies those it keeps (TableSource). */
  lines(): Buffer;
}

/**
 * A table to write: its rows, or a table read (`base`) with rows added or replacing those of the
 * same key. The base's lines are copied as they are, never decoded: an update of a cache with a
 * row per memory's commit costs its new rows, not JSON of every row (30 ms at 10,000 memories).
 * `keep` (given a line's value, its JSON) drops the base's lines it refuses.
 */
export type TableSource = Iterable<readonly [string, unknown]> | { base: Table<unknown> | null; rows: Iterable<readonly [string, unknown]>; keep?: (value: Buffer) => boolean };

/** The tables of one file as read, over its bytes. */
export class SortedTables {
  private readonly spans = new Map<string, { start: number; end: number; rows: number }>();

  private constructor(
    private readonly buf: Buffer,
    readonly header: Record<string, unknown>,
    tables: TableIndex,
    at: number,
  ) {
    for (const [name, rows, bytes] of tables) {
      this.spans.set(name, { start: at, end: at + bytes, rows });
      at += bytes;
    }
  }

  /** The file's tables, or null when its header is not a header of `version` or its tables overrun it. */
  static parse(buf: Buffer, version: number): SortedTables | null {
    const nl = buf.indexOf(NL);
    if (nl < 0) return null;
    let header: Record<string, unknown>;
    try {
      header = JSON.parse(buf.toString('utf8', 0, nl)) as Record<string, unknown>;
    } catch {
      return null;
    }
    if (!header || typeof header !== 'object' || header.version !== version || !Array.isArray(header.tables)) return null;
    const tables = header.tables as TableIndex;
    let total = nl + 1;
    for (const t of tables) {
      if (!Array.isArray(t) || typeof t[0] !== 'string' || !Number.isInteger(t[1]) || !Number.isInteger(t[2]) || t[2] < 0) return null;
      total += t[2];
      // Each table's last line ends in its span: a walk of its lines never runs past it.
      if (t[2] > 0 && buf[total - 1] !== NL) return null;
    }
    if (total !== buf.length) return null;
    return new SortedTables(buf, header, tables, nl + 1);
  }

  /** A table by name (an empty one when the file has none of that name); values are decoded when read. */
  table<V>(name: string): Table<V> {
    const span = this.spans.get(name) ?? { start: 0, end: 0, rows: 0 };
    const { buf } = this;
    // A damaged row (no tab, or a value that is no JSON) reads as absent, as a damaged JsonFile does: its place is made again.
    const value = (tab: number, end: number): V | undefined => {
      if (tab < 0 || tab >= end) return undefined;
      try {
        return JSON.parse(buf.toString('utf8', tab + 1, end)) as V;
      } catch {
        return undefined;
      }
    };
    return {
      size: span.rows,
      get: (key) => {
        const found = findLine(buf, span.start, span.end, Buffer.from(key, 'utf8'));
        return found ? value(found.tab, found.end) : undefined;
      },
      *entries() {
        for (const { s, tab, end } of lines(buf, span)) {
          const v = value(tab, end);
          if (v !== undefined) yield [buf.toString('utf8', s, tab), v];
        }
      },
      *keys() {
        for (const { s, tab, end } of lines(buf, span)) if (tab >= 0 && tab < end) yield buf.toString('utf8', s, tab);
      },
      lines: () => buf.subarray(span.start, span.end),
      forEachRaw: (fn) => {
        for (let s = span.start; s < span.end; ) {
          const end = buf.indexOf(NL, s);
          const tab = buf.indexOf(TAB, s);
          if (tab >= 0 && tab < end) fn(buf.toString('utf8', s, tab), buf.subarray(tab + 1, end));
          s = end + 1;
        }
      },
      *containing(text) {
        const needle = Buffer.from(text, 'utf8');
        for (let pos = span.start; pos < span.end; ) {
          const hit = buf.indexOf(needle, pos);
          if (hit < 0 || hit >= span.end) return;
          // The line holding it (a newline ends the line before the table's first).
          const s = buf.lastIndexOf(NL, hit - 1) + 1;
          const end = buf.indexOf(NL, hit);
          const tab = buf.indexOf(TAB, s);
          // Found in the key: the value may still hold it.
          if (hit < tab && tab < end) {
            pos = tab + 1;
            continue;
          }
          const v = hit > tab && hit + needle.length <= end ? value(tab, end) : undefined;
          if (v !== undefined) yield [buf.toString('utf8', s, tab), v];
          pos = end + 1;
        }
      },
    };
  }
}

/** Each line of a table's span: where it starts, its tab (-1 or past its end when it has none) and its newline. */
function* lines(buf: Buffer, span: { start: number; end: number }): IterableIterator<{ s: number; tab: number; end: number }> {
  for (let s = span.start; s < span.end; ) {
    const end = buf.indexOf(NL, s);
    yield { s, tab: buf.indexOf(TAB, s), end };
    s = end + 1;
  }
}

/**
 * The line of `key` among the sorted lines in [start, end) of `buf`: its tab
 * and its end (the newline), or null. Each step reads the line holding the
 * middle byte: from the newline before it to the one after.
 */
function findLine(buf: Buffer, start: number, end: number, key: Buffer): { tab: number; end: number } | null {
  let lo = start;
  let hi = end;
  // lo and hi are always line starts (or the end), and the line sought, if there, lies between them.
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const s = mid === lo ? lo : buf.lastIndexOf(NL, mid - 1) + 1;
    const e = buf.indexOf(NL, s);
    let tab = buf.indexOf(TAB, s);
    if (tab < 0 || tab > e) tab = e; // A damaged line (no tab): its key read as the whole line.
    const cmp = buf.compare(key, 0, key.length, s, tab);
    if (cmp === 0) return { tab, end: e };
    if (cmp < 0) lo = e + 1;
    else hi = s;
  }
  return null;
}

/** The file's bytes: the header (with `version` and the tables' index added) and each table's rows sorted by key. */
export function encodeSortedTables(version: number, header: Record<string, unknown>, tables: ReadonlyArray<readonly [string, TableSource]>): Buffer {
  const index: Array<[string, number, number]> = [];
  const parts: Buffer[] = [];
  for (const [name, source] of tables) {
    const update = Symbol.iterator in source ? null : source;
    const lines: Buffer[] = [];
    for (const [key, value] of update ? update.rows : (source as Iterable<readonly [string, unknown]>)) {
      if (/[\x00-\x1f]/.test(key)) continue; // Not a key this format can hold; the cache just lacks the row.
      lines.push(Buffer.from(`${key}\t${JSON.stringify(value)}\n`, 'utf8'));
    }
    // Byte order of the keys: each line's key ends at its tab, which sorts below every byte a key may hold.
    lines.sort(Buffer.compare);
    const merged = update?.base ? mergeLines(update.base.lines(), lines, update.keep) : { parts: lines, rows: lines.length };
    const bytes = merged.parts.reduce((n, l) => n + l.length, 0);
    index.push([name, merged.rows, bytes]);
    parts.push(...merged.parts);
  }
  return Buffer.concat([Buffer.from(`${JSON.stringify({ ...header, version, tables: index })}\n`, 'utf8'), ...parts]);
}

/**
 * The sorted lines of `base` (a table's bytes) with the sorted `added` lines merged in: runs of
 * base lines are copied as one slice; a base line goes when an added one has its key or `keep`
 * refuses its value.
 */
function mergeLines(base: Buffer, added: readonly Buffer[], keep?: (value: Buffer) => boolean): { parts: Buffer[]; rows: number } {
  const parts: Buffer[] = [];
  let rows = 0;
  let next = 0;
  let run = 0;
  const keyOf = (line: Buffer) => {
    const tab = line.indexOf(TAB);
    return tab < 0 ? line.length - 1 : tab;
  };
  for (let s = 0; s < base.length; ) {
    let e = base.indexOf(NL, s);
    if (e < 0) e = base.length - 1;
    let tab = base.indexOf(TAB, s);
    if (tab < 0 || tab > e) tab = e; // A damaged line (no tab): its key read as the whole line.
    let cmp = 0;
    while (next < added.length && (cmp = base.compare(added[next]!, 0, keyOf(added[next]!), s, tab)) > 0) {
      if (s > run) parts.push(base.subarray(run, s));
      parts.push(added[next++]!);
      rows++;
      run = s;
    }
    const replaced = next < added.length && cmp === 0;
    if (replaced || (keep && !keep(base.subarray(tab + 1, e)))) {
      if (s > run) parts.push(base.subarray(run, s));
      run = e + 1;
    } else rows++;
    s = e + 1;
  }
  if (base.length > run) parts.push(base.subarray(run));
  while (next < added.length) {
    parts.push(added[next++]!);
    rows++;
  }
  return { parts, rows };
}

/** A cache file of sorted tables in the cache folder, as JsonFile is for one JSON value. */
export class SortedTablesFile {
  /** @param replaces the file name of the cache's earlier format (one JSON value), removed at the first write. */
  constructor(
    private readonly dir: MemDir,
    private readonly name: MemFile,
    private readonly version: number,
    private readonly replaces?: string,
  ) {}

  /** The file's tables, or null (none yet, damaged, or written by another version). */
  read(): SortedTables | null {
    try {
      return SortedTables.parse(mapFile(this.dir.file(this.name)), this.version);
    } catch {
      return null; // None yet, or unreadable: the caller makes it again.
    }
  }

  /** Replaces the file; false when the folder cannot be written or the write failed (a cache: made again next time). */
  write(header: Record<string, unknown>, tables: ReadonlyArray<readonly [string, TableSource]>): boolean {
    if (!this.dir.writable()) return false;
    try {
      const file = this.dir.file(this.name);
      writeFileAtomic(file, encodeSortedTables(this.version, header, tables));
      if (this.replaces) fs.rmSync(path.join(path.dirname(file), this.replaces), { force: true });
      return true;
    } catch {
      return false;
    }
  }
}

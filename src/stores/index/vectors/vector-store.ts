/**
 * Stored sentence vectors, a cache like the index: for each memory key, the
 * content hash it was computed from and the vector, compact (int8, its
 * rounding residual and sign bits, core/search/quantized.ts), in one flat file beside the index
 * (`<git common dir>/mem/vectors.bin`) for one model.
 *
 * Layout (little-endian): the magic `GMVEC\0\0\0`, a u32 byte length and a
 * JSON header ({version, model, dim, count, textBytes}), then `textBytes` of
 * UTF-8 lines `key\thash\n` (row order), then, each at a 4-byte boundary,
 * count Float32 inverse lengths, count × ⌈dim/32⌉ u32 sign-bit words,
 * count × dim int8 components and, at a 4-byte boundary, count × dim int16
 * residuals. Reading it is
 * one read (a memory map in the compiled binary) and a split of the text
 * block: no row is decoded; the scan reads the int8 components where they
 * lie, and the residuals of the few rows it scores again.
 *
 * Not in index.sqlite: the index is rewritten whole whenever the notes change,
 * and this file is read only by semantic and hybrid recall and written only
 * when they (or `git mem model embed`) embedded something. Writes happen under
 * a lock, merged with what the file holds then, to a temporary file renamed
 * into place. A file of another version or model, or a damaged one, reads as
 * empty (it is only a cache) and is replaced by the next write.
 */
import fs from 'node:fs';
import path from 'node:path';
import { bitWords, dequantize, fineCosine, quantize, scanBlock, upTo, type VectorBlock } from '../../../core/search/quantized.ts';
import { acquireLock } from '../../cache/lock.ts';
import { writeFileAtomic } from '../../../io/atomic-write.ts';
import { mapFile } from '../../../io/map-file.ts';
import { headedFile, readHeadedFile } from '../../headed-file.ts';

/**
 * Version 1 was a sql.js database of Float32 rows (vectors.sqlite); version 2
 * this flat file without the residuals (its rankings reordered near-ties);
 * version 3 is this file. A file of another version reads as empty.
 */
export const VECTORS_VERSION = '3';
const MAGIC = Buffer.from('GMVEC\0\0\0', 'latin1');

export interface StoredVector {
  key: string;
  hash: string;
  vec: Float32Array;
}

interface Header {
  version: string;
  model: string;
  dim: number;
  count: number;
  textBytes: number;
}

const align4 = (n: number) => (n + 3) & ~3;

/**
 * The `key\thash` lines of the file's rows: split into strings only when
 * every row's key is needed (a lookup by key); a ranking over the stored rows
 * decodes only the lines of the rows it returns.
 */
class RowText {
  private split?: { keys: string[]; hashes: string[] };

  /** `starts`: where each line begins, and the end of the last (count + 1 offsets). */
  constructor(
    private readonly text: Uint8Array,
    readonly count: number,
    private readonly starts: Uint32Array = new Uint32Array(count + 1),
  ) {}

  static of(keys: string[], hashes: string[]): RowText {
    const rows = new RowText(new Uint8Array(0), keys.length);
    rows.split = { keys, hashes };
    return rows;
  }

  /** Every key and hash, in row order. */
  all(): { keys: string[]; hashes: string[] } {
    if (!this.split) {
      const lines = Buffer.from(this.text.buffer, this.text.byteOffset, this.text.byteLength).toString('utf8').split('\n');
      const keys = new Array<string>(this.count);
      const hashes = new Array<string>(this.count);
      for (let i = 0; i < this.count; i++) {
        const line = lines[i] ?? '';
        const tab = line.indexOf('\t');
        keys[i] = line.slice(0, tab);
        hashes[i] = line.slice(tab + 1);
      }
      this.split = { keys, hashes };
    }
    return this.split;
  }

  /** Row `row`'s key and hash. */
  at(row: number): { key: string; hash: string } {
    if (this.split) return { key: this.split.keys[row]!, hash: this.split.hashes[row]! };
    const line = Buffer.from(this.text.buffer, this.text.byteOffset + this.starts[row]!, this.starts[row + 1]! - this.starts[row]! - 1).toString('utf8');
    const tab = line.indexOf('\t');
    return { key: line.slice(0, tab), hash: line.slice(tab + 1) };
  }
}

/**
 * The vectors of one model: those read from the file, and those added since
 * (not yet written). Looked up by memory key; ranked against a query.
 */
export class StoredVectors {
  private rowMap?: Map<string, number>;
  private readonly added = new Map<string, { hash: string; vec: Float32Array; q: ReturnType<typeof quantize> }>();

  constructor(
    readonly model: string,
    private readonly rows: RowText,
    private readonly block: VectorBlock,
  ) {}

  private get keys(): string[] {
    return this.rows.all().keys;
  }

  private get hashes(): string[] {
    return this.rows.all().hashes;
  }

  /** Row by key, built when first needed (rankStored never needs it). */
  private get rowOf(): Map<string, number> {
    if (!this.rowMap) {
      this.rowMap = new Map();
      for (let i = 0; i < this.keys.length; i++) this.rowMap.set(this.keys[i]!, i);
    }
    return this.rowMap;
  }

  static empty(model: string): StoredVectors {
    return new StoredVectors(model, RowText.of([], []), { dim: 0, data: new Int8Array(0), fine: new Int16Array(0), inv: new Float32Array(0), bits: new Uint32Array(0) });
  }

  /** Memory keys with a vector. */
  get size(): number {
    let n = this.rows.count;
    for (const k of this.added.keys()) if (!this.rowOf.has(k)) n++;
    return n;
  }

  /** The content hash the key's vector was computed from. */
  hashOf(key: string): string | undefined {
    const a = this.added.get(key);
    if (a) return a.hash;
    const row = this.rowOf.get(key);
    return row === undefined ? undefined : this.hashes[row];
  }

  /** True when the key has a vector of exactly this text. */
  has(key: string, hash: string): boolean {
    return this.hashOf(key) === hash;
  }

  /** The key's vector, unit length (as stored: int8 and residual for those read from the file). */
  vector(key: string): Float32Array | undefined {
    const a = this.added.get(key);
    if (a) return a.vec;
    const row = this.rowOf.get(key);
    if (row === undefined) return undefined;
    const { dim, data, fine } = this.block;
    return dequantize(data.subarray(row * dim, (row + 1) * dim), fine.subarray(row * dim, (row + 1) * dim));
  }

  set(key: string, hash: string, vec: Float32Array): void {
    this.added.set(key, { hash, vec, q: quantize(vec) });
  }

  /** Every key with its hash (added ones over stored ones). */
  *entries(): Generator<[string, string]> {
    for (let i = 0; i < this.keys.length; i++) if (!this.added.has(this.keys[i]!)) yield [this.keys[i]!, this.hashes[i]!];
    for (const [k, a] of this.added) yield [k, a.hash];
  }

  /**
   * The `limit` items most similar to the query, best first, by cosine; only
   * items whose vector matches their hash count. Ties keep the items' order.
   */
  rank<T extends { key: string; hash: string }>(query: Float32Array, items: readonly T[], limit: number): Array<{ item: T; score: number }> {
    const rows: number[] = [];
    const at: number[] = [];
    const extra: Array<{ at: number; score: number }> = [];
    let qq = 0;
    for (let i = 0; i < query.length; i++) qq += query[i]! * query[i]!;
    const qNorm = Math.sqrt(qq);
    for (let i = 0; i < items.length; i++) {
      const { key, hash } = items[i]!;
      const a = this.added.get(key);
      if (a) {
        if (a.hash !== hash) continue;
        // Scored as the file's rows are at the end of the scan (int8 and residual), so a ranking is the same before and after a write.
        const ok = a.q.q.length === query.length && qNorm > 0;
        extra.push({ at: i, score: ok ? fineCosine(query, qNorm, a.q.q, a.q.fine, 0) : 0 });
        continue;
      }
      const row = this.rowOf.get(key);
      if (row === undefined || this.hashes[row] !== hash) continue;
      rows.push(row);
      at.push(i);
    }
    const scanned = scanBlock(query, this.block, Int32Array.from(rows), limit).map((s) => ({ at: at[s.at]!, score: s.score }));
    const all = extra.length ? [...scanned, ...extra].sort((x, y) => y.score - x.score || x.at - y.at) : scanned;
    return all.slice(0, limit).map((s) => ({ item: items[s.at]!, score: s.score }));
  }

  /**
   * The `limit` stored vectors most similar to the query, best first, with
   * the key and hash each was computed for (whether those are current is the
   * caller's to check). Vectors added since the file was read are left out.
   * Above `exactMax` rows, sign bits choose whom to score (core/search/quantized.ts).
   */
  rankStored(query: Float32Array, limit: number, exactMax?: number): Array<{ key: string; hash: string; score: number }> {
    const rows = upTo(this.rows.count);
    return scanBlock(query, this.block, rows, limit, exactMax).map((s) => ({ ...this.rows.at(s.at), score: s.score }));
  }

  /** Rows to write: the stored ones not replaced, then the added ones, less those `drop` rejects. */
  rowsToWrite(drop: (key: string, hash: string) => boolean): { keys: string[]; hashes: string[]; dim: number; source: Array<{ row: number } | { q: ReturnType<typeof quantize> }> } {
    const keys: string[] = [];
    const hashes: string[] = [];
    const source: Array<{ row: number } | { q: ReturnType<typeof quantize> }> = [];
    let dim = this.rows.count ? this.block.dim : 0;
    for (let i = 0; i < this.keys.length; i++) {
      const key = this.keys[i]!;
      if (this.added.has(key) || drop(key, this.hashes[i]!)) continue;
      keys.push(key);
      hashes.push(this.hashes[i]!);
      source.push({ row: i });
    }
    for (const [key, a] of this.added) {
      if (drop(key, a.hash)) continue;
      if (dim === 0) dim = a.q.q.length;
      // A vector of another length than the rest (another model under the same id) is not kept.
      if (a.q.q.length !== dim) continue;
      keys.push(key);
      hashes.push(a.hash);
      source.push({ q: a.q });
    }
    return { keys, hashes, dim, source };
  }

  /** The file's bytes for these rows. */
  serialize(drop: (key: string, hash: string) => boolean = () => false): Uint8Array {
    const { keys, hashes, dim, source } = this.rowsToWrite(drop);
    const text = Buffer.from(keys.map((k, i) => `${k}\t${hashes[i]}\n`).join(''), 'utf8');
    const count = keys.length;
    const header: Header = { version: VECTORS_VERSION, model: this.model, dim, count, textBytes: text.length };
    const words = bitWords(dim);
    const dataAtFrom = (textAt: number) => align4(textAt + text.length) + count * 4 + count * words * 4;
    const { out, bodyAt: textAt } = headedFile(MAGIC, header, (at) => align4(dataAtFrom(at) + count * dim) - at + 2 * count * dim);
    const invAt = align4(textAt + text.length);
    const bitsAt = invAt + count * 4;
    const dataAt = bitsAt + count * words * 4;
    out.set(text, textAt);
    const inv = new Float32Array(out.buffer, invAt, count);
    const bits = new Uint32Array(out.buffer, bitsAt, count * words);
    const data = new Int8Array(out.buffer, dataAt, count * dim);
    const fine = new Int16Array(out.buffer, align4(dataAt + count * dim), count * dim);
    source.forEach((s, r) => {
      if ('row' in s) {
        inv[r] = this.block.inv[s.row]!;
        bits.set(this.block.bits.subarray(s.row * words, (s.row + 1) * words), r * words);
        data.set(this.block.data.subarray(s.row * dim, (s.row + 1) * dim), r * dim);
        fine.set(this.block.fine.subarray(s.row * dim, (s.row + 1) * dim), r * dim);
      } else {
        inv[r] = s.q.inv;
        bits.set(s.q.bits, r * words);
        data.set(s.q.q, r * dim);
        fine.set(s.q.fine, r * dim);
      }
    });
    return out;
  }

  /** The vectors in `bytes` (a file's content), or null when they are not a file of this version and of `model`. */
  static parse(bytes: Uint8Array, model: string): StoredVectors | null {
    const framed = readHeadedFile<Header>(bytes, MAGIC);
    if (!framed) return null;
    bytes = framed.bytes;
    const h = framed.header;
    const textAt = framed.bodyAt;
    if (h.version !== VECTORS_VERSION || h.model !== model) return null;
    const { dim, count, textBytes } = h;
    if (![dim, count, textBytes].every((n) => Number.isInteger(n) && n >= 0)) return null;
    const words = bitWords(dim);
    const invAt = align4(textAt + textBytes);
    const bitsAt = invAt + count * 4;
    const dataAt = bitsAt + count * words * 4;
    const fineAt = align4(dataAt + count * dim);
    if (fineAt + 2 * count * dim !== bytes.byteLength) return null;
    const text = new Uint8Array(bytes.buffer, bytes.byteOffset + textAt, textBytes);
    // As many lines as rows, each ending in a newline: found without decoding them.
    const starts = new Uint32Array(count + 1);
    let at = 0;
    for (let i = 0; i < count; i++) {
      starts[i] = at;
      const end = text.indexOf(10, at);
      if (end < 0) return null;
      at = end + 1;
    }
    starts[count] = at;
    if (at !== textBytes) return null;
    const off = bytes.byteOffset;
    return new StoredVectors(model, new RowText(text, count, starts), {
      dim,
      inv: new Float32Array(bytes.buffer, off + invAt, count),
      bits: new Uint32Array(bytes.buffer, off + bitsAt, count * words),
      data: new Int8Array(bytes.buffer, off + dataAt, count * dim),
      fine: new Int16Array(bytes.buffer, off + fineAt, count * dim),
    });
  }
}

export class VectorStore {
  private pending: StoredVector[] = [];
  private pendingModel = '';

  constructor(readonly file: string) {}

  /** The file's vectors of `model`: empty when the file is missing, damaged, of another version or of another model. */
  private read(model: string): StoredVectors {
    let bytes: Uint8Array;
    try {
      bytes = mapFile(this.file);
    } catch {
      return StoredVectors.empty(model);
    }
    return StoredVectors.parse(bytes, model) ?? StoredVectors.empty(model);
  }

  /** Every stored vector of a model (and those queued for it). */
  async vectors(model: string): Promise<StoredVectors> {
    const out = this.read(model);
    for (const v of this.pendingModel === model ? this.pending : []) out.set(v.key, v.hash, v.vec);
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
   * (another process may have added vectors meanwhile), adds ours (a newer
   * hash of a key replaces the older) and, given `keep` (every current key
   * and hash), drops any vector not in it; then a temporary file and a
   * rename. Vectors of another model in the file are replaced. Returns false
   * when the lock could not be had (the vectors are recomputed next time).
   */
  async persist(model: string, keep?: ReadonlyMap<string, string>): Promise<boolean> {
    if (this.pendingModel !== model) this.pending = [];
    if (this.pending.length === 0 && !keep) return true;
    fs.mkdirSync(path.dirname(this.file), { recursive: true });
    const release = acquireLock(`${this.file}.lock`, 3000);
    if (!release) return false;
    try {
      const current = this.read(model);
      for (const v of this.pending) current.set(v.key, v.hash, v.vec);
      writeFileAtomic(this.file, current.serialize(keep ? (key, hash) => keep.get(key) !== hash : undefined));
      // The sql.js file of version 1, if any, is not read any more.
      fs.rmSync(path.join(path.dirname(this.file), 'vectors.sqlite'), { force: true });
      this.pending = [];
      return true;
    } finally {
      release();
    }
  }

  /** Vectors of a model: for status and tests. */
  async count(model: string): Promise<number> {
    return (await this.vectors(model)).size;
  }
}

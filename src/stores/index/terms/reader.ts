/**
 * The term index: lexical search's own file (`mem/terms.idx`, beside
 * index.sqlite), an inverted index of the current memories in flat typed
 * arrays (layout: terms/format.ts). Recall and listing read it without
 * sql.js: a cold process scores thousands of postings in a few milliseconds,
 * where the same query through sql.js paid for compiling SQLite's wasm and
 * for thousands of calls across it.
 *
 * Like the SQLite index it is a cache: its header records the notes-ref tips
 * it reflects, a reader uses it only when they match the refs, and
 * RevisionIndex rewrites it (terms/build.ts, under the index lock, temp
 * file + rename) after every update.
 */
import fs from 'node:fs';
import { GitMemError } from '../../../core/errors.ts';
import { type IdQuery, matchesKey, type Memory, type Status } from '../../../core/memory.ts';
import { DEFAULT_LEXICAL, lexicalScores, type LexicalOptions, type LexicalSource } from '../../../core/search/lexical.ts';
import { ANALYZER_VERSION } from '../../../core/search/analyzer.ts';
import { FIELDS, ScoreExplanations, type TermMatch } from '../../../core/search/bm25f.ts';
import type { LexicalQuery } from '../../../core/search/query.ts';
import { blockCount, DOC_BLOCK, inflateBlock } from './blocks.ts';
import { decodePostings } from './codec.ts';
import { align8, compareBytes, type Header, IRREGULAR_KEY, keyHash, keyPrefixOf, MAGIC, objectKey, type Section, TERM_INDEX_FORMAT } from './format.ts';
import { type CompiledFilter, compileFilter, type SearchFilter } from '../filter.ts';
import { INDEX_VERSION } from '../revisions/schema.ts';

const decoder = new TextDecoder();
const encoder = new TextEncoder();

export function sameTips(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** Reads `length` bytes at `position` of the file (8-byte aligned when `position` is). */
type ReadRange = (position: number, length: number) => Uint8Array;

export class TermIndex implements LexicalSource {
  readonly tips: Record<string, string>;
  readonly generation: string;
  /** `<namespace>:<key>` → the objects a memory has copies on, when more than one (the stored one first). */
  readonly copies: ReadonlyMap<string, readonly string[]>;
  readonly docCount: number;
  readonly averageLengths: readonly number[];
  // The per-document arrays below are read by scoring (core/search/lexical.ts) and copied by the builder
  // (build.ts) when it appends to this file; only the constructor sets them.
  readonly lengths: Uint32Array;
  readonly namespaces: readonly string[];
  readonly statuses: readonly string[];
  readonly created: Float64Array;
  readonly kinds: Uint16Array;
  readonly objectKeys: Uint32Array;
  /** Each memory's key as keyPrefixOf() reads it. */
  readonly docKeys: Uint32Array;
  /** Every document inflated, once many documents were needed. */
  private allDocs?: Uint8Array;
  /** Each document's place in the inflated documents (the builder copies it too). */
  readonly docOffsets: Uint32Array;
  /** Where each compressed block of documents starts in the docs section (terms/blocks.ts). */
  private readonly docBlocks: Uint32Array;
  /** Removes the file this index was read from (set by read()): a damaged file is rebuilt by the next reader. */
  private discard?: () => void;
  /** Blocks inflated so far, by number. */
  private readonly inflated = new Map<number, Uint8Array>();
  private readonly termOffsets: Uint32Array;
  private readonly terms: Uint8Array;
  private readonly postingOffsets: Uint32Array;
  private readonly postingBytes: Uint32Array;
  /** The whole postings section, once something needed all of it (the builder). */
  private allPostings?: Uint32Array;
  private cachedRowids?: Uint32Array;
  private byRow?: Map<number, number>;
  private cachedKeyHashes?: Uint32Array;
  private cachedMultiKeys?: Uint32Array;
  /** Documents by the first 32 bits of their object, once documentOf() was asked. */
  private byObject?: Map<number, number[]>;
  /** Documents appended since this file was written (layered()), numbered after its own. */
  private overlay?: TermIndex;
  /** The documents an overlay removed (edited or forgotten since this file was written): 1 where removed. */
  private gone?: Uint8Array;
  /** Documents that count: docCount less those removed. */
  memoryCount: number;
  /** How many documents the file itself holds. */
  private ownDocs = 0;
  /** For an overlay file: the tips and generation of the term index it extends. */
  readonly base?: { tips: Record<string, string>; generation: string };
  private readonly header: Header;
  private readonly dataStart: number;

  /**
   * Loads the small sections (per-document arrays, the dictionary); postings
   * and documents are read from `read` as they are needed. Throws on anything malformed.
   */
  private constructor(
    header: Header,
    headerLength: number,
    size: number,
    private readonly read: ReadRange,
    private readonly onClose?: () => void,
  ) {
    if (header.format !== TERM_INDEX_FORMAT) throw new Error(`term index format ${header.format}, expected ${TERM_INDEX_FORMAT}`);
    if (header.indexVersion !== INDEX_VERSION || header.analyzer !== ANALYZER_VERSION) throw new Error('term index written by another version');
    this.header = header;
    this.dataStart = align8(12 + headerLength);
    // The file ends with the docs section, padded to 8 bytes.
    const [docsAt, docsLength] = header.sections.docs;
    if (align8(this.dataStart + docsAt + docsLength) !== size) throw new Error('term index is truncated');
    this.tips = header.tips;
    this.generation = header.generation;
    this.copies = new Map(Object.entries(header.copies ?? {}));
    this.namespaces = header.namespaces;
    this.statuses = header.statuses;
    this.docCount = header.docCount;
    this.memoryCount = header.docCount;
    this.ownDocs = header.docCount;
    if (header.base) this.base = header.base;
    this.averageLengths = header.averageLengths;
    this.lengths = new Uint32Array(this.buffer('lengths', 4));
    this.created = new Float64Array(this.buffer('created', 8));
    this.kinds = new Uint16Array(this.buffer('kinds', 2));
    this.objectKeys = new Uint32Array(this.buffer('objectKeys', 4));
    this.docKeys = new Uint32Array(this.buffer('docKeys', 4));
    this.docOffsets = new Uint32Array(this.buffer('docOffsets', 4));
    this.docBlocks = new Uint32Array(this.buffer('docBlocks', 4));
    this.termOffsets = new Uint32Array(this.buffer('termOffsets', 4));
    this.terms = new Uint8Array(this.buffer('terms', 1));
    this.postingOffsets = new Uint32Array(this.buffer('postingOffsets', 4));
    this.postingBytes = new Uint32Array(this.buffer('postingBytes', 4));
    const n = this.docCount;
    const t = header.termCount;
    if (this.lengths.length !== n * FIELDS.length || this.created.length !== n || this.kinds.length !== 2 * n || this.objectKeys.length !== n || this.docKeys.length !== n) throw new Error('term index document sections disagree');
    const blocks = blockCount(n);
    if (this.docOffsets.length !== n + 1 || this.docBlocks.length !== blocks + 1 || this.termOffsets.length !== t + 1 || this.postingOffsets.length !== t + 1 || this.postingBytes.length !== t + 1) {
      throw new Error('term index offsets disagree');
    }
    if (this.docBlocks[blocks] !== docsLength || this.postingBytes[t]! !== header.sections.postings[1]) throw new Error('term index sections disagree');
    if (this.termOffsets[t] !== header.sections.terms[1] || !ascending(this.docOffsets) || !ascending(this.docBlocks) || !ascending(this.termOffsets) || !ascending(this.postingOffsets) || !ascending(this.postingBytes)) {
      throw new Error('term index offsets are out of order');
    }
  }

  /** A section's bytes (`unit`: its element size) as an ArrayBuffer slice a typed array can view whole. */
  private buffer(name: Section, unit: number, from = 0, length?: number): ArrayBuffer {
    const [offset, total] = this.header.sections[name];
    const bytes = length ?? total - from;
    if (total % unit !== 0 || from + bytes > total) throw new Error(`term index section ${name} is malformed`);
    const out = this.read(this.dataStart + offset + from, bytes);
    return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? (out.buffer as ArrayBuffer) : (out.slice().buffer as ArrayBuffer);
  }

  private static parse(size: number, read: ReadRange, onClose?: () => void): TermIndex {
    if (size < 12) throw new Error('not a git-mem term index');
    const head = new DataView(read(0, 12).slice().buffer);
    if (head.getUint32(0, true) !== MAGIC) throw new Error('not a git-mem term index');
    const headerLength = head.getUint32(8, true);
    if (12 + headerLength > size) throw new Error('term index is truncated');
    const header = JSON.parse(decoder.decode(read(12, headerLength))) as Header;
    return new TermIndex(header, headerLength, size, read, onClose);
  }

  /** Parses an index file's bytes; throws on anything malformed. */
  static fromBytes(bytes: Uint8Array): TermIndex {
    return TermIndex.parse(bytes.byteLength, (position, length) => {
      if (position + length > bytes.byteLength) throw new Error('term index is truncated');
      return bytes.subarray(position, position + length);
    });
  }

  /**
   * `main` with `overlay`'s documents after its own (what the notes gained
   * since main was written, stores/index/terms/catch-up.ts): per-document arrays
   * joined, postings, dictionary and documents answered by both. Neither is
   * changed. Only for reading: the builder takes a single file's index.
   */
  static layered(main: TermIndex, overlay: TermIndex): TermIndex {
    const out = Object.assign(Object.create(TermIndex.prototype) as TermIndex, main);
    // The one place besides the constructor that sets the per-document arrays: on the copy it builds.
    const set = out as { -readonly [K in keyof TermIndex]: TermIndex[K] };
    const n = main.ownDocs;
    const m = overlay.docCount;
    out.overlay = overlay;
    set.tips = overlay.tips;
    set.docCount = n + m;
    set.namespaces = [...new Set([...main.namespaces, ...overlay.namespaces])];
    set.statuses = [...new Set([...main.statuses, ...overlay.statuses])];
    const nsOf = overlay.namespaces.map((x) => out.namespaces.indexOf(x));
    const statusOf = overlay.statuses.map((x) => out.statuses.indexOf(x));
    const join = <T extends Uint32Array | Float64Array | Uint16Array>(a: T, b: T, make: (n: number) => T): T => {
      const joined = make(a.length + b.length);
      joined.set(a);
      joined.set(b, a.length);
      return joined;
    };
    set.lengths = join(main.lengths, overlay.lengths, (k) => new Uint32Array(k));
    set.created = join(main.created, overlay.created, (k) => new Float64Array(k));
    set.objectKeys = join(main.objectKeys, overlay.objectKeys, (k) => new Uint32Array(k));
    set.docKeys = join(main.docKeys, overlay.docKeys, (k) => new Uint32Array(k));
    set.kinds = join(main.kinds, overlay.kinds, (k) => new Uint16Array(k));
    for (let d = 0; d < m; d++) {
      out.kinds[2 * (n + d)] = nsOf[overlay.kinds[2 * d]!]!;
      out.kinds[2 * (n + d) + 1] = statusOf[overlay.kinds[2 * d + 1]!]!;
    }
    const deleted = overlay.deletedDocs;
    if (deleted.length) {
      out.gone = new Uint8Array(n + m);
      for (const d of deleted) {
        if (d >= n) throw new Error('term index overlay removes documents its base does not hold');
        out.gone[d] = 1;
      }
    }
    out.memoryCount = n + m - deleted.length;
    // Summed again over the documents that count, as a build does: the same averages, so the same scores, as a rebuild.
    const fields = main.averageLengths.length;
    const totals = new Array<number>(fields).fill(0);
    for (let d = 0; d < n + m; d++) {
      if (out.gone?.[d]) continue;
      for (let f = 0; f < fields; f++) totals[f]! += out.lengths[d * fields + f]!;
    }
    set.averageLengths = totals.map((t) => (out.memoryCount ? t / out.memoryCount : 0));
    out.cachedRowids = undefined;
    out.byRow = undefined;
    out.byObject = undefined;
    return out;
  }

  /** For an overlay: the documents of its base it removes, ascending. */
  get deletedDocs(): Uint32Array {
    return new Uint32Array(this.buffer('deleted', 4));
  }

  /**
   * The index in `file`, or null when there is none or it cannot be read (it
   * is then rebuilt). Only the dictionary and per-document arrays are read at
   * once; a search reads the postings of its terms and the documents it returns.
   */
  static read(file: string): TermIndex | null {
    let fd: number | undefined;
    try {
      fd = fs.openSync(file, 'r');
      const size = fs.fstatSync(fd).size;
      const read = (position: number, length: number): Uint8Array => {
        const out = new Uint8Array(length);
        if (fs.readSync(fd!, out, 0, length, position) !== length) throw new Error('term index is truncated');
        return out;
      };
      // The descriptor stays open for later reads, until close().
      const descriptor = fd;
      let open = true;
      const index = TermIndex.parse(size, read, () => {
        if (open) fs.closeSync(descriptor);
        open = false;
      });
      index.discard = () => fs.rmSync(file, { force: true });
      return index;
    } catch {
      if (fd !== undefined) fs.closeSync(fd);
      return null;
    }
  }

  /** Whether it reflects the notes refs at these tips: the one freshness rule (the SQLite index adds its generation). */
  reflects(tips: Record<string, string>): boolean {
    return sameTips(this.tips, tips);
  }

  /** Releases the file (a read index keeps it open for documents and postings). */
  close(): void {
    this.onClose?.();
    this.overlay?.close();
  }

  /** The memories row of each document (for the builder). */
  get rowids(): Uint32Array {
    if (!this.cachedRowids) {
      // Overlay documents are not in the SQLite index yet: row id 0.
      const own = new Uint32Array(this.buffer('rowids', 4));
      this.cachedRowids = this.overlay ? Uint32Array.from({ length: this.docCount }, (_, d) => (d < this.ownDocs ? own[d]! : 0)) : own;
    }
    return this.cachedRowids;
  }

  /** The document of a memories row (for the SQLite index, which keeps no text), or undefined. */
  documentOfRow(rowid: number): number | undefined {
    if (!this.byRow) {
      this.byRow = new Map();
      const rowids = this.rowids;
      for (let d = 0; d < rowids.length; d++) if (rowids[d] && !this.gone?.[d]) this.byRow.set(rowids[d]!, d);
    }
    return this.byRow.get(rowid);
  }

  /**
   * @internal The whole dictionary as the builder merges it: term bytes,
   * offsets and every posting, read at once.
   */
  rawDictionary(): { count: number; termBytes: Uint8Array; termOffsets: Uint32Array; postingOffsets: Uint32Array; postings: Uint32Array } {
    if (!this.allPostings) {
      const bytes = new Uint8Array(this.buffer('postings', 1));
      const all = new Uint32Array(2 * this.postingOffsets[this.header.termCount]!);
      for (let t = 0; t < this.header.termCount; t++) {
        const count = this.postingOffsets[t + 1]! - this.postingOffsets[t]!;
        const list = bytes.subarray(this.postingBytes[t]!, this.postingBytes[t + 1]!);
        if (decodePostings(list, count, all, this.postingOffsets[t]!) !== count) return this.damaged('a postings list does not decode');
      }
      this.allPostings = all;
    }
    return { count: this.header.termCount, termBytes: this.terms, termOffsets: this.termOffsets, postingOffsets: this.postingOffsets, postings: this.allPostings };
  }

  /**
   * @internal The dictionary with every postings list as stored (varints, terms/codec.ts): an
   * update that keeps every document copies the lists it adds nothing to as bytes.
   */
  rawEncoded(): { count: number; termBytes: Uint8Array; termOffsets: Uint32Array; postingOffsets: Uint32Array; postingBytes: Uint32Array; postings: Uint8Array } {
    return { count: this.header.termCount, termBytes: this.terms, termOffsets: this.termOffsets, postingOffsets: this.postingOffsets, postingBytes: this.postingBytes, postings: new Uint8Array(this.buffer('postings', 1)) };
  }

  /** Terms in the file (an overlay's are counted too, those in both twice). */
  get termCount(): number {
    return this.header.termCount + (this.overlay?.termCount ?? 0);
  }

  private termAt(i: number): string {
    return decoder.decode(this.termBytesAt(i));
  }

  private termBytesAt(i: number): Uint8Array {
    return this.terms.subarray(this.termOffsets[i]!, this.termOffsets[i + 1]!);
  }

  /** The first term position whose term is not below `key`, in the dictionary's byte order. */
  private lowerBound(key: string): number {
    const bytes = encoder.encode(key);
    let lo = 0;
    let hi = this.header.termCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareBytes(this.termBytesAt(mid), bytes) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private has(i: number, term: string): boolean {
    return i < this.header.termCount && this.termAt(i) === term;
  }

  /** Every stored key's hash (keyHash()), sorted: read on first use. */
  get keyHashes(): Uint32Array {
    this.cachedKeyHashes ??= new Uint32Array(this.buffer('keyHashes', 4));
    return this.cachedKeyHashes;
  }

  /** Key hashes of every key with more than one stored revision or a tombstone, sorted. */
  get multiKeys(): Uint32Array {
    this.cachedMultiKeys ??= new Uint32Array(this.buffer('multiKeys', 4));
    return this.cachedMultiKeys;
  }

  /**
   * Whether the notes may hold more of this key than the one current memory
   * (other revisions, copies, a tombstone); false means surely not: an edit or
   * a forget of it then changes one document alone.
   */
  mayHaveRevisions(key: string): boolean {
    return hashIn(this.multiKeys, keyHash(key)) || (this.overlay?.mayHaveRevisions(key) ?? false);
  }

  /** Whether the notes may hold this key already (as a memory, another revision or a tombstone); false means surely not. */
  mayHoldKey(key: string): boolean {
    return hashIn(this.keyHashes, keyHash(key)) || (this.overlay?.mayHoldKey(key) ?? false);
  }

  /**
   * Current memories whose key starts with the query's key prefix (in its
   * namespace, when it names one), by key, at most 20; the commit in an id
   * narrows several to those with a copy on it. The rules of the SQL query
   * this replaced (a key range, by key, 20), from docKeys: only the matches are read.
   */
  find(query: IdQuery): Memory[] {
    const prefix = query.keyPrefix;
    const digits = Math.min(prefix.length, 8);
    const shift = 32 - 4 * digits;
    const wanted = Number.parseInt(prefix.slice(0, digits), 16);
    const ns = query.namespace === undefined ? -1 : this.namespaces.indexOf(query.namespace);
    if (query.namespace !== undefined && ns < 0) return [];
    const found: Memory[] = [];
    for (let d = 0; d < this.docCount; d++) {
      const k = this.docKeys[d]!;
      if ((k >>> shift !== wanted && k !== IRREGULAR_KEY) || this.gone?.[d] || (ns >= 0 && this.kinds[2 * d] !== ns)) continue;
      const memory = this.memory(d);
      if (matchesKey(query, memory.key)) found.push(memory);
    }
    found.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    let out = found.slice(0, 20);
    const hint = query.objectPrefix;
    if (hint && new Set(out.map((m) => m.key)).size > 1) {
      // Any copy counts, not only the one shown.
      const narrowed = out.filter((m) => (this.copies.get(`${m.namespace}:${m.key}`) ?? [m.object]).some((o) => o.startsWith(hint)));
      if (narrowed.length) out = narrowed;
    }
    return out;
  }

  /**
   * The document of the current memory `key` of a namespace, attached to
   * `object`, or undefined: found by the object's first 32 bits, confirmed on the memory.
   */
  documentOf(namespace: string, object: string, key: string): number | undefined {
    if (!this.byObject) {
      // Built once: a bulk forget asks for a document per memory.
      this.byObject = new Map();
      for (let d = 0; d < this.docCount; d++) {
        const docs = this.byObject.get(this.objectKeys[d]!);
        if (docs) docs.push(d);
        else this.byObject.set(this.objectKeys[d]!, [d]);
      }
    }
    const ns = this.namespaces.indexOf(namespace);
    for (const d of this.byObject.get(objectKey(object)) ?? []) {
      if (this.kinds[2 * d] !== ns || this.gone?.[d]) continue;
      const memory = this.memory(d);
      if (memory.key === key && memory.object === object) return d;
    }
    return undefined;
  }

  private postingsAt(i: number): Uint32Array {
    const from = 2 * this.postingOffsets[i]!;
    const to = 2 * this.postingOffsets[i + 1]!;
    // (The builder, which loads them all, checks document numbers as it renumbers them.)
    if (this.allPostings) return this.allPostings.subarray(from, to);
    const bytes = new Uint8Array(this.buffer('postings', 1, this.postingBytes[i]!, this.postingBytes[i + 1]! - this.postingBytes[i]!));
    const list = new Uint32Array(to - from);
    if (2 * decodePostings(bytes, (to - from) / 2, list) < list.length) return this.damaged('a postings list does not decode');
    // Documents past the per-document arrays (ascending, so the last is the largest): never indexed with.
    if (list.length && list[list.length - 2]! >= this.docCount) return this.damaged('a postings list names documents it does not hold');
    return list;
  }

  postings(term: string): Uint32Array | undefined {
    const i = this.lowerBound(term);
    let own = this.has(i, term) ? this.postingsAt(i) : undefined;
    if (own && this.gone) {
      own = withoutGone(own, this.gone);
      // Every document holding it removed: a term the index no longer has, as after a rebuild.
      if (!own.length) own = undefined;
    }
    const more = this.overlay?.postings(term);
    if (!more) return own;
    const out = new Uint32Array((own?.length ?? 0) + more.length);
    if (own) out.set(own);
    const at = own?.length ?? 0;
    for (let k = 0; k < more.length; k += 2) {
      out[at + k] = more[k]! + this.ownDocs;
      out[at + k + 1] = more[k + 1]!;
    }
    return out;
  }

  docFrequency(term: string): number {
    // Removed documents are dropped from the postings: counted from those.
    if (this.gone) return (this.postings(term)?.length ?? 0) >>> 1;
    const i = this.lowerBound(term);
    return (this.has(i, term) ? this.postingOffsets[i + 1]! - this.postingOffsets[i]! : 0) + (this.overlay?.docFrequency(term) ?? 0);
  }

  fieldTexts(doc: number): readonly string[] {
    const memory = this.memory(doc);
    return [memory.summary, memory.tags.join(' '), memory.body];
  }

  termsWithPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (let i = this.lowerBound(prefix); i < this.header.termCount; i++) {
      const term = this.termAt(i);
      if (!term.startsWith(prefix)) break;
      out.push(term);
    }
    if (!this.overlay) return out;
    const own = new Set(out);
    return [...out, ...this.overlay.termsWithPrefix(prefix).filter((t) => !own.has(t))];
  }

  /**
   * Creation order of two documents: creation time, then key (the order a
   * rebuild gives them; an update appends an edited memory after the rest).
   */
  compareCreation(a: number, b: number): number {
    const byTime = this.created[a]! - this.created[b]!;
    if (byTime !== 0) return byTime;
    const byKey = this.docKeys[a]! - this.docKeys[b]!;
    if (byKey !== 0 || a === b) return byKey;
    const [x, y] = [this.memory(a).key, this.memory(b).key];
    return x < y ? -1 : x > y ? 1 : 0;
  }

  /** The memory stored for a document. */
  memory(doc: number): Memory {
    const bytes = this.documentBytes(doc);
    try {
      return JSON.parse(decoder.decode(bytes)) as Memory;
    } catch {
      return this.damaged('a document does not read');
    }
  }

  /**
   * Found damaged while reading (the header and offsets were checked when it
   * was opened; blocks and postings are checked as they are read): the file is
   * removed, so the next command rebuilds it from the notes, and this one stops
   * rather than answer from what is left.
   */
  private damaged(what: string): never {
    this.discard?.();
    throw new GitMemError(`the term index is damaged (${what}); it was removed, and the next command rebuilds it from the notes`);
  }

  documentBytes(doc: number): Uint8Array {
    return this.documentRange(doc, doc + 1);
  }

  /** Documents first to end - 1 (a contiguous run), as one block. */
  documentRange(first: number, end: number): Uint8Array {
    const n = this.ownDocs;
    if (this.overlay && end > n) {
      if (first >= n) return this.overlay.documentRange(first - n, end - n);
      const a = this.documentRange(first, n);
      const b = this.overlay.documentRange(0, end - n);
      const out = new Uint8Array(a.length + b.length);
      out.set(a);
      out.set(b, a.length);
      return out;
    }
    const from = this.docOffsets[first]!;
    const to = this.docOffsets[end]!;
    if (this.allDocs) return this.allDocs.subarray(from, to);
    if (from === to) return new Uint8Array(0);
    const firstBlock = Math.floor(first / DOC_BLOCK);
    const lastBlock = Math.floor(Math.max(first, end - 1) / DOC_BLOCK);
    const start = (b: number) => this.docOffsets[b * DOC_BLOCK]!;
    if (firstBlock === lastBlock) return this.block(firstBlock).subarray(from - start(firstBlock), to - start(firstBlock));
    const out = new Uint8Array(to - from);
    for (let b = firstBlock; b <= lastBlock; b++) {
      const block = this.block(b);
      const lo = Math.max(from, start(b));
      out.set(block.subarray(lo - start(b), Math.min(to, start(b) + block.byteLength) - start(b)), lo - from);
    }
    return out;
  }

  /** Block `b` of this file's documents, inflated (kept for later reads). */
  private block(b: number): Uint8Array {
    let block = this.inflated.get(b);
    if (!block) {
      const length = this.docOffsets[Math.min((b + 1) * DOC_BLOCK, this.ownDocs)]! - this.docOffsets[b * DOC_BLOCK]!;
      try {
        block = inflateBlock(this.rawBlock(b), length);
      } catch {
        return this.damaged('a block of documents does not inflate');
      }
      this.inflated.set(b, block);
    }
    return block;
  }

  /** @internal Block `b` of this file's documents as stored (compressed): the builder copies unchanged blocks. */
  rawBlock(b: number): Uint8Array {
    const from = this.docBlocks[b]!;
    return new Uint8Array(this.buffer('docs', 1, from, this.docBlocks[b + 1]! - from));
  }

  /** @internal How many of this file's own blocks hold a full DOC_BLOCK documents. */
  get fullBlocks(): number {
    return Math.floor(this.ownDocs / DOC_BLOCK);
  }

  /** Inflates every document at once (listing many, or the builder). */
  loadAllDocuments(): void {
    this.overlay?.loadAllDocuments();
    if (this.allDocs) return;
    const all = new Uint8Array(this.docOffsets[this.ownDocs]!);
    for (let b = 0; b < blockCount(this.ownDocs); b++) all.set(this.block(b), this.docOffsets[b * DOC_BLOCK]!);
    this.allDocs = all;
    this.inflated.clear();
  }

  /**
   * Ranked search: BM25F over the postings, then the filter; best first (ties:
   * newer first, then by key), at most `filter.limit`.
   */
  search(query: LexicalQuery, filter: SearchFilter = {}, options: LexicalOptions = DEFAULT_LEXICAL, explain = false): Array<{ memory: Memory; score: number; matches?: TermMatch[] }> {
    const compiled = compileFilter(filter);
    const accept = this.acceptor(compiled);
    const scores = lexicalScores(this, query, accept, options);
    const candidates = this.matching(compiled, scores);
    const best = this.best(candidates, scores, compiled);
    if (!explain) return best.map(({ doc, memory }) => ({ memory, score: scores[doc]! }));
    // The same ranking again, recording the hits' matches as it scores them (it gives the same scores).
    const explanations = new ScoreExplanations(best.map((r) => r.doc));
    lexicalScores(this, query, accept, { ...options, explain: explanations });
    return best.map(({ doc, memory }) => ({ memory, score: scores[doc]!, matches: explanations.of(doc) }));
  }

  /**
   * The first `limit` current memories, in the order of `keys`, that have one
   * of these keys, pass the filter (its limit ignored) and `accept`: one pass
   * over the per-document arrays, then only those memories are read (and the
   * few whose key's first 32 bits collide).
   */
  firstWithKeys(keys: readonly string[], filter: SearchFilter, limit: number, accept: (memory: Memory) => boolean = () => true): Memory[] {
    const compiled = compileFilter({ ...filter, limit: undefined });
    const acceptDoc = this.acceptor(compiled);
    const wanted = new Set(keys.map(keyPrefixOf));
    const byPrefix = new Map<number, number[]>();
    for (let d = 0; d < this.docCount; d++) {
      const k = this.docKeys[d]!;
      if (!wanted.has(k) || !acceptDoc(d)) continue;
      const docs = byPrefix.get(k);
      if (docs) docs.push(d);
      else byPrefix.set(k, [d]);
    }
    const out: Memory[] = [];
    for (const key of keys) {
      if (out.length >= limit) break;
      for (const d of byPrefix.get(keyPrefixOf(key)) ?? []) {
        const memory = this.memory(d);
        if (memory.key !== key) continue;
        const passes =
          (!compiled.objects || this.attachedTo(memory, compiled.objects)) && (!compiled.spec || memory.spec === compiled.spec) && compiled.tags.every((tag) => memory.tags.includes(tag));
        if (passes && accept(memory)) out.push(memory);
        break;
      }
    }
    return out;
  }

  /** Current memories matching the filter, newest first (ties by key), at most `filter.limit`: what `git mem list` shows. */
  list(filter: SearchFilter = {}): Memory[] {
    const compiled = compileFilter(filter);
    return this.best(this.matching(compiled), this.created, compiled).map((r) => r.memory);
  }

  /** Namespace, status and creation time (ms) of every current memory, without reading the memories. */
  facts(): Array<{ namespace: string; status: Status; created: number }> {
    const out: Array<{ namespace: string; status: Status; created: number }> = [];
    for (let d = 0; d < this.docCount; d++) {
      if (this.gone?.[d]) continue;
      out.push({ namespace: this.namespaces[this.kinds[2 * d]!]!, status: this.statuses[this.kinds[2 * d + 1]!] as Status, created: this.created[d]! });
    }
    return out;
  }

  /** The first 32 bits of the object of every current memory (stored copies aside), without reading the memories. */
  objectPrefixes(): Set<number> {
    const out = new Set<number>();
    for (let d = 0; d < this.docCount; d++) if (!this.gone?.[d]) out.add(this.objectKeys[d]!);
    return out;
  }

  /** The objects of the current memories whose object's first 32 bits are among `prefixes` (only those memories are read). */
  objectsWithPrefixes(prefixes: ReadonlySet<number>): string[] {
    const out = new Set<string>();
    for (let d = 0; d < this.docCount; d++) if (!this.gone?.[d] && prefixes.has(this.objectKeys[d]!)) out.add(this.memory(d).object);
    return [...out];
  }

  /** Current memories per namespace. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (let d = 0; d < this.docCount; d++) {
      if (this.gone?.[d]) continue;
      const ns = this.namespaces[this.kinds[2 * d]!]!;
      counts.set(ns, (counts.get(ns) ?? 0) + 1);
    }
    return counts;
  }

  /**
   * Documents passing the filter's conditions on the per-document arrays
   * (the rest are checked on the memory itself), and with a score above 0 when `scores` is given.
   */
  private matching(filter: CompiledFilter, scores?: Float64Array): number[] {
    const accept = this.acceptor(filter);
    const out: number[] = [];
    for (let d = 0; d < this.docCount; d++) {
      if (scores && !(scores[d]! > 0)) continue;
      if (accept(d)) out.push(d);
    }
    return out;
  }

  /** The filter's conditions on the per-document arrays, as a test of one document. */
  private acceptor(filter: CompiledFilter): (doc: number) => boolean {
    const allowed = (names: readonly string[] | null, list: readonly string[]): Set<number> | null =>
      names ? new Set(names.map((name) => list.indexOf(name)).filter((i) => i >= 0)) : null;
    const namespaces = allowed(filter.namespaces, this.namespaces);
    const statuses = allowed(filter.statuses, this.statuses);
    const since = Number.isNaN(filter.sinceMs) ? -Infinity : filter.sinceMs;
    const until = Number.isNaN(filter.untilMs) ? Infinity : filter.untilMs;
    const wanted = this.objectsWithCopies(filter.objects);
    const objects = wanted ? new Set([...wanted].map(objectKey)) : null;
    const gone = this.gone;
    return (d) => {
      if (gone?.[d]) return false;
      if (namespaces && !namespaces.has(this.kinds[2 * d]!)) return false;
      if (statuses && !statuses.has(this.kinds[2 * d + 1]!)) return false;
      const created = this.created[d]!;
      if (created < since || created > until) return false;
      return !objects || objects.has(this.objectKeys[d]!);
    };
  }

  /**
   * The candidates ordered by `value` (higher first), then newer first, then
   * by key, with the filter's remaining conditions checked on each memory,
   * at most `filter.limit`.
   */
  private best(candidates: number[], value: ArrayLike<number>, filter: CompiledFilter): Array<{ doc: number; memory: Memory }> {
    const { limit, objects } = filter;
    const postFilter = Boolean(objects || filter.spec || filter.tags.length);
    // Only the best `limit` need ordering: narrowed on the value, then the creation time, then the key's first 32 bits.
    if (!postFilter && candidates.length > limit) candidates = this.bestByArrays(candidates, value, limit);
    // Many documents to read: one read of them all beats one read each.
    if (Math.min(candidates.length, limit) > 64) this.loadAllDocuments();
    const keys = new Map<number, string>();
    const keyOf = (d: number) => keys.get(d) ?? keys.set(d, this.memory(d).key).get(d)!;
    // Keys are compared by the per-document array; a memory is read for its key only when the first 32 bits agree (or a key is not hex).
    const byKey = (x: number, y: number) => {
      const [kx, ky] = [this.docKeys[x]!, this.docKeys[y]!];
      if (kx !== ky && kx !== IRREGULAR_KEY && ky !== IRREGULAR_KEY) return kx - ky;
      return keyOf(x) < keyOf(y) ? -1 : 1;
    };
    candidates.sort((x, y) => value[y]! - value[x]! || this.created[y]! - this.created[x]! || byKey(x, y));

    const out: Array<{ doc: number; memory: Memory }> = [];
    for (const doc of candidates) {
      if (out.length >= limit) break;
      const memory = this.memory(doc);
      if (objects && !this.attachedTo(memory, objects)) continue;
      if (filter.spec && memory.spec !== filter.spec) continue;
      if (filter.tags.some((tag) => !memory.tags.includes(tag))) continue;
      out.push({ doc, memory });
    }
    return out;
  }

  /**
   * The candidates that can be among the best `limit` by `value` (higher
   * first), then creation time (newer first), then key: each level keeps what
   * beats the `limit`-th value (a native numeric sort finds it) and passes
   * the ties to the next. Memories sharing a creation time (an import of
   * lines without one) are told apart by the keys' first 32 bits, never read;
   * what ties there too, or has a key that is not hex, is kept for the sort.
   */
  private bestByArrays(candidates: number[], value: ArrayLike<number>, limit: number): number[] {
    const kept: number[] = [];
    let rest = candidates;
    let wanted = limit;
    const ranks = [(d: number) => value[d]!, ...(value === this.created ? [] : [(d: number) => this.created[d]!])];
    for (const rank of ranks) {
      const sorted = Float64Array.from(rest, rank).sort();
      const cut = sorted[sorted.length - wanted]!;
      const tied: number[] = [];
      for (const d of rest) {
        const v = rank(d);
        if (v > cut) kept.push(d);
        else if (v === cut) tied.push(d);
      }
      wanted = limit - kept.length;
      rest = tied;
      if (rest.length <= wanted) return [...kept, ...rest];
    }
    // Smaller keys first: the `wanted`-th smallest first 32 bits among hex keys is the cut.
    const hex = rest.filter((d) => this.docKeys[d] !== IRREGULAR_KEY);
    if (hex.length > wanted) {
      const cut = Uint32Array.from(hex, (d) => this.docKeys[d]!).sort()[wanted - 1]!;
      rest = rest.filter((d) => this.docKeys[d] === IRREGULAR_KEY || this.docKeys[d]! <= cut);
    }
    return [...kept, ...rest];
  }

  /** A memory is attached to every object it has a copy on. */
  private attachedTo(memory: Memory, objects: ReadonlySet<string>): boolean {
    return objects.has(memory.object) || (this.copies.get(`${memory.namespace}:${memory.key}`)?.some((o) => objects.has(o)) ?? false);
  }

  /**
   * The objects of a filter, plus the stored object of every memory with a copy
   * on one of them: a first, cheap test on the per-document arrays, confirmed by attachedTo.
   */
  private objectsWithCopies(objects: ReadonlySet<string> | null): Set<string> | null {
    if (!objects) return null;
    const out = new Set(objects);
    for (const list of this.copies.values()) if (list.some((o) => out.has(o))) out.add(list[0]!);
    return out;
  }
}

/** Whether a sorted list of key hashes holds `h`. */
function hashIn(hashes: Uint32Array, h: number): boolean {
  let lo = 0;
  let hi = hashes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (hashes[mid]! < h) lo = mid + 1;
    else hi = mid;
  }
  return lo < hashes.length && hashes[lo] === h;
}

/** A postings list without the removed documents' entries. */
function withoutGone(list: Uint32Array, gone: Uint8Array): Uint32Array {
  let n = 0;
  for (let i = 0; i < list.length; i += 2) if (!gone[list[i]!]) n += 2;
  if (n === list.length) return list;
  const out = new Uint32Array(n);
  let j = 0;
  for (let i = 0; i < list.length; i += 2) {
    if (gone[list[i]!]) continue;
    out[j++] = list[i]!;
    out[j++] = list[i + 1]!;
  }
  return out;
}

function ascending(offsets: Uint32Array): boolean {
  for (let i = 1; i < offsets.length; i++) if (offsets[i]! < offsets[i - 1]!) return false;
  return true;
}

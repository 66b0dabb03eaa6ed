/**
 * The term index: lexical search's own file (`mem/terms.idx`, beside
 * index.sqlite), an inverted index of the current memories in flat typed
 * arrays. Recall reads it without sql.js: a cold process can score thousands
 * of postings in a few milliseconds, where the same query through sql.js
 * paid for compiling SQLite's wasm and for thousands of calls across it.
 *
 * Like the SQLite index it is a cache: its header records the notes-ref tips
 * it reflects, a reader uses it only when they match the refs, and
 * MemoryIndex rewrites it (under the index lock, temp file + rename) after
 * every update, re-tokenizing only the memories that changed.
 *
 * Layout: "GMTI", u32 format, u32 header length, header JSON, then from the
 * next 8-byte boundary the sections, each 8-byte aligned, located by the
 * header (offset from that boundary, byte length):
 *   rowids u32[N]         the memories row of each document
 *   lengths u32[N*3]      tokens per field
 *   created f64[N]        creation time (ms), for --since/--until and ties
 *   kinds u16[N*2]        namespace and status, as indexes into header lists
 *   objectKeys u32[N]     the first 32 bits of the object each memory is attached to
 *   docOffsets u32[N+1]   into docs
 *   termOffsets u32[T+1]  into terms: the index terms, UTF-8, sorted
 *   postingOffsets u32[T+1], postings u32[2P]: see core/rank.ts
 *   docs                  each document's Memory as JSON
 * A reader loads all but the last section (about a third of the file) and
 * reads the few documents a search returns from the file.
 */
import fs from 'node:fs';
import { type Memory, STATUSES, type Status } from '../../core/memory.ts';
import { bm25f, DEFAULT_WEIGHTS, FIELDS, type LexicalQuery, packFrequencies, type PostingsSource, termOf, tokenize } from '../../core/rank.ts';

const MAGIC = 0x49544d47; // "GMTI" read as a little-endian u32
export const TERM_INDEX_FORMAT = 3;

// docs comes last: a reader loads everything before it and reads single documents from the file as needed.
const SECTIONS = ['rowids', 'lengths', 'created', 'kinds', 'objectKeys', 'docOffsets', 'termOffsets', 'terms', 'postingOffsets', 'postings', 'docs'] as const;
type Section = (typeof SECTIONS)[number];

interface Header {
  format: number;
  tips: Record<string, string>;
  /** The SQLite index generation whose row ids `rowids` holds. */
  generation: string;
  docCount: number;
  termCount: number;
  averageLengths: number[];
  namespaces: string[];
  statuses: string[];
  sections: Record<Section, [offset: number, bytes: number]>;
}

export interface TermSearchFilter {
  namespaces?: readonly string[];
  statuses?: readonly Status[];
  objects?: readonly string[];
  since?: string;
  until?: string;
  tags?: readonly string[];
  spec?: string;
  limit?: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function sameTips(a: Record<string, string>, b: Record<string, string>): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** Reads `length` bytes at `position` of the file (8-byte aligned when `position` is). */
type ReadRange = (position: number, length: number) => Uint8Array;

export class TermIndex implements PostingsSource {
  readonly tips: Record<string, string>;
  readonly generation: string;
  readonly docCount: number;
  readonly averageLengths: readonly number[];
  readonly lengths: Uint32Array;
  readonly namespaces: readonly string[];
  readonly statuses: readonly string[];
  /** @internal (the builder copies it) */
  readonly created: Float64Array;
  /** @internal (the builder copies it) */
  readonly kinds: Uint16Array;
  /** @internal (the builder copies it) */
  readonly objectKeys: Uint32Array;
  /** The whole docs section, once many documents were needed. */
  private allDocs?: Uint8Array;
  /** @internal (the builder copies it) */
  readonly docOffsets: Uint32Array;
  private readonly termOffsets: Uint32Array;
  private readonly terms: Uint8Array;
  private readonly postingOffsets: Uint32Array;
  /** The whole postings section, once something needed all of it (the builder). */
  private allPostings?: Uint32Array;
  private cachedRowids?: Uint32Array;
  private readonly header: Header;
  private readonly dataStart: number;

  /**
   * Loads the small sections (per-document arrays, the dictionary); postings
   * and documents are read from `read` as they are needed. Throws on anything malformed.
   */
  private constructor(
    header: Header,
    headerLength: number,
    private readonly size: number,
    private readonly read: ReadRange,
  ) {
    if (header.format !== TERM_INDEX_FORMAT) throw new Error(`term index format ${header.format}, expected ${TERM_INDEX_FORMAT}`);
    this.header = header;
    this.dataStart = align8(12 + headerLength);
    // The file ends with the docs section, padded to 8 bytes.
    const [docsAt, docsLength] = header.sections.docs;
    if (align8(this.dataStart + docsAt + docsLength) !== size) throw new Error('term index is truncated');
    this.tips = header.tips;
    this.generation = header.generation;
    this.namespaces = header.namespaces;
    this.statuses = header.statuses;
    this.docCount = header.docCount;
    this.averageLengths = header.averageLengths;
    this.lengths = new Uint32Array(this.buffer('lengths', 4));
    this.created = new Float64Array(this.buffer('created', 8));
    this.kinds = new Uint16Array(this.buffer('kinds', 2));
    this.objectKeys = new Uint32Array(this.buffer('objectKeys', 4));
    this.docOffsets = new Uint32Array(this.buffer('docOffsets', 4));
    this.termOffsets = new Uint32Array(this.buffer('termOffsets', 4));
    this.terms = new Uint8Array(this.buffer('terms', 1));
    this.postingOffsets = new Uint32Array(this.buffer('postingOffsets', 4));
    const n = this.docCount;
    const t = header.termCount;
    if (this.lengths.length !== n * FIELDS.length || this.created.length !== n || this.kinds.length !== 2 * n || this.objectKeys.length !== n) throw new Error('term index document sections disagree');
    if (this.docOffsets.length !== n + 1 || this.termOffsets.length !== t + 1 || this.postingOffsets.length !== t + 1) throw new Error('term index offsets disagree');
    if (this.docOffsets[n] !== docsLength || 8 * this.postingOffsets[t]! !== header.sections.postings[1]) throw new Error('term index sections disagree');
  }

  /** A section's bytes (`unit`: its element size) as an ArrayBuffer slice a typed array can view whole. */
  private buffer(name: Section, unit: number, from = 0, length?: number): ArrayBuffer {
    const [offset, total] = this.header.sections[name];
    const bytes = length ?? total - from;
    if (total % unit !== 0 || from + bytes > total) throw new Error(`term index section ${name} is malformed`);
    const out = this.read(this.dataStart + offset + from, bytes);
    return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? (out.buffer as ArrayBuffer) : (out.slice().buffer as ArrayBuffer);
  }

  private static parse(size: number, read: ReadRange): TermIndex {
    if (size < 12) throw new Error('not a git-mem term index');
    const head = new DataView(read(0, 12).slice().buffer);
    if (head.getUint32(0, true) !== MAGIC) throw new Error('not a git-mem term index');
    const headerLength = head.getUint32(8, true);
    if (12 + headerLength > size) throw new Error('term index is truncated');
    const header = JSON.parse(decoder.decode(read(12, headerLength))) as Header;
    return new TermIndex(header, headerLength, size, read);
  }

  /** Parses an index file's bytes; throws on anything malformed. */
  static fromBytes(bytes: Uint8Array): TermIndex {
    return TermIndex.parse(bytes.byteLength, (position, length) => {
      if (position + length > bytes.byteLength) throw new Error('term index is truncated');
      return bytes.subarray(position, position + length);
    });
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
      // The descriptor stays open for later reads; a process reads one index and exits.
      return TermIndex.parse(size, read);
    } catch {
      if (fd !== undefined) fs.closeSync(fd);
      return null;
    }
  }

  /** The memories row of each document (for the builder). */
  get rowids(): Uint32Array {
    this.cachedRowids ??= new Uint32Array(this.buffer('rowids', 4));
    return this.cachedRowids;
  }

  /** @internal Reads all postings at once (the builder walks every term). */
  loadAllPostings(): void {
    this.allPostings ??= new Uint32Array(this.buffer('postings', 4));
  }

  get termCount(): number {
    return this.header.termCount;
  }

  /** @internal */
  termAt(i: number): string {
    return decoder.decode(this.terms.subarray(this.termOffsets[i]!, this.termOffsets[i + 1]!));
  }

  /** The first term position whose term is not below `key`. */
  private lowerBound(key: string): number {
    let lo = 0;
    let hi = this.header.termCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.termAt(mid) < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** @internal */
  postingsAt(i: number): Uint32Array {
    const from = 2 * this.postingOffsets[i]!;
    const to = 2 * this.postingOffsets[i + 1]!;
    if (this.allPostings) return this.allPostings.subarray(from, to);
    return new Uint32Array(this.buffer('postings', 4, 4 * from, 4 * (to - from)));
  }

  postings(term: string): Uint32Array | undefined {
    const i = this.lowerBound(term);
    return i < this.header.termCount && this.termAt(i) === term ? this.postingsAt(i) : undefined;
  }

  termsWithPrefix(prefix: string): string[] {
    const out: string[] = [];
    for (let i = this.lowerBound(prefix); i < this.header.termCount; i++) {
      const term = this.termAt(i);
      if (!term.startsWith(prefix)) break;
      out.push(term);
    }
    return out;
  }

  /** The memory stored for a document. */
  memory(doc: number): Memory {
    return JSON.parse(decoder.decode(this.documentBytes(doc))) as Memory;
  }

  documentBytes(doc: number): Uint8Array {
    return this.documentRange(doc, doc + 1);
  }

  /** Documents first to end - 1 (a contiguous run), as one block. */
  documentRange(first: number, end: number): Uint8Array {
    const from = this.docOffsets[first]!;
    const to = this.docOffsets[end]!;
    if (this.allDocs) return this.allDocs.subarray(from, to);
    return this.read(this.dataStart + this.header.sections.docs[0] + from, to - from);
  }

  /** Reads every document at once (listing many, or the builder). */
  loadAllDocuments(): void {
    this.allDocs ??= new Uint8Array(this.buffer('docs', 1));
  }

  /**
   * Ranked search: BM25F over the postings, then the filter; best first (ties:
   * newer first, then by key), at most `filter.limit`.
   */
  search(query: LexicalQuery, filter: TermSearchFilter = {}): Array<{ memory: Memory; score: number }> {
    const scores = bm25f(this, query.groups, { weights: DEFAULT_WEIGHTS });
    const candidates = this.matching(filter, (d) => scores[d]! > 0);
    return this.best(candidates, scores, filter).map(({ doc, memory }) => ({ memory, score: scores[doc]! }));
  }

  /** Current memories matching the filter, newest first (ties by key), at most `filter.limit`: what `git mem list` shows. */
  list(filter: TermSearchFilter = {}): Memory[] {
    return this.best(this.matching(filter), this.created, filter).map((r) => r.memory);
  }

  /** Namespace, status and creation time of every current memory, without reading the memories. */
  facts(): Array<{ namespace: string; status: Status; created: string }> {
    const out: Array<{ namespace: string; status: Status; created: string }> = [];
    for (let d = 0; d < this.docCount; d++) {
      out.push({ namespace: this.namespaces[this.kinds[2 * d]!]!, status: this.statuses[this.kinds[2 * d + 1]!] as Status, created: new Date(this.created[d]!).toISOString() });
    }
    return out;
  }

  /** Current memories per namespace. */
  counts(): Map<string, number> {
    const counts = new Map<string, number>();
    for (let d = 0; d < this.docCount; d++) {
      const ns = this.namespaces[this.kinds[2 * d]!]!;
      counts.set(ns, (counts.get(ns) ?? 0) + 1);
    }
    return counts;
  }

  /** Documents passing the filter's conditions on the per-document arrays (the rest are checked on the memory itself). */
  private matching(filter: TermSearchFilter, also?: (doc: number) => boolean): number[] {
    const allowed = (names: readonly string[] | undefined, list: readonly string[]): Set<number> | null =>
      names?.length ? new Set(names.map((name) => list.indexOf(name)).filter((i) => i >= 0)) : null;
    const namespaces = allowed(filter.namespaces, this.namespaces);
    const statuses = allowed(filter.statuses, this.statuses);
    const since = filter.since ? Date.parse(filter.since) : -Infinity;
    const until = filter.until ? Date.parse(filter.until) : Infinity;
    const objects = filter.objects?.length ? new Set(filter.objects.map(objectKey)) : null;
    const out: number[] = [];
    for (let d = 0; d < this.docCount; d++) {
      if (also && !also(d)) continue;
      if (namespaces && !namespaces.has(this.kinds[2 * d]!)) continue;
      if (statuses && !statuses.has(this.kinds[2 * d + 1]!)) continue;
      const created = this.created[d]!;
      if (created < since || created > until) continue;
      if (objects && !objects.has(this.objectKeys[d]!)) continue;
      out.push(d);
    }
    return out;
  }

  /**
   * The candidates ordered by `value` (higher first), then newer first, then
   * by key, with the filter's remaining conditions checked on each memory,
   * at most `filter.limit`.
   */
  private best(candidates: number[], value: ArrayLike<number>, filter: TermSearchFilter): Array<{ doc: number; memory: Memory }> {
    const limit = filter.limit && filter.limit > 0 ? Math.floor(filter.limit) : Infinity;
    const objects = filter.objects?.length ? new Set(filter.objects) : null;
    const postFilter = Boolean(objects || filter.spec || filter.tags?.length);
    if (!postFilter && candidates.length > limit) {
      // Only the best `limit` (and whatever ties the last of them) need ordering: find that value with a native numeric sort.
      const sorted = Float64Array.from(candidates, (d) => value[d]!).sort();
      const cut = sorted[sorted.length - limit]!;
      candidates = candidates.filter((d) => value[d]! >= cut);
    }
    // Many documents to read: one read of them all beats one read each.
    if (Math.min(candidates.length, limit) > 64) this.loadAllDocuments();
    const keys = new Map<number, string>();
    const keyOf = (d: number) => keys.get(d) ?? keys.set(d, this.memory(d).key).get(d)!;
    candidates.sort((x, y) => value[y]! - value[x]! || this.created[y]! - this.created[x]! || (keyOf(x) < keyOf(y) ? -1 : 1));

    const out: Array<{ doc: number; memory: Memory }> = [];
    for (const doc of candidates) {
      if (out.length >= limit) break;
      const memory = this.memory(doc);
      if (objects && !objects.has(memory.object)) continue;
      if (filter.spec && memory.spec !== filter.spec) continue;
      if (filter.tags?.some((tag) => !memory.tags.includes(tag))) continue;
      out.push({ doc, memory });
    }
    return out;
  }
}

/** An object id's first 32 bits: a cheap first test of "attached to one of these commits", confirmed on the memory. */
function objectKey(object: string): number {
  const key = Number.parseInt(object.slice(0, 8), 16);
  return Number.isNaN(key) ? 0 : key >>> 0;
}

/** A memory to add: its row, its JSON, its field lengths and term frequencies. */
interface NewDocument {
  rowid: number;
  memory: Memory;
  json: Uint8Array;
  lengths: number[];
  frequencies: Map<string, number[]>;
}

function analyze(rowid: number, memory: Memory): NewDocument {
  const texts = [memory.summary, memory.tags.join(' '), memory.body];
  const frequencies = new Map<string, number[]>();
  const lengths = texts.map((text, field) => {
    const tokens = tokenize(text);
    for (const token of tokens) {
      const term = termOf(token);
      let f = frequencies.get(term);
      if (!f) frequencies.set(term, (f = [0, 0, 0]));
      f[field]!++;
    }
    return tokens.length;
  });
  return { rowid, memory, json: encoder.encode(JSON.stringify(memory)), lengths, frequencies };
}

/**
 * The bytes of a term index of the current memories `rowids`, for `source`
 * (notes tips, index generation). Documents and postings of `previous` (when
 * of the same generation) whose rows are still current are copied in bulk;
 * only the rows it lacks are loaded (`load`) and tokenized.
 */
export function buildTermIndex(
  source: { tips: Record<string, string>; generation: string },
  rowids: readonly number[],
  previous: TermIndex | null,
  load: (rowids: number[]) => Array<{ rowid: number; memory: Memory }>,
): Uint8Array {
  const base = previous && previous.generation === source.generation ? previous : null;
  const wanted = new Set(rowids);
  const kept = new Set<number>();
  const keep: number[] = [];
  for (let d = 0; base && d < base.docCount; d++) {
    const rowid = base.rowids[d]!;
    if (!wanted.has(rowid) || kept.has(rowid)) continue;
    kept.add(rowid);
    keep.push(d);
  }
  const added = load(rowids.filter((id) => !kept.has(id))).map(({ rowid, memory }) => analyze(rowid, memory));
  return encode(source, base, keep, added);
}

function encode(source: { tips: Record<string, string>; generation: string }, base: TermIndex | null, keep: readonly number[], added: readonly NewDocument[]): Uint8Array {
  const fields = FIELDS.length;
  const old = keep.length;
  const n = old + added.length;
  const namespaces = [...new Set([...(base?.namespaces ?? []), ...added.map((d) => d.memory.namespace)])].sort();
  const statuses = [...new Set([...STATUSES, ...(base?.statuses ?? []), ...added.map((d) => d.memory.status)])];
  const nsOf = (base?.namespaces ?? []).map((ns) => namespaces.indexOf(ns));
  const statusOf = (base?.statuses ?? []).map((st) => statuses.indexOf(st));

  // Documents: the kept ones copied from the base, then the added ones.
  const rowidsOut = new Uint32Array(n);
  const lengths = new Uint32Array(n * fields);
  const created = new Float64Array(n);
  const kinds = new Uint16Array(n * 2);
  const objectKeys = new Uint32Array(n);
  const docOffsets = new Uint32Array(n + 1);
  let docBytes = 0;
  // Kept documents come in runs of consecutive ones (usually one run): each run is copied as blocks.
  const runs: Array<[first: number, end: number, at: number]> = [];
  for (let j = 0; j < old; ) {
    let k = j + 1;
    while (k < old && keep[k] === keep[k - 1]! + 1) k++;
    runs.push([keep[j]!, keep[k - 1]! + 1, j]);
    j = k;
  }
  for (const [first, end, at] of runs) {
    rowidsOut.set(base!.rowids.subarray(first, end), at);
    lengths.set(base!.lengths.subarray(first * fields, end * fields), at * fields);
    created.set(base!.created.subarray(first, end), at);
    objectKeys.set(base!.objectKeys.subarray(first, end), at);
    const shift = docBytes - base!.docOffsets[first]!;
    for (let d = first; d < end; d++) {
      const j = at + d - first;
      kinds[2 * j] = nsOf[base!.kinds[2 * d]!]!;
      kinds[2 * j + 1] = statusOf[base!.kinds[2 * d + 1]!]!;
      docOffsets[j] = base!.docOffsets[d]! + shift;
    }
    docBytes += base!.docOffsets[end]! - base!.docOffsets[first]!;
  }
  added.forEach((doc, i) => {
    const j = old + i;
    rowidsOut[j] = doc.rowid;
    lengths.set(doc.lengths, j * fields);
    const time = Date.parse(doc.memory.created);
    created[j] = Number.isNaN(time) ? 0 : time;
    objectKeys[j] = objectKey(doc.memory.object);
    kinds[2 * j] = namespaces.indexOf(doc.memory.namespace);
    kinds[2 * j + 1] = statuses.indexOf(doc.memory.status);
    docOffsets[j] = docBytes;
    docBytes += doc.json.byteLength;
  });
  docOffsets[n] = docBytes;
  const docs = new Uint8Array(docBytes);
  for (const [first, end, at] of runs) docs.set(base!.documentRange(first, end), docOffsets[at]!);
  added.forEach((doc, i) => docs.set(doc.json, docOffsets[old + i]!));
  const totals = new Array<number>(fields).fill(0);
  for (let i = 0; i < lengths.length; i++) totals[i % fields]! += lengths[i]!;

  // Postings per term: the base's (as they are when no document was dropped, else renumbered), then the added documents'.
  const fromBase = new Map<string, Uint32Array>();
  if (base) {
    base.loadAllPostings();
    base.loadAllDocuments();
    const identity = old === base.docCount;
    const renumber = new Int32Array(base.docCount).fill(-1);
    keep.forEach((d, j) => (renumber[d] = j));
    for (let t = 0; t < base.termCount; t++) {
      const list = base.postingsAt(t);
      if (identity) {
        fromBase.set(base.termAt(t), list);
        continue;
      }
      const out = new Uint32Array(list.length);
      let k = 0;
      for (let i = 0; i < list.length; i += 2) {
        const doc = renumber[list[i]!]!;
        if (doc < 0) continue;
        out[k++] = doc;
        out[k++] = list[i + 1]!;
      }
      if (k > 0) fromBase.set(base.termAt(t), out.subarray(0, k));
    }
  }
  const fromAdded = new Map<string, number[]>();
  added.forEach((doc, i) => {
    for (const [term, f] of doc.frequencies) {
      let list = fromAdded.get(term);
      if (!list) fromAdded.set(term, (list = []));
      list.push(old + i, packFrequencies(f[0]!, f[1]!, f[2]!));
    }
  });
  const terms = [...new Set([...fromBase.keys(), ...fromAdded.keys()])].sort();

  const encodedTerms = terms.map((t) => encoder.encode(t));
  const termOffsets = new Uint32Array(terms.length + 1);
  const postingOffsets = new Uint32Array(terms.length + 1);
  let termBytes = 0;
  let pairs = 0;
  terms.forEach((t, i) => {
    termOffsets[i] = termBytes;
    termBytes += encodedTerms[i]!.byteLength;
    postingOffsets[i] = pairs;
    pairs += ((fromBase.get(t)?.length ?? 0) + (fromAdded.get(t)?.length ?? 0)) / 2;
  });
  termOffsets[terms.length] = termBytes;
  postingOffsets[terms.length] = pairs;
  const termBlob = new Uint8Array(termBytes);
  const postingData = new Uint32Array(pairs * 2);
  terms.forEach((t, i) => {
    termBlob.set(encodedTerms[i]!, termOffsets[i]!);
    const at = 2 * postingOffsets[i]!;
    const a = fromBase.get(t);
    if (a) postingData.set(a, at);
    const b = fromAdded.get(t);
    if (b) postingData.set(b, at + (a?.length ?? 0));
  });

  const parts: Record<Section, Uint8Array> = {
    rowids: bytesOf(rowidsOut),
    lengths: bytesOf(lengths),
    created: bytesOf(created),
    kinds: bytesOf(kinds),
    objectKeys: bytesOf(objectKeys),
    docOffsets: bytesOf(docOffsets),
    docs,
    termOffsets: bytesOf(termOffsets),
    terms: termBlob,
    postingOffsets: bytesOf(postingOffsets),
    postings: bytesOf(postingData),
  };
  const header: Header = {
    format: TERM_INDEX_FORMAT,
    tips: source.tips,
    generation: source.generation,
    docCount: n,
    termCount: terms.length,
    averageLengths: totals.map((t) => (n ? t / n : 0)),
    namespaces,
    statuses,
    sections: {} as Header['sections'],
  };
  let size = 0;
  for (const name of SECTIONS) {
    header.sections[name] = [size, parts[name].byteLength];
    size = align8(size + parts[name].byteLength);
  }
  const headerBytes = encoder.encode(JSON.stringify(header));
  const dataStart = align8(12 + headerBytes.byteLength);
  const out = new Uint8Array(dataStart + size);
  const view = new DataView(out.buffer);
  view.setUint32(0, MAGIC, true);
  view.setUint32(4, TERM_INDEX_FORMAT, true);
  view.setUint32(8, headerBytes.byteLength, true);
  out.set(headerBytes, 12);
  for (const name of SECTIONS) out.set(parts[name], dataStart + header.sections[name][0]);
  return out;
}

const align8 = (x: number) => Math.ceil(x / 8) * 8;

function bytesOf(array: Uint32Array | Uint16Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** Writes the index atomically: readers see the old file or the new one, never half of one. */
export function writeTermIndex(file: string, bytes: Uint8Array): void {
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, bytes);
  fs.renameSync(tmp, file);
}

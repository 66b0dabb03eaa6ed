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
 *   docOffsets u32[N+1]   into docs: each document's Memory as JSON
 *   termOffsets u32[T+1]  into terms: the index terms, UTF-8, sorted
 *   postingOffsets u32[T+1], postings u32[2P]: see core/rank.ts
 */
import fs from 'node:fs';
import { type Memory, STATUSES, type Status } from '../../core/memory.ts';
import { bm25f, DEFAULT_WEIGHTS, FIELDS, type LexicalQuery, packFrequencies, type PostingsSource, termOf, tokenize } from '../../core/rank.ts';

const MAGIC = 0x49544d47; // "GMTI" read as a little-endian u32
export const TERM_INDEX_FORMAT = 1;

const SECTIONS = ['rowids', 'lengths', 'created', 'kinds', 'docOffsets', 'docs', 'termOffsets', 'terms', 'postingOffsets', 'postings'] as const;
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

export class TermIndex implements PostingsSource {
  readonly tips: Record<string, string>;
  readonly generation: string;
  readonly docCount: number;
  readonly averageLengths: readonly number[];
  readonly lengths: Uint32Array;
  readonly rowids: Uint32Array;
  private readonly created: Float64Array;
  private readonly kinds: Uint16Array;
  private readonly docOffsets: Uint32Array;
  private readonly docs: Uint8Array;
  private readonly termOffsets: Uint32Array;
  private readonly terms: Uint8Array;
  private readonly postingOffsets: Uint32Array;
  private readonly postingData: Uint32Array;
  private readonly header: Header;

  private constructor(bytes: Uint8Array) {
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (bytes.byteLength < 12 || view.getUint32(0, true) !== MAGIC) throw new Error('not a git-mem term index');
    const headerLength = view.getUint32(8, true);
    const header = JSON.parse(decoder.decode(bytes.subarray(12, 12 + headerLength))) as Header;
    if (header.format !== TERM_INDEX_FORMAT) throw new Error(`term index format ${header.format}, expected ${TERM_INDEX_FORMAT}`);
    this.header = header;
    const dataStart = align8(12 + headerLength);
    const section = <T>(name: Section, make: (buffer: ArrayBuffer, offset: number, length: number) => T, size: number): T => {
      const [offset, length] = header.sections[name];
      if (dataStart + offset + length > bytes.byteLength || length % size !== 0) throw new Error(`term index section ${name} is truncated`);
      return make(bytes.buffer as ArrayBuffer, bytes.byteOffset + dataStart + offset, length / size);
    };
    const u32 = (name: Section) => section(name, (b, o, n) => new Uint32Array(b, o, n), 4);
    this.tips = header.tips;
    this.generation = header.generation;
    this.docCount = header.docCount;
    this.averageLengths = header.averageLengths;
    this.rowids = u32('rowids');
    this.lengths = u32('lengths');
    this.created = section('created', (b, o, n) => new Float64Array(b, o, n), 8);
    this.kinds = section('kinds', (b, o, n) => new Uint16Array(b, o, n), 2);
    this.docOffsets = u32('docOffsets');
    this.docs = section('docs', (b, o, n) => new Uint8Array(b, o, n), 1);
    this.termOffsets = u32('termOffsets');
    this.terms = section('terms', (b, o, n) => new Uint8Array(b, o, n), 1);
    this.postingOffsets = u32('postingOffsets');
    this.postingData = u32('postings');
    const n = this.docCount;
    const t = header.termCount;
    if (this.rowids.length !== n || this.lengths.length !== n * FIELDS.length || this.created.length !== n || this.kinds.length !== 2 * n) throw new Error('term index document sections disagree');
    if (this.docOffsets.length !== n + 1 || this.termOffsets.length !== t + 1 || this.postingOffsets.length !== t + 1) throw new Error('term index offsets disagree');
  }

  /** Parses an index file's bytes; throws on anything malformed. */
  static fromBytes(bytes: Uint8Array): TermIndex {
    // Typed-array views need aligned offsets; a pooled Buffer may not be.
    return new TermIndex(bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes));
  }

  /** The index in `file`, or null when there is none or it cannot be read (it is then rebuilt). */
  static read(file: string): TermIndex | null {
    try {
      return TermIndex.fromBytes(fs.readFileSync(file));
    } catch {
      return null;
    }
  }

  get termCount(): number {
    return this.header.termCount;
  }

  private termAt(i: number): string {
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

  private postingsAt(i: number): Uint32Array {
    return this.postingData.subarray(2 * this.postingOffsets[i]!, 2 * this.postingOffsets[i + 1]!);
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

  /** Every term with its postings, in term order (for rebuilding). */
  *entries(): Generator<[string, Uint32Array]> {
    for (let i = 0; i < this.header.termCount; i++) yield [this.termAt(i), this.postingsAt(i)];
  }

  /** The memory stored for a document. */
  memory(doc: number): Memory {
    return JSON.parse(decoder.decode(this.documentBytes(doc))) as Memory;
  }

  documentBytes(doc: number): Uint8Array {
    return this.docs.subarray(this.docOffsets[doc]!, this.docOffsets[doc + 1]!);
  }

  /** What a rebuild keeps of a document without re-reading its memory. */
  documentRecord(doc: number): DocumentRecord {
    const f = FIELDS.length;
    return {
      rowid: this.rowids[doc]!,
      lengths: Array.from(this.lengths.subarray(doc * f, doc * f + f)),
      created: this.created[doc]!,
      namespace: this.header.namespaces[this.kinds[2 * doc]!]!,
      status: this.header.statuses[this.kinds[2 * doc + 1]!]!,
      json: this.documentBytes(doc),
    };
  }

  /**
   * Ranked search: BM25F over the postings, then the filter; best first (ties:
   * newer first, then by key), at most `filter.limit`.
   */
  search(query: LexicalQuery, filter: TermSearchFilter = {}): Array<{ memory: Memory; score: number }> {
    const scores = bm25f(this, query.groups, { weights: DEFAULT_WEIGHTS });
    const allowed = (names: readonly string[] | undefined, list: readonly string[]): Set<number> | null =>
      names?.length ? new Set(names.map((name) => list.indexOf(name)).filter((i) => i >= 0)) : null;
    const namespaces = allowed(filter.namespaces, this.header.namespaces);
    const statuses = allowed(filter.statuses, this.header.statuses);
    const since = filter.since ? Date.parse(filter.since) : -Infinity;
    const until = filter.until ? Date.parse(filter.until) : Infinity;

    const candidates: number[] = [];
    for (let d = 0; d < this.docCount; d++) {
      if (scores[d]! <= 0) continue;
      if (namespaces && !namespaces.has(this.kinds[2 * d]!)) continue;
      if (statuses && !statuses.has(this.kinds[2 * d + 1]!)) continue;
      const created = this.created[d]!;
      if (created < since || created > until) continue;
      candidates.push(d);
    }
    const keys = new Map<number, string>();
    const keyOf = (d: number) => keys.get(d) ?? keys.set(d, this.memory(d).key).get(d)!;
    candidates.sort((x, y) => scores[y]! - scores[x]! || this.created[y]! - this.created[x]! || (keyOf(x) < keyOf(y) ? -1 : 1));

    const limit = filter.limit && filter.limit > 0 ? Math.floor(filter.limit) : Infinity;
    const objects = filter.objects?.length ? new Set(filter.objects) : null;
    const hits: Array<{ memory: Memory; score: number }> = [];
    for (const d of candidates) {
      if (hits.length >= limit) break;
      const memory = this.memory(d);
      if (objects && !objects.has(memory.object)) continue;
      if (filter.spec && memory.spec !== filter.spec) continue;
      if (filter.tags?.some((tag) => !memory.tags.includes(tag))) continue;
      hits.push({ memory, score: scores[d]! });
    }
    return hits;
  }
}

/** One document as the builder needs it. */
export interface DocumentRecord {
  rowid: number;
  lengths: number[];
  created: number;
  namespace: string;
  status: string;
  json: Uint8Array;
}

/** A memory's document: its fields tokenized into term frequencies. */
function analyze(rowid: number, memory: Memory): { record: DocumentRecord; frequencies: Map<string, number[]> } {
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
  const created = Date.parse(memory.created);
  return {
    record: { rowid, lengths, created: Number.isNaN(created) ? 0 : created, namespace: memory.namespace, status: memory.status, json: encoder.encode(JSON.stringify(memory)) },
    frequencies,
  };
}

/**
 * The bytes of a term index of the current memories `rowids`, for `source`
 * (notes tips, index generation). Documents and postings of `previous` (when
 * of the same generation) whose rows are still current are copied; only the
 * rows it lacks are loaded (`load`) and tokenized.
 */
export function buildTermIndex(
  source: { tips: Record<string, string>; generation: string },
  rowids: readonly number[],
  previous: TermIndex | null,
  load: (rowids: number[]) => Array<{ rowid: number; memory: Memory }>,
): Uint8Array {
  const wanted = new Set(rowids);
  const records: DocumentRecord[] = [];
  const postings = new Map<string, number[]>();
  const add = (term: string, doc: number, packed: number) => {
    let list = postings.get(term);
    if (!list) postings.set(term, (list = []));
    list.push(doc, packed);
  };

  const kept = new Set<number>();
  if (previous && previous.generation === source.generation) {
    const remap = new Int32Array(previous.docCount).fill(-1);
    for (let d = 0; d < previous.docCount; d++) {
      const rowid = previous.rowids[d]!;
      if (!wanted.has(rowid) || kept.has(rowid)) continue;
      kept.add(rowid);
      remap[d] = records.push(previous.documentRecord(d)) - 1;
    }
    for (const [term, list] of previous.entries()) {
      for (let i = 0; i < list.length; i += 2) {
        const doc = remap[list[i]!]!;
        if (doc >= 0) add(term, doc, list[i + 1]!);
      }
    }
  }
  const missing = rowids.filter((id) => !kept.has(id));
  for (const { rowid, memory } of load(missing)) {
    const { record, frequencies } = analyze(rowid, memory);
    const doc = records.push(record) - 1;
    for (const [term, f] of frequencies) add(term, doc, packFrequencies(f[0]!, f[1]!, f[2]!));
  }
  return encode(source, records, postings);
}

function encode(source: { tips: Record<string, string>; generation: string }, records: readonly DocumentRecord[], postings: Map<string, number[]>): Uint8Array {
  const n = records.length;
  const fields = FIELDS.length;
  const namespaces = [...new Set(records.map((r) => r.namespace))].sort();
  const statuses = [...new Set([...STATUSES, ...records.map((r) => r.status)])];
  const terms = [...postings.keys()].sort();

  const rowidsArr = new Uint32Array(n);
  const lengths = new Uint32Array(n * fields);
  const created = new Float64Array(n);
  const kinds = new Uint16Array(n * 2);
  const docOffsets = new Uint32Array(n + 1);
  const totals = new Array<number>(fields).fill(0);
  let docBytes = 0;
  records.forEach((r, d) => {
    rowidsArr[d] = r.rowid;
    r.lengths.forEach((len, f) => {
      lengths[d * fields + f] = len;
      totals[f]! += len;
    });
    created[d] = r.created;
    kinds[2 * d] = namespaces.indexOf(r.namespace);
    kinds[2 * d + 1] = statuses.indexOf(r.status);
    docOffsets[d] = docBytes;
    docBytes += r.json.byteLength;
  });
  docOffsets[n] = docBytes;
  const docs = new Uint8Array(docBytes);
  records.forEach((r, d) => docs.set(r.json, docOffsets[d]!));

  const encodedTerms = terms.map((t) => encoder.encode(t));
  const termOffsets = new Uint32Array(terms.length + 1);
  let termBytes = 0;
  encodedTerms.forEach((t, i) => {
    termOffsets[i] = termBytes;
    termBytes += t.byteLength;
  });
  termOffsets[terms.length] = termBytes;
  const termBlob = new Uint8Array(termBytes);
  encodedTerms.forEach((t, i) => termBlob.set(t, termOffsets[i]!));

  const postingOffsets = new Uint32Array(terms.length + 1);
  let pairs = 0;
  terms.forEach((t, i) => {
    postingOffsets[i] = pairs;
    pairs += postings.get(t)!.length / 2;
  });
  postingOffsets[terms.length] = pairs;
  const postingData = new Uint32Array(pairs * 2);
  terms.forEach((t, i) => postingData.set(postings.get(t)!, 2 * postingOffsets[i]!));

  const parts: Record<Section, Uint8Array> = {
    rowids: bytesOf(rowidsArr),
    lengths: bytesOf(lengths),
    created: bytesOf(created),
    kinds: bytesOf(kinds),
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

/**
 * Writing the term index (layout: terms/format.ts): from a previous
 * index of the same SQLite generation, the documents and postings of rows
 * still current are copied in bulk and only new rows are tokenized.
 */
import { writeFileAtomic } from '../../../io/atomic-write.ts';
import { type Memory, STATUSES } from '../../../core/memory.ts';
import { analyzeText, ANALYZER_VERSION, termOf } from '../../../core/search/analyzer.ts';
import { FIELDS, packFrequencies } from '../../../core/search/bm25f.ts';
import { DOC_BLOCK, encodeBlocks } from './blocks.ts';
import { appendPostings, encodePostings, lastDocument } from './codec.ts';
import { INDEX_VERSION } from '../revisions/schema.ts';
import { align8, compareBytes, type Header, keyHashesOf, keyPrefixOf, MAGIC, objectKey, type Section, SECTIONS, TERM_INDEX_FORMAT } from './format.ts';
import type { TermIndex } from './reader.ts';

const encoder = new TextEncoder();

/** A memory to add: its row, its JSON and its field lengths (its terms go straight to the added postings). */
interface NewDocument {
  rowid: number;
  memory: Memory;
  json: Uint8Array;
  lengths: number[];
}

/** The added documents' postings by term, (document, packed frequencies) pairs in document order. */
type AddedPostings = Map<string, number[]>;

/**
 * Tokenizes a memory as document `doc`, adding its terms to `postings`. Its
 * frequencies live only while it is analysed: a map per memory kept until the
 * dictionary was built made a rebuild hold gigabytes at 100,000 memories.
 */
function analyze(rowid: number, memory: Memory, doc: number, postings: AddedPostings): NewDocument {
  const texts = [memory.summary, memory.tags.join(' '), memory.body];
  const frequencies = new Map<string, number[]>();
  const lengths = texts.map((text, field) => {
    const tokens = analyzeText(text);
    for (const token of tokens) {
      const term = termOf(token);
      let f = frequencies.get(term);
      if (!f) frequencies.set(term, (f = [0, 0, 0]));
      f[field]!++;
    }
    return tokens.length;
  });
  for (const [term, f] of frequencies) {
    let list = postings.get(term);
    if (!list) postings.set(term, (list = []));
    list.push(doc, packFrequencies(f[0]!, f[1]!, f[2]!));
  }
  return { rowid, memory, json: encoder.encode(JSON.stringify(memory)), lengths };
}

/**
 * The bytes of a term index of the current memories `rowids`, for `source`
 * (notes tips, index generation). Documents and postings of `previous` (when
 * of the same generation) whose rows are still current are copied in bulk;
 * only the rows it lacks are loaded (`load`) and tokenized.
 */
export interface TermIndexSource {
  tips: Record<string, string>;
  generation: string;
  copies: Record<string, string[]>;
  /**
   * keyHashesOf() every key the notes hold, revisions and tombstones too. The
   * default (the documents' own keys) is right only for an index that is never
   * appended to: every file on disk is given them.
   */
  keyHashes?: Uint32Array;
  /**
   * keyHashesOf() every key with more than one stored revision (copies,
   * merged clones) or a tombstone: an edit or a forget of any other key
   * changes one document only (terms/catch-up.ts). None by default.
   */
  multiKeys?: Uint32Array;
  /** For an overlay: the tips and generation of the term index it extends. */
  base?: { tips: Record<string, string>; generation: string };
  /** For an overlay: the documents of that term index it removes, ascending. */
  deleted?: Uint32Array;
}

export function buildTermIndex(
  source: TermIndexSource,
  rowids: readonly number[],
  previous: TermIndex | null,
  load: (rowids: number[]) => Array<{ rowid: number; memory: Memory }>,
): Uint8Array {
  const base = previous && previous.generation === source.generation ? previous : null;
  if (base) {
    try {
      return buildOn(base, source, rowids, load);
    } catch {
      // A damaged previous index (a block or a postings list that does not decode): built without it.
    }
  }
  return buildOn(null, source, rowids, load);
}

function buildOn(base: TermIndex | null, source: TermIndexSource, rowids: readonly number[], load: (rowids: number[]) => Array<{ rowid: number; memory: Memory }>): Uint8Array {
  const wanted = new Set(rowids);
  const kept = new Set<number>();
  const keep: number[] = [];
  for (let d = 0; base && d < base.docCount; d++) {
    const rowid = base.rowids[d]!;
    if (!wanted.has(rowid) || kept.has(rowid)) continue;
    kept.add(rowid);
    keep.push(d);
  }
  const postings: AddedPostings = new Map();
  // In the order asked for (creation order), whatever order `load` found them in (notes order, for rows read
  // again from the notes): document order breaks ties, so every path to the same index gives the same file.
  const order = new Map(rowids.map((id, i) => [id, i]));
  const loaded = load(rowids.filter((id) => !kept.has(id))).sort((a, b) => order.get(a.rowid)! - order.get(b.rowid)!);
  const added = loaded.map(({ rowid, memory }, i) => analyze(rowid, memory, keep.length + i, postings));
  return encode(source, base, keep, added, postings);
}

/**
 * The base with memories added, every base document kept but those in `drop`
 * (edited or forgotten since): an update by the change alone
 * (stores/index/terms/catch-up.ts). The added documents have
 * row id 0 (the SQLite index has not read them): a later build from the
 * SQLite index loads them afresh.
 */
export function appendToTermIndex(base: TermIndex | null, source: TermIndexSource, memories: readonly Memory[], drop: ReadonlySet<number> = new Set()): Uint8Array {
  const keep = Array.from({ length: base?.docCount ?? 0 }, (_, d) => d).filter((d) => !drop.has(d));
  const postings: AddedPostings = new Map();
  return encode(source, base, keep, memories.map((m, i) => analyze(0, m, keep.length + i, postings)), postings);
}

function encode(source: TermIndexSource, base: TermIndex | null, keep: readonly number[], added: readonly NewDocument[], postings: AddedPostings): Uint8Array {
  const fields = FIELDS.length;
  const old = keep.length;
  const n = old + added.length;
  const namespaces = [...new Set([...(base?.namespaces ?? []), ...added.map((d) => d.memory.namespace)])].sort();
  const statuses = [...new Set([...STATUSES, ...(base?.statuses ?? []), ...added.map((d) => d.memory.status)])];
  const nsOf = (base?.namespaces ?? []).map((ns) => namespaces.indexOf(ns));
  const statusOf = (base?.statuses ?? []).map((st) => statuses.indexOf(st));
  const sameLists = nsOf.every((i, j) => i === j) && statusOf.every((i, j) => i === j);

  // Documents: the kept ones copied from the base, then the added ones.
  const rowidsOut = new Uint32Array(n);
  const lengths = new Uint32Array(n * fields);
  const created = new Float64Array(n);
  const kinds = new Uint16Array(n * 2);
  const objectKeys = new Uint32Array(n);
  const docKeys = new Uint32Array(n);
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
    docKeys.set(base!.docKeys.subarray(first, end), at);
    const shift = docBytes - base!.docOffsets[first]!;
    if (sameLists) kinds.set(base!.kinds.subarray(2 * first, 2 * end), 2 * at);
    if (shift === 0) docOffsets.set(base!.docOffsets.subarray(first, end), at);
    // Element by element only where something moved (a dropped document, a new namespace): the usual update copies blocks.
    for (let d = first; d < end && (!sameLists || shift !== 0); d++) {
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
    docKeys[j] = keyPrefixOf(doc.memory.key);
    kinds[2 * j] = namespaces.indexOf(doc.memory.namespace);
    kinds[2 * j + 1] = statuses.indexOf(doc.memory.status);
    docOffsets[j] = docBytes;
    docBytes += doc.json.byteLength;
  });
  docOffsets[n] = docBytes;
  // Full blocks of the base whose documents all stay where they were are copied compressed; the rest are deflated again.
  let prefix = 0;
  while (prefix < old && keep[prefix] === prefix) prefix++;
  const reusable = base ? Math.min(Math.floor(prefix / DOC_BLOCK), base.fullBlocks) : 0;
  const reused = Array.from({ length: reusable }, (_, b) => base!.rawBlock(b));
  const tailDoc = reusable * DOC_BLOCK;
  const tailStart = docOffsets[tailDoc]!;
  const tail = new Uint8Array(docBytes - tailStart);
  for (const [first, end, at] of runs) {
    const skip = Math.max(0, tailDoc - at);
    if (first + skip < end) tail.set(base!.documentRange(first + skip, end), docOffsets[at + skip]! - tailStart);
  }
  added.forEach((doc, i) => tail.set(doc.json, docOffsets[old + i]! - tailStart));
  const { docs, blockOffsets } = encodeBlocks(docOffsets, reused, tail);
  // Field totals: the base's (from its averages) when it is kept whole, else summed again.
  const whole = base !== null && old === base.docCount;
  const totals = whole ? base.averageLengths.map((a) => Math.round(a * base.docCount)) : new Array<number>(fields).fill(0);
  for (let i = whole ? old * fields : 0; i < lengths.length; i++) totals[i % fields]! += lengths[i]!;

  // Every base document kept in its place (the usual update): the base's postings lists are copied
  // as stored, the added documents' pairs encoded after them. Else renumbered, merged and encoded again.
  const inPlace = base !== null && old === base.docCount && keep.every((d, j) => d === j);
  const { dictionary, encoded } = inPlace ? mergeEncoded(base.rawEncoded(), addedTerms(postings), base.docCount) : mergeDecoded(base, keep, postings);
  postings.clear();
  const parts: Record<Section, Uint8Array> = {
    rowids: bytesOf(rowidsOut),
    lengths: bytesOf(lengths),
    created: bytesOf(created),
    kinds: bytesOf(kinds),
    objectKeys: bytesOf(objectKeys),
    docKeys: bytesOf(docKeys),
    docOffsets: bytesOf(docOffsets),
    docBlocks: bytesOf(blockOffsets),
    docs,
    termOffsets: bytesOf(dictionary.termOffsets),
    terms: dictionary.termBytes,
    postingOffsets: bytesOf(dictionary.postingOffsets),
    postingBytes: bytesOf(encoded.byteOffsets),
    postings: encoded.bytes,
    keyHashes: bytesOf(source.keyHashes ?? keyHashesOf([...(base ? keep.map((d) => base.memory(d).key) : []), ...added.map((d) => d.memory.key)])),
    multiKeys: bytesOf(source.multiKeys ?? new Uint32Array(0)),
    deleted: bytesOf(source.deleted ?? new Uint32Array(0)),
  };
  const header: Header = {
    format: TERM_INDEX_FORMAT,
    indexVersion: INDEX_VERSION,
    analyzer: ANALYZER_VERSION,
    tips: source.tips,
    generation: source.generation,
    copies: source.copies,
    ...(source.base ? { base: source.base } : {}),
    docCount: n,
    termCount: dictionary.count,
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

function bytesOf(array: Uint32Array | Uint16Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** Writes the index atomically: readers see the old file or the new one, never half of one. */
export function writeTermIndex(file: string, bytes: Uint8Array): void {
  writeFileAtomic(file, bytes);
}

/** A dictionary in the file's layout: terms in byte order, each with its postings (doc, packed frequencies). */
interface Dictionary {
  count: number;
  termBytes: Uint8Array;
  termOffsets: Uint32Array;
  /** In pairs. */
  postingOffsets: Uint32Array;
  postings: Uint32Array;
}

/**
 * The base's dictionary for the kept documents, renumbered to their new
 * places: as it is when every document is kept (the usual update), else with
 * dropped documents' postings removed and terms left without any dropped.
 * Works on the raw arrays: no term is decoded.
 */
function baseTerms(base: TermIndex, keep: readonly number[]): Dictionary {
  const raw = base.rawDictionary();
  if (keep.length === base.docCount && keep.every((d, j) => d === j)) return raw;
  // A document number the base does not have (a damaged file) renumbers to -1 and is dropped.
  const renumber = new Int32Array(base.docCount).fill(-1);
  keep.forEach((d, j) => (renumber[d] = j));
  const postings = new Uint32Array(raw.postings.length);
  const termOffsets = new Uint32Array(raw.count + 1);
  const postingOffsets = new Uint32Array(raw.count + 1);
  const termBytes = new Uint8Array(raw.termBytes.length);
  let count = 0;
  let pairs = 0;
  let bytes = 0;
  for (let t = 0; t < raw.count; t++) {
    const from = pairs;
    for (let i = 2 * raw.postingOffsets[t]!; i < 2 * raw.postingOffsets[t + 1]!; i += 2) {
      const doc = renumber[raw.postings[i]!] ?? -1;
      if (doc < 0) continue;
      postings[2 * pairs] = doc;
      postings[2 * pairs + 1] = raw.postings[i + 1]!;
      pairs++;
    }
    if (pairs === from) continue;
    const term = raw.termBytes.subarray(raw.termOffsets[t]!, raw.termOffsets[t + 1]!);
    termOffsets[count] = bytes;
    postingOffsets[count] = from;
    termBytes.set(term, bytes);
    bytes += term.length;
    count++;
  }
  termOffsets[count] = bytes;
  postingOffsets[count] = pairs;
  return { count, termBytes: termBytes.subarray(0, bytes), termOffsets: termOffsets.subarray(0, count + 1), postingOffsets: postingOffsets.subarray(0, count + 1), postings: postings.subarray(0, 2 * pairs) };
}

/** Dictionary and postings, every term's list decoded, merged and encoded again (documents dropped or renumbered). */
function mergeDecoded(base: TermIndex | null, keep: readonly number[], postings: AddedPostings): { dictionary: Dictionary; encoded: { bytes: Uint8Array; byteOffsets: Uint32Array } } {
  const dictionary = mergeTerms(base ? baseTerms(base, keep) : null, addedTerms(postings));
  return { dictionary, encoded: encodePostings(dictionary.postings, dictionary.postingOffsets) };
}

type EncodedDictionary = ReturnType<TermIndex['rawEncoded']>;

/**
 * The base dictionary, every document of the base kept in its place, with the added terms merged
 * in: runs of base terms are copied as blocks (their offsets shifted), postings lists as the bytes
 * stored. Only the lists of terms the added documents share with the base are decoded (for their
 * last document, which the first added pair's gap counts from); the file is the one
 * mergeDecoded() would write, byte for byte. A list that does not decode throws (the caller builds
 * without the base); the others are checked by readers, as any list is (terms/reader.ts).
 */
function mergeEncoded(
  b: EncodedDictionary,
  added: ReadonlyArray<{ term: Uint8Array; postings: number[] }>,
  docCount: number,
): { dictionary: Pick<Dictionary, 'count' | 'termBytes' | 'termOffsets' | 'postingOffsets'>; encoded: { bytes: Uint8Array; byteOffsets: Uint32Array } } {
  const baseTerm = (t: number) => b.termBytes.subarray(b.termOffsets[t]!, b.termOffsets[t + 1]!);
  // Where each added term goes among the base's, whether the base has it, and its pairs encoded.
  const at = new Int32Array(added.length);
  const shared = new Uint8Array(added.length);
  const lists: Uint8Array[] = [];
  let newTerms = 0;
  let newTermBytes = 0;
  let listBytes = 0;
  let next = 0;
  const out: number[] = [];
  added.forEach((a, i) => {
    const lo = firstNotBelow(baseTerm, next, b.count, a.term);
    at[i] = lo;
    let previous = -1;
    if (lo < b.count && compareBytes(baseTerm(lo), a.term) === 0) {
      shared[i] = 1;
      previous = lastDocument(b.postings.subarray(b.postingBytes[lo]!, b.postingBytes[lo + 1]!), b.postingOffsets[lo + 1]! - b.postingOffsets[lo]!);
      if (Number.isNaN(previous)) throw new Error('a postings list does not decode');
      if (previous >= docCount) throw new Error('a postings list names documents the index does not hold');
      next = lo + 1;
    } else {
      newTerms++;
      newTermBytes += a.term.length;
      next = lo;
    }
    out.length = 0;
    appendPostings(a.postings, previous, out);
    const bytes = Uint8Array.from(out);
    lists.push(bytes);
    listBytes += bytes.length;
  });
  const terms = b.count + newTerms;
  const termBytes = new Uint8Array(b.termBytes.length + newTermBytes);
  const termOffsets = new Uint32Array(terms + 1);
  const postingOffsets = new Uint32Array(terms + 1);
  const byteOffsets = new Uint32Array(terms + 1);
  const bytes = new Uint8Array(b.postings.length + listBytes);
  let count = 0;
  let termAt = 0;
  let pairs = 0;
  let size = 0;
  const copyBase = (from: number, to: number) => {
    if (to <= from) return;
    const termShift = termAt - b.termOffsets[from]!;
    const pairShift = pairs - b.postingOffsets[from]!;
    const byteShift = size - b.postingBytes[from]!;
    for (let t = from; t < to; t++) {
      termOffsets[count] = b.termOffsets[t]! + termShift;
      postingOffsets[count] = b.postingOffsets[t]! + pairShift;
      byteOffsets[count] = b.postingBytes[t]! + byteShift;
      count++;
    }
    termBytes.set(b.termBytes.subarray(b.termOffsets[from]!, b.termOffsets[to]!), termAt);
    termAt += b.termOffsets[to]! - b.termOffsets[from]!;
    bytes.set(b.postings.subarray(b.postingBytes[from]!, b.postingBytes[to]!), size);
    size += b.postingBytes[to]! - b.postingBytes[from]!;
    pairs += b.postingOffsets[to]! - b.postingOffsets[from]!;
  };
  next = 0;
  added.forEach((a, i) => {
    copyBase(next, at[i]!);
    next = at[i]!;
    if (shared[i]) {
      // The base's list first, then the added documents' pairs (numbered after every base document).
      copyBase(next, next + 1);
      next++;
    } else {
      termOffsets[count] = termAt;
      postingOffsets[count] = pairs;
      byteOffsets[count] = size;
      count++;
      termBytes.set(a.term, termAt);
      termAt += a.term.length;
    }
    bytes.set(lists[i]!, size);
    size += lists[i]!.length;
    pairs += a.postings.length / 2;
  });
  copyBase(next, b.count);
  termOffsets[count] = termAt;
  postingOffsets[count] = pairs;
  byteOffsets[count] = size;
  return { dictionary: { count, termBytes, termOffsets, postingOffsets }, encoded: { bytes, byteOffsets } };
}

/** The first of the sorted terms [from, to) (`termAt` reads one) that is not below `term`: `to` when none. */
function firstNotBelow(termAt: (t: number) => Uint8Array, from: number, to: number, term: Uint8Array): number {
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareBytes(termAt(mid), term) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The added documents' terms, in byte order, each with its postings. */
function addedTerms(postings: AddedPostings): Array<{ term: Uint8Array; postings: number[] }> {
  return [...postings].map(([term, list]) => ({ term: encoder.encode(term), postings: list })).sort((a, b) => compareBytes(a.term, b.term));
}

/**
 * The base dictionary with the added terms merged in, in one pass: runs of
 * base terms between two added ones are copied as blocks (their offsets
 * shifted), so an update costs copying, not decoding and sorting every term.
 */
function mergeTerms(base: Dictionary | null, added: ReadonlyArray<{ term: Uint8Array; postings: number[] }>): Dictionary {
  const b = base ?? { count: 0, termBytes: new Uint8Array(0), termOffsets: new Uint32Array(1), postingOffsets: new Uint32Array(1), postings: new Uint32Array(0) };
  const addedBytes = added.reduce((n, a) => n + a.term.length, 0);
  const addedPairs = added.reduce((n, a) => n + a.postings.length / 2, 0);
  const termBytes = new Uint8Array(b.termBytes.length + addedBytes);
  const termOffsets = new Uint32Array(b.count + added.length + 1);
  const postingOffsets = new Uint32Array(b.count + added.length + 1);
  const postings = new Uint32Array(b.postings.length + 2 * addedPairs);
  let count = 0;
  let bytes = 0;
  let pairs = 0;
  const copyBase = (from: number, to: number) => {
    if (to <= from) return;
    const byteShift = bytes - b.termOffsets[from]!;
    const pairShift = pairs - b.postingOffsets[from]!;
    for (let t = from; t < to; t++) {
      termOffsets[count] = b.termOffsets[t]! + byteShift;
      postingOffsets[count] = b.postingOffsets[t]! + pairShift;
      count++;
    }
    termBytes.set(b.termBytes.subarray(b.termOffsets[from]!, b.termOffsets[to]!), bytes);
    bytes += b.termOffsets[to]! - b.termOffsets[from]!;
    postings.set(b.postings.subarray(2 * b.postingOffsets[from]!, 2 * b.postingOffsets[to]!), 2 * pairs);
    pairs += b.postingOffsets[to]! - b.postingOffsets[from]!;
  };
  const baseTerm = (t: number) => b.termBytes.subarray(b.termOffsets[t]!, b.termOffsets[t + 1]!);
  let next = 0;
  for (const a of added) {
    // Added terms are sorted: the search starts where the last ended.
    const lo = firstNotBelow(baseTerm, next, b.count, a.term);
    copyBase(next, lo);
    next = lo;
    const same = lo < b.count && compareBytes(baseTerm(lo), a.term) === 0;
    if (same) {
      // The base's postings first, then the added documents' (numbered after every base document).
      copyBase(lo, lo + 1);
      next = lo + 1;
    } else {
      termOffsets[count] = bytes;
      postingOffsets[count] = pairs;
      count++;
      termBytes.set(a.term, bytes);
      bytes += a.term.length;
    }
    postings.set(a.postings, 2 * pairs);
    pairs += a.postings.length / 2;
  }
  copyBase(next, b.count);
  termOffsets[count] = bytes;
  postingOffsets[count] = pairs;
  return { count, termBytes: termBytes.subarray(0, bytes), termOffsets: termOffsets.subarray(0, count + 1), postingOffsets: postingOffsets.subarray(0, count + 1), postings: postings.subarray(0, 2 * pairs) };
}

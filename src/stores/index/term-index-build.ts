/**
 * Writing the term index (layout: term-index-format.ts): from a previous
 * index of the same SQLite generation, the documents and postings of rows
 * still current are copied in bulk and only new rows are tokenized.
 */
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { type Memory, STATUSES } from '../../core/memory.ts';
import { analyzeText, ANALYZER_VERSION, FIELDS, packFrequencies, termOf } from '../../core/rank.ts';
import { INDEX_VERSION } from './schema.ts';
import { align8, type Header, MAGIC, objectKey, type Section, SECTIONS, TERM_INDEX_FORMAT } from './term-index-format.ts';
import type { TermIndex } from './term-index.ts';

const encoder = new TextEncoder();

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
    const tokens = analyzeText(text);
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
export interface TermIndexSource {
  tips: Record<string, string>;
  generation: string;
  copies: Record<string, string[]>;
}

export function buildTermIndex(
  source: TermIndexSource,
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

function encode(source: TermIndexSource, base: TermIndex | null, keep: readonly number[], added: readonly NewDocument[]): Uint8Array {
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
    // Identity: nothing dropped, so the lists are copied as they are. Otherwise a document
    // number the base does not have (a damaged file) renumbers to -1 and is dropped.
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
        const doc = renumber[list[i]!] ?? -1;
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
    indexVersion: INDEX_VERSION,
    analyzer: ANALYZER_VERSION,
    tips: source.tips,
    generation: source.generation,
    copies: source.copies,
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

function bytesOf(array: Uint32Array | Uint16Array | Float64Array): Uint8Array {
  return new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
}

/** Writes the index atomically: readers see the old file or the new one, never half of one. */
export function writeTermIndex(file: string, bytes: Uint8Array): void {
  writeFileAtomic(file, bytes);
}

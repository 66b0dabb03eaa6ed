/**
 * The layout of the term index file (`mem/terms.idx`), shared by its reader
 * (terms/reader.ts) and its builder (terms/build.ts).
 *
 * Layout: "GMTI", u32 format, u32 header length, header JSON, then from the
 * next 8-byte boundary the sections, each 8-byte aligned, located by the
 * header (offset from that boundary, byte length):
 *   rowids u32[N]         the memories row of each document
 *   lengths u32[N*3]      tokens per field
 *   created f64[N]        creation time (ms), for --since/--until and ties
 *   kinds u16[N*2]        namespace and status, as indexes into header lists
 *   objectKeys u32[N]     the first 32 bits of the object each memory is attached to
 *   docKeys u32[N]        each memory's key as keyPrefixOf() reads it: ids are found without the SQLite index
 *   docOffsets u32[N+1]   each document's place in the documents once inflated
 *   termOffsets u32[T+1]  into terms: the index terms, UTF-8, sorted by their bytes
 *   postingOffsets u32[T+1]  where each term's list starts, counted in (document, frequencies) pairs (core/search/bm25f.ts)
 *   postingBytes u32[T+1]    where each term's list starts in postings, in bytes
 *   postings                 every term's list, as varints (terms/codec.ts)
 *   keyHashes u32[K]      keyHash() of every key the notes hold (any revision, tombstones too), sorted, unique
 *   multiKeys u32[M]      keyHash() of every key with more than one stored revision or with a tombstone, sorted, unique
 *   deleted u32[D]        for an overlay: documents of the main file it removes (edited or forgotten since), ascending
 *   docBlocks u32[B+1]    into docs: where each block of DOC_BLOCK documents starts (terms/blocks.ts)
 *   docs                  each document's Memory as JSON, in deflated blocks
 * A reader loads the per-document arrays and the dictionary, then reads the
 * postings of the terms it searches for and the documents it returns.
 */
export const MAGIC = 0x49544d47; // "GMTI" read as a little-endian u32
export const TERM_INDEX_FORMAT = 7;

// docs comes last: a reader loads everything before it and reads single documents from the file as needed.
export const SECTIONS = ['rowids', 'lengths', 'created', 'kinds', 'objectKeys', 'docKeys', 'docOffsets', 'termOffsets', 'terms', 'postingOffsets', 'postingBytes', 'postings', 'keyHashes', 'multiKeys', 'deleted', 'docBlocks', 'docs'] as const;
export type Section = (typeof SECTIONS)[number];

export interface Header {
  format: number;
  /** What wrote it: the SQLite index's version (how notes are read) and the analyzer's (how text becomes terms). */
  indexVersion: string;
  analyzer: number;
  tips: Record<string, string>;
  /** The SQLite index generation whose row ids `rowids` holds. */
  generation: string;
  /**
   * Memories with copies on several objects (`<namespace>:<key>` → objects, the
   * one its document names first): which copy is shown, the anchor, depends on
   * HEAD and the branches, so it is chosen when read (services/history/anchors.ts).
   */
  copies: Record<string, string[]>;
  /** An overlay (stores/index/terms/catch-up.ts): the tips and generation of the term index it extends. */
  base?: { tips: Record<string, string>; generation: string };
  docCount: number;
  termCount: number;
  averageLengths: number[];
  namespaces: string[];
  statuses: string[];
  sections: Record<Section, [offset: number, bytes: number]>;
}

export const align8 = (x: number): number => Math.ceil(x / 8) * 8;

/** An object id's first 32 bits: a cheap first test of "attached to one of these commits", confirmed on the memory. */
export function objectKey(object: string): number {
  const key = Number.parseInt(object.slice(0, 8), 16);
  return Number.isNaN(key) ? 0 : key >>> 0;
}

/**
 * A memory key's first 32 bits, read as hex (keys git-mem makes are hex
 * digests; a hand-written id that is not hex hashes to its hex prefix, or 0):
 * whether a key may already be stored is answered from these, and a collision
 * only sends an update down the full path (stores/index/terms/catch-up.ts).
 */
export function keyHash(key: string): number {
  const h = Number.parseInt(key.slice(0, 8), 16);
  return Number.isNaN(h) ? 0 : h >>> 0;
}

/** docKeys' value for a key that does not start with 8 hex digits (a hand-written id): such a document is checked on its memory. */
export const IRREGULAR_KEY = 0xffffffff;

/** A key's first 8 hex digits as a number, or IRREGULAR_KEY; keys git-mem makes are hex digests. */
export function keyPrefixOf(key: string): number {
  return /^[0-9a-f]{8}/.test(key) ? Number.parseInt(key.slice(0, 8), 16) >>> 0 : IRREGULAR_KEY;
}

/** Sorted, unique key hashes. */
export function keyHashesOf(keys: Iterable<string>): Uint32Array {
  return sortedUnique(Uint32Array.from(keys, keyHash));
}

/** The values sorted, each once (sorts `values` in place). */
export function sortedUnique(values: Uint32Array): Uint32Array {
  values.sort();
  let n = 0;
  for (let i = 0; i < values.length; i++) if (i === 0 || values[i] !== values[i - 1]) values[n++] = values[i]!;
  return values.slice(0, n);
}

/** Byte order of UTF-8 strings: the dictionary's order (a prefix's terms are contiguous in it). */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** The overlay of memories appended since the term index file was written (stores/index/terms/catch-up.ts), beside it. */
export function overlayFileOf(termFile: string): string {
  return termFile.replace(/[^/\\]*$/, 'terms.add');
}

/**
 * Postings as the term index stores them: each term's list of (document,
 * packed frequencies) pairs (core/search/bm25f.ts packFrequencies) as variable-length
 * integers, documents as gaps from the previous one. Most pairs take 2 bytes
 * instead of 8: a gap under 128 and a body frequency under 8 with summary and
 * tags frequencies under 4, which is most of them. Readers decode one term's list
 * into the pairs the ranking reads.
 */

/** The pairs' frequencies in one varint when summary and tags are under 4 (low bit 0), else three varints after a 1. */
function frequencyBytes(packed: number, out: number[]): void {
  const summary = packed >>> 24;
  const tags = (packed >>> 16) & 0xff;
  const body = packed & 0xffff;
  if (summary < 4 && tags < 4) writeVarint((body * 16 + tags * 4 + summary) * 2, out);
  else {
    out.push(1);
    writeVarint(summary, out);
    writeVarint(tags, out);
    writeVarint(body, out);
  }
}

function writeVarint(value: number, out: number[]): void {
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
}

/**
 * Every term's list encoded, one after another: `pairs` holds the lists in
 * term order, `pairOffsets` (u32[terms + 1], in pairs) where each starts.
 * Returns the bytes and where each term's list starts in them (u32[terms + 1]).
 */
export function encodePostings(pairs: Uint32Array, pairOffsets: Uint32Array): { bytes: Uint8Array; byteOffsets: Uint32Array } {
  const terms = pairOffsets.length - 1;
  const byteOffsets = new Uint32Array(terms + 1);
  const out: number[] = [];
  let bytes = new Uint8Array(Math.max(16, pairs.length * 2));
  let size = 0;
  for (let t = 0; t < terms; t++) {
    byteOffsets[t] = size;
    let previous = -1;
    for (let i = 2 * pairOffsets[t]!; i < 2 * pairOffsets[t + 1]!; i += 2) {
      out.length = 0;
      pairBytes(pairs[i]!, pairs[i + 1]!, previous, out);
      previous = pairs[i]!;
      if (size + out.length > bytes.length) {
        const grown = new Uint8Array(bytes.length * 2 + out.length);
        grown.set(bytes.subarray(0, size));
        bytes = grown;
      }
      for (const b of out) bytes[size++] = b;
    }
  }
  byteOffsets[terms] = size;
  return { bytes: bytes.slice(0, size), byteOffsets };
}

/**
 * One term's pairs (`pairs`: doc, packed, doc, packed...) encoded after a list whose last
 * document was `previous` (-1 for none), pushed onto `out`: the bytes encodePostings would
 * write for them at the end of that list.
 */
export function appendPostings(pairs: ArrayLike<number>, previous: number, out: number[]): void {
  for (let i = 0; i + 1 < pairs.length; i += 2) {
    pairBytes(pairs[i]!, pairs[i + 1]!, previous, out);
    previous = pairs[i]!;
  }
}

/** One pair's bytes: the gap from the previous document, then the packed frequencies. */
function pairBytes(doc: number, packed: number, previous: number, out: number[]): void {
  writeVarint(doc - previous - 1, out);
  frequencyBytes(packed, out);
}

/**
 * The last document of a list of `count` pairs (`bytes`: that list's bytes), read without
 * decoding its frequencies: -1 for an empty list, NaN when the bytes end or are damaged before.
 */
export function lastDocument(bytes: Uint8Array, count: number): number {
  const end = bytes.length;
  let p = 0;
  let doc = -1;
  const varint = (): number => {
    let b = bytes[p++]!;
    let v = b & 0x7f;
    for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
      if (p >= end || scale > 2 ** 28) return Number.NaN;
      b = bytes[p++]!;
      v += (b & 0x7f) * scale;
    }
    return v;
  };
  for (let n = 0; n < count; n++) {
    if (p >= end) return Number.NaN;
    doc += varint() + 1;
    if (!(doc <= 0xffffffff) || p >= end) return Number.NaN;
    // The frequencies: one even varint, or 1 and three varints (as decodePostings reads them).
    if (bytes[p] === 1) {
      p++;
      for (let i = 0; i < 3; i++) if (p >= end || Number.isNaN(varint())) return Number.NaN;
    } else if (varint() % 2 !== 0) return Number.NaN;
  }
  return doc;
}

/** The packed frequencies of each one-byte frequency varint (its value halved: 0-63). */
const SMALL_FREQUENCIES = Uint32Array.from({ length: 64 }, (_, f) => (((f & 3) << 24) | (((f >>> 2) & 3) << 16) | (f >>> 4)) >>> 0);

/**
 * One term's list of `count` pairs from `bytes` (that list's bytes), written
 * into `into` from pair `at` as [doc, packed, doc, packed, ...]. Returns how
 * many pairs it decoded: fewer than `count` when the bytes end or are
 * damaged first. Written out flat, one-byte values first: a recall decodes
 * thousands of pairs in a process too young for the JIT to have inlined anything.
 */
export function decodePostings(bytes: Uint8Array, count: number, into: Uint32Array, at = 0): number {
  const end = bytes.length;
  let p = 0;
  let doc = -1;
  let n = 0;
  let out = 2 * at;
  while (n < count) {
    // Most pairs: a one-byte gap and a one-byte frequency varint.
    if (p + 1 < end) {
      const g = bytes[p]!;
      const f = bytes[p + 1]!;
      if (g < 0x80 && f < 0x80 && f !== 1) {
        if ((f & 1) !== 0) break;
        doc += g + 1;
        into[out++] = doc;
        into[out++] = SMALL_FREQUENCIES[f >> 1]!;
        p += 2;
        n++;
        continue;
      }
    }
    // The gap to the previous document.
    if (p >= end) break;
    let b = bytes[p++]!;
    let gap = b & 0x7f;
    for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
      if (p >= end || scale > 2 ** 28) return n;
      b = bytes[p++]!;
      gap += (b & 0x7f) * scale;
    }
    doc += gap + 1;
    if (doc > 0xffffffff || p >= end) break;
    // The frequencies: one even varint, or 1 and three varints.
    let packed: number;
    b = bytes[p++]!;
    if (b === 1) {
      const f = [0, 0, 0];
      for (let i = 0; i < 3; i++) {
        if (p >= end) return n;
        b = bytes[p++]!;
        let v = b & 0x7f;
        for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
          if (p >= end || scale > 2 ** 28) return n;
          b = bytes[p++]!;
          v += (b & 0x7f) * scale;
        }
        f[i] = v;
      }
      packed = ((Math.min(f[0]!, 0xff) << 24) | (Math.min(f[1]!, 0xff) << 16) | Math.min(f[2]!, 0xffff)) >>> 0;
    } else {
      let v = b & 0x7f;
      for (let scale = 0x80; b >= 0x80; scale *= 0x80) {
        if (p >= end || scale > 2 ** 28) return n;
        b = bytes[p++]!;
        v += (b & 0x7f) * scale;
      }
      if (v % 2 !== 0) break;
      const f = v / 2;
      packed = (((f & 3) << 24) | (((f >>> 2) & 3) << 16) | Math.min(Math.floor(f / 16), 0xffff)) >>> 0;
    }
    into[out++] = doc;
    into[out++] = packed;
    n++;
  }
  return n;
}

/**
 * Postings as the term index stores them: each term's list of (document,
 * packed frequencies) pairs (core/rank.ts packFrequencies) as variable-length
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
      writeVarint(pairs[i]! - previous - 1, out);
      previous = pairs[i]!;
      frequencyBytes(pairs[i + 1]!, out);
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
 * One term's list of `count` pairs from `bytes` (that list's bytes), written
 * into `into` from pair `at` as [doc, packed, doc, packed, ...]. Returns how
 * many pairs it decoded: fewer than `count` when the bytes end or are
 * damaged first.
 */
export function decodePostings(bytes: Uint8Array, count: number, into: Uint32Array, at = 0): number {
  let p = 0;
  let doc = -1;
  let n = 0;
  const end = bytes.length;
  const varint = (): number => {
    let value = 0;
    let scale = 1;
    for (;;) {
      if (p >= end || scale > 2 ** 35) return -1;
      const b = bytes[p++]!;
      value += (b & 0x7f) * scale;
      if (b < 0x80) return value;
      scale *= 0x80;
    }
  };
  while (n < count) {
    const gap = varint();
    if (gap < 0) break;
    doc += gap + 1;
    let packed: number;
    if (p < end && bytes[p] === 1) {
      p++;
      const summary = varint();
      const tags = varint();
      const body = varint();
      if (summary < 0 || tags < 0 || body < 0) break;
      packed = ((Math.min(summary, 0xff) << 24) | (Math.min(tags, 0xff) << 16) | Math.min(body, 0xffff)) >>> 0;
    } else {
      const v = varint();
      if (v < 0 || v % 2 !== 0) break;
      const f = v / 2;
      packed = (((f & 3) << 24) | (((f >>> 2) & 3) << 16) | Math.min(Math.floor(f / 16), 0xffff)) >>> 0;
    }
    if (doc > 0xffffffff) break;
    into[2 * (at + n)] = doc;
    into[2 * (at + n) + 1] = packed;
    n++;
  }
  return n;
}

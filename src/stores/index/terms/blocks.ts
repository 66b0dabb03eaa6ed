/**
 * The term index's documents, compressed: the memories' JSON in blocks of
 * DOC_BLOCK consecutive documents, each deflated on its own, behind a checksum. A block of 16
 * compresses to about a third (JSON keys and words repeat across memories),
 * where one memory alone compresses to about 60%; a reader inflates only the
 * blocks of the documents it returns (about 25 µs each). Blocks of 32 save
 * 4% more but take twice as long to inflate, and a recall inflates 10-20.
 */

/**
 * Bun's own deflate (the same raw DEFLATE bytes as node:zlib's deflateRawSync):
 * loading node:zlib costs a compiled binary 7-9 ms at start, more than the
 * inflating. Under Node (the unit tests) node:zlib is loaded on first use.
 */
interface Deflate {
  deflateSync(data: Uint8Array, options: { level: number }): Uint8Array;
  inflateSync(data: Uint8Array): Uint8Array;
}
let codec: Deflate | undefined;
function deflate(): Deflate {
  if (codec) return codec;
  const bun = (globalThis as { Bun?: Deflate }).Bun;
  if (bun) return (codec = bun);
  const zlib = process.getBuiltinModule('node:zlib');
  return (codec = { deflateSync: (data, options) => zlib.deflateRawSync(data, options), inflateSync: (data) => zlib.inflateRawSync(data) });
}

export const DOC_BLOCK = 16;

/** Level 3: near level 6's size (about 4% larger) at half its time, which a rebuild of 100,000 memories feels. */
const LEVEL = 3;

export function blockCount(docCount: number): number {
  return Math.ceil(docCount / DOC_BLOCK);
}

/**
 * Adler-32 of the documents (as zlib computes it): raw DEFLATE has no check of
 * its own, and a flipped bit can inflate to other text of the same length.
 */
export function adler32(bytes: Uint8Array): number {
  let a = 1;
  let b = 0;
  // 5,552 bytes is the most that can be summed before b could pass 2^32 (zlib's NMAX).
  for (let i = 0; i < bytes.length; ) {
    const end = Math.min(i + 5552, bytes.length);
    for (; i < end; i++) {
      a += bytes[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A stored block: the documents' Adler-32 (4 bytes, little-endian), then their DEFLATE bytes. */
function deflateBlock(bytes: Uint8Array): Uint8Array {
  const packed = deflate().deflateSync(bytes, { level: LEVEL });
  const out = new Uint8Array(4 + packed.byteLength);
  new DataView(out.buffer).setUint32(0, adler32(bytes), true);
  out.set(packed, 4);
  return out;
}

/** Inflates a stored block, which must give exactly `length` bytes with its checksum (anything else is a damaged file). */
export function inflateBlock(stored: Uint8Array, length: number): Uint8Array {
  if (stored.byteLength < 4) throw new Error('term index document block is damaged');
  const out = length === 0 ? new Uint8Array(0) : deflate().inflateSync(stored.subarray(4));
  const sum = new DataView(stored.buffer, stored.byteOffset, 4).getUint32(0, true);
  if (out.byteLength !== length || adler32(out) !== sum) throw new Error('term index document block is damaged');
  return out;
}

/**
 * The docs section and its block offsets (u32[blocks + 1]) for documents
 * whose uncompressed offsets are `docOffsets`: blocks before `reused.length`
 * are taken as given (compressed blocks of identical documents), the rest
 * are deflated from `tail`, the uncompressed bytes from the first block not reused.
 */
export function encodeBlocks(docOffsets: Uint32Array, reused: readonly Uint8Array[], tail: Uint8Array): { docs: Uint8Array; blockOffsets: Uint32Array } {
  const n = docOffsets.length - 1;
  const blocks = blockCount(n);
  const parts: Uint8Array[] = [...reused];
  const tailStart = docOffsets[Math.min(reused.length * DOC_BLOCK, n)]!;
  for (let b = reused.length; b < blocks; b++) {
    const from = docOffsets[b * DOC_BLOCK]! - tailStart;
    const to = docOffsets[Math.min((b + 1) * DOC_BLOCK, n)]! - tailStart;
    parts.push(deflateBlock(tail.subarray(from, to)));
  }
  const blockOffsets = new Uint32Array(blocks + 1);
  let size = 0;
  parts.forEach((p, b) => {
    blockOffsets[b] = size;
    size += p.byteLength;
  });
  blockOffsets[blocks] = size;
  const docs = new Uint8Array(size);
  parts.forEach((p, b) => docs.set(p, blockOffsets[b]!));
  return { docs, blockOffsets };
}

/**
 * Compact sentence vectors and the scan over them, the pure part (the file
 * is stores/index/vectors/vector-store.ts).
 *
 * Each vector is kept as int8 (scaled so that its largest component is 127)
 * with the inverse of that int8 vector's length, as an int16 residual of that
 * rounding (in 1/65,532ths of an int8 step: together 23 bits a component, a
 * Float32's precision), and as sign bits (one bit a dimension). Cosine is
 * scale-free, so the int8 vector alone gives it: cos(q, v) ≈ dot(q, v8) ·
 * inv(v8) / |q|, within about 1% of a cosine at 384 dimensions; with the
 * residual, within about 1e-8 of the Float32 vector's.
 *
 * The scan has two or three passes. Above EXACT_SCAN_MAX candidates, sign bits
 * first (Hamming distance, 12 words per vector at 384 dimensions: a few ms for
 * 100,000) keep the closest `prefilterDepth(limit)`. The int8 cosine then
 * keeps the best `rescoreDepth(limit)`, and those are scored again with the
 * residual: that order is the Float32 order (int8 rounding alone reorders
 * near-ties; docs/semantic.md, Vectors).
 */

/** Candidates scored exactly over int8 vectors; above this, sign bits choose whom to score. */
export const EXACT_SCAN_MAX = 20_000;
/** The same for the hooks, where a few milliseconds count more than the last near-tie. */
export const HOOK_EXACT_SCAN_MAX = 2_000;

/** 0, 1, ..., n - 1. A loop: `Int32Array.from` with a map function costs a fresh process 2.5 ms for 100,000. */
export function upTo(n: number): Int32Array {
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = i;
  return out;
}

/** How many candidates the sign-bit pass keeps for exact scoring, for a ranking of `limit`. */
export function prefilterDepth(limit: number): number {
  return Math.max(2000, limit * 40);
}

/** How many of the int8 pass's best are scored again with the residual, for a ranking of `limit`. */
export function rescoreDepth(limit: number): number {
  return limit * 4 + 50;
}

/** Residual steps in one int8 step: the residual of a rounding (at most half a step) fits ±32,766. */
const FINE = 65_532;

/** 32-bit words of sign bits a vector of `dim` dimensions takes. */
export function bitWords(dim: number): number {
  return Math.ceil(dim / 32);
}

export interface Quantized {
  /** int8 components, the largest in magnitude at ±127. */
  q: Int8Array;
  /** What rounding to `q` left out, in 1/65,532ths of a step: component d is q[d] + fine[d] / 65,532 (to scale). */
  fine: Int16Array;
  /** 1 / |q| (0 for a zero vector). */
  inv: number;
  /** Sign bits: bit d%32 of word d/32 is set when component d is positive. */
  bits: Uint32Array;
}

export function quantize(v: Float32Array): Quantized {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const q = new Int8Array(v.length);
  const fine = new Int16Array(v.length);
  let nn = 0;
  if (max > 0) {
    const scale = 127 / max;
    for (let i = 0; i < v.length; i++) {
      const x = v[i]! * scale;
      const r = Math.round(x);
      q[i] = r;
      fine[i] = Math.max(-32_766, Math.min(32_766, Math.round((x - r) * FINE)));
      nn += r * r;
    }
  }
  return { q, fine, inv: nn > 0 ? 1 / Math.sqrt(nn) : 0, bits: signBits(v) };
}

export function signBits(v: ArrayLike<number>): Uint32Array {
  const bits = new Uint32Array(bitWords(v.length));
  for (let d = 0; d < v.length; d++) if (v[d]! > 0) bits[d >>> 5]! |= 1 << (d & 31);
  return bits;
}

/** The vector (int8 and residual) as floats of unit length, for callers that want a vector back. */
export function dequantize(q: Int8Array, fine: Int16Array): Float32Array {
  const out = new Float32Array(q.length);
  let nn = 0;
  for (let i = 0; i < q.length; i++) {
    const x = q[i]! * FINE + fine[i]!;
    out[i] = x;
    nn += x * x;
  }
  const inv = nn > 0 ? 1 / Math.sqrt(nn) : 0;
  for (let i = 0; i < out.length; i++) out[i]! *= inv;
  return out;
}

/**
 * Vectors laid out flat: row r's int8 components and their residuals at
 * [r*dim, (r+1)*dim) of `data` and `fine`, its sign bits at [r*words, (r+1)*words).
 */
export interface VectorBlock {
  dim: number;
  data: Int8Array;
  fine: Int16Array;
  inv: Float32Array;
  bits: Uint32Array;
}

/**
 * Cosine of the query with the vector at [at, at + dim) of `q` and `fine`
 * (int8 and residual together), `qNorm` the query's length: what the Float32
 * vector gives, within about 1e-8 (each component is an integer below 2^24,
 * so its products with the query's Float32 components are exact in a double).
 */
export function fineCosine(query: Float32Array, qNorm: number, q: Int8Array, fine: Int16Array, at: number): number {
  let dot = 0;
  let nn = 0;
  for (let d = 0; d < query.length; d++) {
    const x = q[at + d]! * FINE + fine[at + d]!;
    dot += query[d]! * x;
    nn += x * x;
  }
  return nn > 0 ? dot / (Math.sqrt(nn) * qNorm) : 0;
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

/** Cosine of the query with block row `row` (the query need not be unit length; `qNorm` is its length). */
function rowCosine(query: Float32Array, qNorm: number, block: VectorBlock, row: number): number {
  const { dim, data } = block;
  const at = row * dim;
  let dot = 0;
  for (let d = 0; d < dim; d++) dot += query[d]! * data[at + d]!;
  return (dot * block.inv[row]!) / qNorm;
}

/**
 * The `limit` rows of `rows` (block rows, in the caller's order) most similar
 * to `query`, best first, as indexes into `rows` with their cosine (int8 and
 * residual). Ties keep the order of `rows`. A query of another dimension
 * scores nothing.
 */
export function scanBlock(query: Float32Array, block: VectorBlock, rows: Int32Array, limit: number, exactMax = EXACT_SCAN_MAX): Array<{ at: number; score: number }> {
  if (limit <= 0 || rows.length === 0 || query.length !== block.dim) return [];
  let qq = 0;
  for (let i = 0; i < query.length; i++) qq += query[i]! * query[i]!;
  const qNorm = Math.sqrt(qq);
  if (qNorm === 0) return [];
  const chosen = rows.length <= exactMax ? upTo(rows.length) : closestBySigns(query, block, rows, prefilterDepth(limit));
  const coarse = new Float64Array(chosen.length);
  for (let i = 0; i < chosen.length; i++) coarse[i] = rowCosine(query, qNorm, block, rows[chosen[i]!]!);
  const kept = bestOf(coarse, rescoreDepth(limit));
  const scored = Array.from(kept, (i) => {
    const at = chosen[i]!;
    return { at, score: fineCosine(query, qNorm, block.data, block.fine, rows[at]! * block.dim) };
  });
  scored.sort((x, y) => y.score - x.score || x.at - y.at);
  return scored.slice(0, limit);
}

/** Indexes of the `keep` largest scores (at the cut, earlier first), in index order. */
function bestOf(scores: Float64Array, keep: number): Int32Array {
  if (scores.length <= keep) return upTo(scores.length);
  const cut = Float64Array.from(scores).sort()[scores.length - keep]!;
  let above = 0;
  for (let i = 0; i < scores.length; i++) if (scores[i]! > cut) above++;
  let atCut = keep - above;
  const out = new Int32Array(keep);
  let n = 0;
  for (let i = 0; i < scores.length && n < keep; i++) {
    const s = scores[i]!;
    if (s > cut) out[n++] = i;
    else if (s === cut && atCut > 0) {
      out[n++] = i;
      atCut--;
    }
  }
  return out;
}

/** Indexes into `rows` of the `keep` rows whose sign bits differ least from the query's (ties: earlier first), in `rows` order. */
export function closestBySigns(query: Float32Array, block: VectorBlock, rows: Int32Array, keep: number): Int32Array {
  if (rows.length <= keep) return upTo(rows.length);
  const words = bitWords(block.dim);
  const qb = signBits(query);
  const distance = new Uint16Array(rows.length);
  const histogram = new Uint32Array(block.dim + 1);
  const bits = block.bits;
  for (let i = 0; i < rows.length; i++) {
    const at = rows[i]! * words;
    let h = 0;
    for (let w = 0; w < words; w++) h += popcount(bits[at + w]! ^ qb[w]!);
    distance[i] = h;
    histogram[h]!++;
  }
  // The largest distance still kept, and how many at exactly that distance fit.
  let cut = 0;
  let below = 0;
  while (cut < histogram.length && below + histogram[cut]! < keep) below += histogram[cut++]!;
  let atCut = keep - below;
  const out = new Int32Array(keep);
  let n = 0;
  for (let i = 0; i < rows.length && n < keep; i++) {
    const h = distance[i]!;
    if (h < cut) out[n++] = i;
    else if (h === cut && atCut > 0) {
      out[n++] = i;
      atCut--;
    }
  }
  return out.subarray(0, n);
}

/**
 * The capture model: is a statement worth remembering, and in which namespace.
 * Linear over hashed features (core/capture-features.ts), weights trained by
 * tools/capture-model/train.ts and shipped in core/capture-weights.ts as int8
 * with one scale per row, and optionally a table of word vectors learned
 * without labels (int8 rows of hashed words) whose mean, unit length, each
 * row weighs. Sums are taken over the integers, the vectors' length by the
 * correctly rounded square root, and the logistic function uses only
 * + - * /, so every build gives the same scores.
 * A damaged weights table throws: never a silent fallback to no model.
 */
import { sha256Hex } from './hash.ts';
import { FEATURE_BUCKETS, FEATURE_BITS, type Features, featuresOf, wordWeight } from './capture-features.ts';
import { CAPTURE_WEIGHTS } from './capture-weights.ts';

/** The model's rows: "worth keeping", then one per namespace it can choose. */
export const MODEL_NAMESPACES = ['decisions', 'learnings', 'blockers', 'patterns', 'progress'] as const;
export type ModelNamespace = (typeof MODEL_NAMESPACES)[number];
export const MODEL_ROWS = ['keep', ...MODEL_NAMESPACES] as const;

/** What tools/capture-model/train.ts writes, and this module reads. */
export interface WeightsTable {
  version: number;
  bits: number;
  rows: readonly string[];
  /** Per row: the intercept, and the factor from int8 to real weights. */
  bias: readonly number[];
  scale: readonly number[];
  /** Platt scaling of the keep row's score: p = sigmoid(a * z + b). */
  calibration: { a: number; b: number };
  /** rows × buckets int8 weights, base64, in chunks (one string would be one 512 KB line). */
  weights: readonly string[];
  /** Word vectors learned without labels (docs/capture.md, "Fifth round"), when the model has them. */
  vectors?: VectorTable;
  /** SHA-256 of the decoded weights (then the vector table's and its fingerprints) and the numbers above (weightsDigest). */
  sha256: string;
}

export type VectorPool = 'mean' | 'mean+max';

export interface VectorTable {
  /** log2 of the buckets, and the dimensions of a vector. */
  bits: number;
  dim: number;
  pool: VectorPool;
  /** Per row of the model: the weights of the pooled vector's dimensions (dim, or 2 × dim for mean+max). */
  weights: ReadonlyArray<readonly number[]>;
  /** 2^bits × dim int8, base64, in chunks. */
  table: readonly string[];
  /** 2^bits 16-bit fingerprints (little-endian, 0 for a bucket no word holds), base64, in chunks. */
  fingerprints: readonly string[];
}

/**
 * Where a word's vector may be (docs/capture.md, "Fifth round"): one of two
 * buckets, the one whose fingerprint is the word's; a word with neither has
 * no vector. The fingerprint is never 0 (an empty bucket).
 */
export function vectorPlaces(hash: number, bits: number): { first: number; second: number; fingerprint: number } {
  const first = hash & ((1 << bits) - 1);
  const fingerprint = fingerprintOf(hash);
  return { first, second: secondBucket(first, fingerprint, bits), fingerprint };
}

const fingerprintOf = (hash: number) => hash >>> 16 || 1;
const secondBucket = (first: number, fingerprint: number, bits: number) => (first ^ (Math.imul(fingerprint, 0x9e3779b1) >>> (32 - bits))) & ((1 << bits) - 1);

export interface Verdict {
  /** Calibrated probability that the statement is worth remembering. */
  keep: number;
  /** The namespace it most likely belongs to, and how sure (softmax over the namespaces). */
  namespace: ModelNamespace;
  namespaceConfidence: number;
  /** The keep row's raw score (before calibration): ranks sentences within a statement. */
  score: number;
}

/** e^x with + - * / only (the platform's Math.exp may differ in its last bit): 2^k · e^r, |r| ≤ ln2/2, r by its series. */
export function exactExp(x: number): number {
  if (x > 700) return Infinity;
  if (x < -700) return 0;
  const LN2 = Math.LN2;
  const k = Math.round(x / LN2);
  const r = x - k * LN2;
  let term = 1;
  let sum = 1;
  for (let i = 1; i <= 14; i++) {
    term = (term * r) / i;
    sum += term;
  }
  let p = 1;
  const base = k >= 0 ? 2 : 0.5;
  for (let i = 0; i < Math.abs(k); i++) p *= base;
  return sum * p;
}

export function sigmoid(z: number): number {
  return 1 / (1 + exactExp(-z));
}

/** The digest a weights table carries: its int8 weights and every number that scores with them. */
export function weightsDigest(bytes: Uint8Array, t: Pick<WeightsTable, 'version' | 'bits' | 'rows' | 'bias' | 'scale' | 'calibration'> & { vectors?: Omit<VectorTable, 'table' | 'fingerprints'> }): string {
  const vectors = t.vectors ? { vectors: { bits: t.vectors.bits, dim: t.vectors.dim, pool: t.vectors.pool, weights: t.vectors.weights } } : {};
  const header = JSON.stringify({ version: t.version, bits: t.bits, rows: t.rows, bias: t.bias, scale: t.scale, calibration: t.calibration, ...vectors });
  const all = new Uint8Array(header.length + bytes.length);
  all.set(new TextEncoder().encode(header), 0);
  all.set(bytes, header.length);
  return sha256Hex(all);
}

/**
 * What a text's words' vectors say of it: their mean, unit length, and with
 * "mean+max" also each dimension's largest value, unit length (null when no
 * word has a vector). The int8 rows are summed and compared as integers,
 * exactly, so the int8 scale cancels out.
 */
export function pooledVector(hashes: Uint32Array, v: { bits: number; dim: number; pool: VectorPool; table: Int8Array; fingerprints: Uint16Array }): Float64Array | null {
  const { dim, table, fingerprints } = v;
  const mask = (1 << v.bits) - 1;
  const withMax = v.pool === 'mean+max';
  const sum = new Int32Array(dim);
  const max = new Int32Array(withMax ? dim : 0).fill(-128);
  let seen = 0;
  for (let i = 0; i < hashes.length; i++) {
    // vectorPlaces, without an object a word.
    const fingerprint = fingerprintOf(hashes[i]!);
    let bucket = hashes[i]! & mask;
    if (fingerprints[bucket] !== fingerprint) {
      bucket = secondBucket(bucket, fingerprint, v.bits);
      if (fingerprints[bucket] !== fingerprint) continue;
    }
    seen++;
    const o = bucket * dim;
    for (let q = 0; q < dim; q++) sum[q]! += table[o + q]!;
    if (withMax) for (let q = 0; q < dim; q++) if (table[o + q]! > max[q]!) max[q] = table[o + q]!;
  }
  if (seen === 0) return null;
  const parts = withMax ? [sum, max] : [sum];
  const out = new Float64Array(dim * parts.length);
  parts.forEach((part, k) => {
    let squares = 0;
    for (let q = 0; q < dim; q++) squares += part[q]! * part[q]!;
    const norm = Math.sqrt(squares) || 1;
    for (let q = 0; q < dim; q++) out[k * dim + q] = part[q]! / norm;
  });
  return out;
}

export class CaptureModel {
  private readonly weights: Int8Array;
  private readonly vectors: { bits: number; dim: number; pool: VectorPool; table: Int8Array; fingerprints: Uint16Array } | null = null;

  constructor(private readonly table: WeightsTable) {
    if (table.bits !== FEATURE_BITS || table.rows.join(',') !== MODEL_ROWS.join(',')) throw new Error('capture model: its weights were trained for other features; rebuild them (tools/capture-model)');
    // One native decode into a view of its bytes (Uint8Array.from would copy them one at a time: 40 ms).
    const bytes = Buffer.from(table.weights.join(''), 'base64');
    if (bytes.length !== MODEL_ROWS.length * FEATURE_BUCKETS) throw new Error('capture model: its weights are damaged (wrong size); rebuild them (tools/capture-model)');
    this.weights = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    let all = new Uint8Array(this.weights.buffer, this.weights.byteOffset, this.weights.length);
    const v = table.vectors;
    if (v) {
      const vb = Buffer.from(v.table.join(''), 'base64');
      const fb = Buffer.from(v.fingerprints.join(''), 'base64');
      const width = v.pool === 'mean+max' ? 2 * v.dim : v.dim;
      if ((v.pool !== 'mean' && v.pool !== 'mean+max') || !Number.isInteger(v.bits) || !(v.bits >= 8 && v.bits <= 20) || !Number.isInteger(v.dim) || !(v.dim > 0) || vb.length !== (1 << v.bits) * v.dim || fb.length !== 2 << v.bits || v.weights.length !== MODEL_ROWS.length || v.weights.some((row) => row.length !== width)) {
        throw new Error('capture model: its weights are damaged (wrong size); rebuild them (tools/capture-model)');
      }
      // Fingerprints little-endian on every platform: read byte by byte.
      const fingerprints = new Uint16Array(1 << v.bits);
      for (let i = 0; i < fingerprints.length; i++) fingerprints[i] = fb[2 * i]! | (fb[2 * i + 1]! << 8);
      this.vectors = { bits: v.bits, dim: v.dim, pool: v.pool, table: new Int8Array(vb.buffer, vb.byteOffset, vb.length), fingerprints };
      const joined = new Uint8Array(all.length + vb.length + fb.length);
      joined.set(all, 0);
      joined.set(vb, all.length);
      joined.set(fb, all.length + vb.length);
      all = joined;
    }
    if (weightsDigest(all, table) !== table.sha256) {
      throw new Error('capture model: its weights are damaged (checksum mismatch); rebuild them (tools/capture-model)');
    }
  }

  /** Each row's score for some features (with their vector hashes when this model has word vectors: featuresOf(text, true)). */
  rowScores(f: Features): number[] {
    const norm = wordWeight(f.words.length);
    const v = this.table.vectors;
    if (this.vectors && !f.vectors) throw new Error('capture model: it has word vectors and the features have no vector hashes (featuresOf(text, true))');
    const mean = this.vectors ? pooledVector(f.vectors!, this.vectors) : null;
    const out: number[] = [];
    for (let r = 0; r < MODEL_ROWS.length; r++) {
      const base = r * FEATURE_BUCKETS;
      let words = 0;
      for (let i = 0; i < f.words.length; i++) words += this.weights[base + f.words[i]!]!;
      let shapes = 0;
      for (let i = 0; i < f.shapes.length; i++) shapes += this.weights[base + f.shapes[i]!]!;
      let dense = 0;
      if (mean) {
        const row = v!.weights[r]!;
        for (let q = 0; q < mean.length; q++) dense += row[q]! * mean[q]!;
      }
      out.push(this.table.bias[r]! + this.table.scale[r]! * (words * norm + shapes) + dense);
    }
    return out;
  }

  score(text: string): Verdict {
    const [keep, ...ns] = this.rowScores(featuresOf(text, this.vectors !== null));
    const { a, b } = this.table.calibration;
    let best = 0;
    for (let i = 1; i < ns.length; i++) if (ns[i]! > ns[best]!) best = i;
    let total = 0;
    for (const z of ns) total += exactExp(z! - ns[best]!);
    return { keep: sigmoid(a * keep! + b), namespace: MODEL_NAMESPACES[best]!, namespaceConfidence: 1 / total, score: keep! };
  }
}

let shipped: CaptureModel | undefined;

/** The model built into git-mem (decoded and checked once a process). */
export function captureModel(): CaptureModel {
  shipped ??= new CaptureModel(CAPTURE_WEIGHTS);
  return shipped;
}

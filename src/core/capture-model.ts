/**
 * The capture model: is a statement worth remembering, and in which namespace.
 * Linear over hashed features (core/capture-features.ts), weights trained by
 * tools/capture-model/train.ts and shipped in core/capture-weights.ts as int8
 * with one scale per row. Sums are taken over the integers, and the logistic
 * function uses only + - * /, so every build gives the same scores.
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
  /** SHA-256 of the decoded weights and the numbers above (weightsDigest). */
  sha256: string;
}

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
export function weightsDigest(bytes: Uint8Array, t: Pick<WeightsTable, 'version' | 'bits' | 'rows' | 'bias' | 'scale' | 'calibration'>): string {
  const header = JSON.stringify({ version: t.version, bits: t.bits, rows: t.rows, bias: t.bias, scale: t.scale, calibration: t.calibration });
  const all = new Uint8Array(header.length + bytes.length);
  all.set(new TextEncoder().encode(header), 0);
  all.set(bytes, header.length);
  return sha256Hex(all);
}

export class CaptureModel {
  private readonly weights: Int8Array;

  constructor(private readonly table: WeightsTable) {
    if (table.bits !== FEATURE_BITS || table.rows.join(',') !== MODEL_ROWS.join(',')) throw new Error('capture model: its weights were trained for other features; rebuild them (tools/capture-model)');
    // One native decode into a view of its bytes (Uint8Array.from would copy them one at a time: 40 ms).
    const bytes = Buffer.from(table.weights.join(''), 'base64');
    if (bytes.length !== MODEL_ROWS.length * FEATURE_BUCKETS) throw new Error('capture model: its weights are damaged (wrong size); rebuild them (tools/capture-model)');
    this.weights = new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length);
    if (weightsDigest(bytes, table) !== table.sha256) {
      throw new Error('capture model: its weights are damaged (checksum mismatch); rebuild them (tools/capture-model)');
    }
  }

  /** Each row's score for some features. */
  rowScores(f: Features): number[] {
    const norm = wordWeight(f.words.length);
    const out: number[] = [];
    for (let r = 0; r < MODEL_ROWS.length; r++) {
      const base = r * FEATURE_BUCKETS;
      let words = 0;
      for (let i = 0; i < f.words.length; i++) words += this.weights[base + f.words[i]!]!;
      let shapes = 0;
      for (let i = 0; i < f.shapes.length; i++) shapes += this.weights[base + f.shapes[i]!]!;
      out.push(this.table.bias[r]! + this.table.scale[r]! * (words * norm + shapes));
    }
    return out;
  }

  score(text: string): Verdict {
    const [keep, ...ns] = this.rowScores(featuresOf(text));
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

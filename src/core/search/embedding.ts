/**
 * Sentence embeddings, the pure part: what text of a memory is embedded, its
 * content hash (stored vectors are valid while it is unchanged), mean pooling
 * of a model's token vectors, and similarity ranking. No model or I/O here.
 */
import { sha1Hex } from '../hash.ts';

/**
 * Characters of a memory given to the model. MiniLM reads at most 256 word
 * pieces (its sentence-transformers setting); about 1,000 characters of
 * English fill that, and a longer text only costs time.
 */
export const EMBED_MAX_CHARS = 1000;

/** Summary first (what the memory is about), then its tags, then the start of the body. */
export function embeddingText(m: { summary: string; tags: readonly string[]; body: string }): string {
  const parts = [m.summary.trim()];
  if (m.tags.length) parts.push(m.tags.join(', '));
  const body = m.body.trim();
  if (body) parts.push(body);
  const text = parts.join('\n');
  if (text.length <= EMBED_MAX_CHARS) return text;
  // Cut on a code point boundary.
  const cut = text.slice(0, EMBED_MAX_CHARS);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/** Identifies the embedded text: a stored vector is reused while this is unchanged. */
export function embeddingHash(m: { summary: string; tags: readonly string[]; body: string }): string {
  return sha1Hex(embeddingText(m)).slice(0, 16);
}

/**
 * Mean of the token vectors where the attention mask is 1, then scaled to unit
 * length (what sentence-transformers and transformers.js's feature-extraction
 * pipeline with `{ pooling: 'mean', normalize: true }` compute).
 * `hidden` is [batch, seq, dim] row-major; `mask` is [batch, seq].
 */
export function meanPool(hidden: ArrayLike<number>, mask: ArrayLike<number | bigint>, batch: number, seq: number, dim: number, normalize = true): Float32Array[] {
  const out: Float32Array[] = [];
  for (let b = 0; b < batch; b++) {
    const v = new Float32Array(dim);
    let count = 0;
    for (let s = 0; s < seq; s++) {
      if (Number(mask[b * seq + s]) === 0) continue;
      count++;
      const at = (b * seq + s) * dim;
      for (let d = 0; d < dim; d++) v[d]! += hidden[at + d]!;
    }
    if (count > 0) for (let d = 0; d < dim; d++) v[d]! /= count;
    if (normalize) normalizeInPlace(v);
    out.push(v);
  }
  return out;
}

export function normalizeInPlace(v: Float32Array): Float32Array {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i]! * v[i]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < v.length; i++) v[i]! /= norm;
  return v;
}

/** Cosine similarity; vectors of different lengths have none (0). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length || a.length === 0) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

export interface Ranked<T> {
  item: T;
  score: number;
}

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

/**
 * The `limit` items most similar to `query`, best first (cosine). Items
 * without a vector are skipped; ties keep the input order.
 */
export function rankBySimilarity<T>(query: Float32Array, items: readonly T[], vectorOf: (item: T) => Float32Array | undefined, limit: number): Ranked<T>[] {
  let qq = 0;
  for (let i = 0; i < query.length; i++) qq += query[i]! * query[i]!;
  const qNorm = Math.sqrt(qq);
  const scored: Array<Ranked<T> & { at: number }> = [];
  // One pass per vector for the dot product and its norm (this runs over every memory).
  for (let at = 0; at < items.length; at++) {
    const item = items[at]!;
    const v = vectorOf(item);
    if (!v) continue;
    let score = 0;
    if (v.length === query.length && qNorm > 0) {
      let dot = 0;
      let vv = 0;
      for (let i = 0; i < v.length; i++) {
        dot += query[i]! * v[i]!;
        vv += v[i]! * v[i]!;
      }
      score = vv > 0 ? dot / (qNorm * Math.sqrt(vv)) : 0;
    }
    scored.push({ item, score, at });
  }
  scored.sort((x, y) => y.score - x.score || x.at - y.at);
  return scored.slice(0, Math.max(0, limit)).map(({ item, score }) => ({ item, score }));
}

/** Float32 vectors as stored (little-endian bytes), and back. */
export function vectorToBytes(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length * 4);
  const view = new DataView(out.buffer);
  for (let i = 0; i < v.length; i++) view.setFloat32(i * 4, v[i]!, true);
  return out;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Reads the bytes as they are stored; on a little-endian machine an aligned array is viewed, not copied (the caller gives up `bytes`). */
export function bytesToVector(bytes: Uint8Array): Float32Array {
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0 && bytes.byteLength % 4 === 0) return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const out = new Float32Array(Math.floor(bytes.byteLength / 4));
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let i = 0; i < out.length; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

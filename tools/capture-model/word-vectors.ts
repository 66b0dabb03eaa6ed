/**
 * Word vectors learned without labels for the capture model (docs/capture.md,
 * "Fifth round"): skip-gram with negative sampling over the public text
 * tools/capture-model/w2v-text.ts writes, read as the shipped features read
 * words (capture-features.ts: placeholders, lowercase, Porter stems).
 * Deterministic: the same text and settings give the same vectors.
 *
 *   bun tools/capture-model/word-vectors.ts --text FILE --out FILE.json [--dim 32] [--epochs 1]
 *
 * VECTORS=FILE.json bun tools/capture-model/train.ts hashes them into the int8 table the binary holds (vectorTable).
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { statementWords, vectorHashOf } from '../../src/core/capture-features.ts';
import { vectorPlaces } from '../../src/core/capture-model.ts';
import { prng } from '../../test/helpers/prng.ts';
import { sig } from './metrics.ts';

export interface WordVectors {
  dim: number;
  /** The vocabulary, most frequent first (seen at least MIN_COUNT times). */
  words: string[];
  /** words.length × dim. */
  vectors: Float32Array;
}

const MIN_COUNT = 5;
const MAX_WORDS = 40_000;
const WINDOW = 5;
const NEGATIVES = 5;
const SUBSAMPLE = 1e-4;

/** Trailer lines (Signed-off-by: and the like) say nothing of the message. */
export function documentsOf(text: string): string[][] {
  const docs: string[][] = [];
  for (const doc of text.split('\x1e')) {
    const ws = statementWords(doc.split('\n').filter((l) => !/^\s*[\w-]+-by:/i.test(l)).join('\n'));
    if (ws.length > 2) docs.push(ws);
  }
  return docs;
}

/** Skip-gram with negative sampling: window 5 (a random 1-5 each word), 5 negatives from counts^0.75, frequent words subsampled. */
export function trainWordVectors(docs: readonly string[][], dim: number, epochs: number, seed = 64): WordVectors {
  const counts = new Map<string, number>();
  for (const d of docs) for (const w of d) counts.set(w, (counts.get(w) ?? 0) + 1);
  const vocab = [...counts].filter(([, c]) => c >= MIN_COUNT).sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, MAX_WORDS);
  const id = new Map(vocab.map(([w], i) => [w, i]));
  const total = vocab.reduce((a, [, c]) => a + c, 0);
  const V = vocab.length;
  const d = dim;
  const r = prng(seed);
  const inp = new Float32Array(V * d).map(() => (r() - 0.5) / d);
  const out = new Float32Array(V * d);
  const table = new Int32Array(5_000_000);
  {
    const pw = vocab.map(([, c]) => c ** 0.75);
    const sum = pw.reduce((a, x) => a + x, 0);
    let i = 0;
    let acc = pw[0]! / sum;
    for (let k = 0; k < table.length; k++) {
      table[k] = i;
      if (k / table.length > acc && i < V - 1) acc += pw[++i]! / sum;
    }
  }
  const keepP = vocab.map(([, c]) => Math.sqrt(SUBSAMPLE / (c / total)) + SUBSAMPLE / (c / total));
  const seqs = docs.map((ws) => Int32Array.from(ws.map((w) => id.get(w) ?? -1).filter((x) => x >= 0 && r() < keepP[x]!)));
  const steps = epochs * seqs.reduce((a, s) => a + s.length, 0);
  let done = 0;
  const grad = new Float32Array(d);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (const seq of seqs) {
      for (let i = 0; i < seq.length; i++) {
        const lr = Math.max(0.0001, 0.025 * (1 - done++ / steps));
        const b = 1 + Math.floor(r() * WINDOW);
        for (let j = Math.max(0, i - b); j < Math.min(seq.length, i + b + 1); j++) {
          if (j === i) continue;
          const ctx = seq[j]! * d;
          grad.fill(0);
          for (let n = 0; n <= NEGATIVES; n++) {
            const target = n === 0 ? seq[i]! : table[Math.floor(r() * table.length)]!;
            if (n > 0 && target === seq[i]) continue;
            const o = target * d;
            let z = 0;
            for (let q = 0; q < d; q++) z += inp[ctx + q]! * out[o + q]!;
            const g = lr * ((n === 0 ? 1 : 0) - sig(z));
            for (let q = 0; q < d; q++) {
              grad[q]! += g * out[o + q]!;
              out[o + q]! += g * inp[ctx + q]!;
            }
          }
          for (let q = 0; q < d; q++) inp[ctx + q]! += grad[q]!;
        }
      }
    }
  }
  console.error(`word vectors: ${V} words from ${docs.length} documents, ${steps} tokens after subsampling (${epochs} passes)`);
  return { dim, words: vocab.map(([w]) => w), vectors: inp };
}

/**
 * The vectors as the binary holds them (core/capture-model.ts, vectorPlaces):
 * 2^bits buckets, each word, most frequent first, in the first free of its two
 * buckets with its fingerprint (a word finding both taken has none), int8 with
 * one scale (which the unit-length pooling cancels).
 */
export function vectorTable(v: WordVectors, bits: number): { table: Int8Array; fingerprints: Uint16Array; owned: number } {
  const owner = new Int32Array(1 << bits).fill(-1);
  const fingerprints = new Uint16Array(1 << bits);
  v.words.forEach((w, i) => {
    const at = vectorPlaces(vectorHashOf(w), bits);
    const free = owner[at.first] === -1 ? at.first : owner[at.second] === -1 ? at.second : -1;
    if (free < 0) return;
    owner[free] = i;
    fingerprints[free] = at.fingerprint;
  });
  let max = 0;
  for (const i of owner) if (i >= 0) for (let q = 0; q < v.dim; q++) max = Math.max(max, Math.abs(v.vectors[i * v.dim + q]!));
  const table = new Int8Array((1 << bits) * v.dim);
  owner.forEach((i, b) => {
    if (i >= 0) for (let q = 0; q < v.dim; q++) table[b * v.dim + q] = Math.round((v.vectors[i * v.dim + q]! / max) * 127);
  });
  return { table, fingerprints, owned: owner.filter((i) => i >= 0).length };
}

/** Fingerprints as bytes, little-endian, as the binary reads them. */
export function fingerprintBytes(fingerprints: Uint16Array): Uint8Array {
  const out = new Uint8Array(2 * fingerprints.length);
  fingerprints.forEach((x, i) => {
    out[2 * i] = x & 0xff;
    out[2 * i + 1] = x >>> 8;
  });
  return out;
}

/** One word a line, most frequent first (JSON object keys would put words like "1" first). */
export function saveVectors(v: WordVectors, file: string): void {
  const rows = v.words.map((w, i) => `[${JSON.stringify(w)}, ${[...v.vectors.subarray(i * v.dim, (i + 1) * v.dim)].map((x) => Number(x.toFixed(5))).join(', ')}]`);
  fs.writeFileSync(file, `{"dim": ${v.dim}, "words": [\n${rows.join(',\n')}\n]}\n`);
}

export function loadVectors(file: string): WordVectors {
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { dim: number; words: Array<[string, ...number[]]> };
  return { dim: j.dim, words: j.words.map((row) => row[0]), vectors: Float32Array.from(j.words.flatMap((row) => row.slice(1) as number[])) };
}

if (import.meta.main) {
  const { values: o } = parseArgs({ options: { text: { type: 'string' }, out: { type: 'string' }, dim: { type: 'string', default: '32' }, epochs: { type: 'string', default: '1' } } });
  if (!o.text || !o.out) {
    console.error('word-vectors.ts: --text FILE (from w2v-text.ts) and --out FILE.json are required');
    process.exit(2);
  }
  saveVectors(trainWordVectors(documentsOf(fs.readFileSync(o.text, 'utf8')), Number(o.dim), Number(o.epochs)), o.out);
}

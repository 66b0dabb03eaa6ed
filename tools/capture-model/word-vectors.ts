/**
 * Word vectors learned without labels (docs/capture.md, "Fourth round" and
 * "Fifth round"): skip-gram with negative sampling over documents given as
 * their words (round4.ts reads them from the public text w2v-text.ts writes,
 * W2V_TEXT). Deterministic: the same documents and settings give the same
 * vectors. The model has no word vectors: round 5 was left out, and the code
 * that built them into the binary was removed after commit 608d180.
 */
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

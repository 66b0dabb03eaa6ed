// Issue 36: a flat scan of 100,000 stored vectors (384 dimensions) within a few ms.
// Run with bun (node_modules/.bin/bun test/bench/vector-scan.bench.ts [--sizes 10000,100000]).
// Measures, in process, on random unit vectors: reading the vector file (memory map, key split),
// ranking every row against a query (int8 below 20,000 rows, sign bits then int8 above; the best
// 4 × limit + 50 then scored again with the int16 residuals), and as the baseline in the same run,
// version 1's way: Float32 vectors, one cosine per row. The last columns compare the rankings with
// the Float32 one: the share of its top 10 found, and the queries whose top 50 (of all rows) comes
// in exactly its order.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { normalizeInPlace, type Ranked } from '../../src/core/search/embedding.ts';
import { StoredVectors, VectorStore } from '../../src/stores/index/vectors/vector-store.ts';
import { prng } from '../helpers/prng.ts';
import { median } from './median.ts';

/**
 * The baseline: the Float32 cosine scan the store did before int8 vectors. The `limit` items most similar to `query`, best first (cosine). Items
 * without a vector are skipped; ties keep the input order.
 */
function rankBySimilarity<T>(query: Float32Array, items: readonly T[], vectorOf: (item: T) => Float32Array | undefined, limit: number): Ranked<T>[] {
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

const { values } = parseArgs({ options: { sizes: { type: 'string', default: '10000,100000' }, dim: { type: 'string', default: '384' } } });
const DIM = Number(values.dim);
const random = prng(36);
const unit = () => normalizeInPlace(Float32Array.from({ length: DIM }, () => random() - 0.5));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-bench-scan-'));
process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }));

console.log(`vector scan: ${DIM} dimensions, random unit vectors, medians of in-process runs (${os.cpus().length} cores)`);
console.log('rows      file MB  (float32 MB)  read ms  rank 50 of candidates ms  rank stored ms  float32 scan ms  ratio  top-10 agreement  top-50 in Float32 order');
for (const n of values.sizes.split(',').map(Number)) {
  const vecs = Array.from({ length: n }, unit);
  const items = vecs.map((_, i) => ({ key: `${(i * 2654435761 % 2 ** 32).toString(16).padStart(8, '0')}${i.toString(16).padStart(8, '0')}`, hash: 'h'.repeat(16) }));
  const file = path.join(dir, `vectors-${n}.bin`);
  const store = new VectorStore(file);
  store.add('m', items.map((it, i) => ({ ...it, vec: vecs[i]! })));
  await store.persist('m');
  const queries = Array.from({ length: 9 }, unit);
  let q = 0;
  const readMs = median(9, () => void StoredVectors.parse(fs.readFileSync(file), 'm'), 2);
  const stored = (await new VectorStore(file).vectors('m'))!;
  // Against a candidate list (a recall that reads the SQLite index), and over the stored rows alone (every memory covered).
  const rankMs = median(9, () => void stored.rank(queries[q++ % queries.length]!, items, 50), 2);
  const storedMs = median(9, () => void stored.rankStored(queries[q++ % queries.length]!, 216), 2);
  const rowsOf = items.map((_, i) => i);
  const floatMs = median(5, () => void rankBySimilarity(queries[q++ % queries.length]!, rowsOf, (i) => vecs[i], 50), 1);
  let agree = 0;
  let sameOrder = 0;
  for (const query of queries) {
    const exact = rankBySimilarity(query, rowsOf, (i) => vecs[i], 50).map((r) => items[r.item]!.key);
    const top10 = new Set(exact.slice(0, 10));
    agree += stored.rank(query, items, 10).filter((r) => top10.has(r.item.key)).length;
    if (JSON.stringify(stored.rank(query, items, 50).map((r) => r.item.key)) === JSON.stringify(exact)) sameOrder++;
  }
  console.log(
    `${String(n).padEnd(10)}${(fs.statSync(file).size / 1e6).toFixed(1).padEnd(9)}${`(${((n * DIM * 4) / 1e6).toFixed(1)})`.padEnd(14)}${readMs.toFixed(1).padEnd(9)}${rankMs.toFixed(1).padEnd(26)}${storedMs.toFixed(1).padEnd(16)}${floatMs.toFixed(1).padEnd(17)}${`${(storedMs / floatMs).toPrecision(2)}x`.padEnd(7)}${(agree / (10 * queries.length)).toFixed(2).padEnd(18)}${sameOrder} of ${queries.length}`,
  );
}

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoredVectors, VectorStore } from '../../src/stores/index/vectors/vector-store.ts';
import { closestBySigns, quantize, scanBlock } from '../../src/core/search/quantized.ts';
import { cosine, normalizeInPlace } from '../../src/core/search/embedding.ts';
import { prng as seededRandom } from '../helpers/prng.ts';

const v = (...xs: number[]) => new Float32Array(xs);
const keys = async (s: VectorStore, model: string) => [...(await s.vectors(model)).entries()].map(([k, h]) => `${k}:${h}`).sort();

describe('vector store', () => {
  it('persists vectors by key and content hash, merges with other writers, and keeps one model', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-vectors-'));
    const file = path.join(dir, 'mem', 'vectors.bin');
    const a = new VectorStore(file);
    expect((await a.vectors('m1')).size).toBe(0);
    a.add('m1', [{ key: 'k1', hash: 'h1', vec: v(1, 2) }, { key: 'k2', hash: 'h2', vec: v(3, 4) }]);
    // Queued vectors are visible before they are written.
    expect(await keys(a, 'm1')).toEqual(['k1:h1', 'k2:h2']);
    expect(await a.persist('m1')).toBe(true);
    expect(await keys(new VectorStore(file), 'm1')).toEqual(['k1:h1', 'k2:h2']);

    // Another writer adds to the same file meanwhile; a's next write keeps it.
    const b = new VectorStore(file);
    b.add('m1', [{ key: 'k3', hash: 'h3', vec: v(0, 1) }]);
    await b.persist('m1');
    a.add('m1', [{ key: 'k1', hash: 'h1b', vec: v(5, 6) }]);
    await a.persist('m1');

    const c = new VectorStore(file);
    // A new hash of a key replaces the old one; int8 keeps the direction.
    expect(await keys(c, 'm1')).toEqual(['k1:h1b', 'k2:h2', 'k3:h3']);
    expect(cosine((await c.vectors('m1')).vector('k1')!, v(5, 6))).toBeGreaterThan(0.9999);

    // keep: vectors not among the current keys and hashes go.
    await c.persist('m1', new Map([['k2', 'h2'], ['k3', 'h3']]));
    expect(await keys(new VectorStore(file), 'm1')).toEqual(['k2:h2', 'k3:h3']);

    // Another model's vectors replace this one's (one model a file); this one's then read as none.
    const d = new VectorStore(file);
    d.add('m2', [{ key: 'k1', hash: 'h1', vec: v(9, 1) }]);
    await d.persist('m2');
    expect(await new VectorStore(file).count('m1')).toBe(0);
    expect(await new VectorStore(file).count('m2')).toBe(1);

    // A corrupt file, or version 1's SQLite file, is a cache miss, not an error, and the next write replaces it.
    for (const junk of ['garbage'.repeat(100), 'SQLite format 3\0'.padEnd(4096, '\0'), '']) {
      fs.writeFileSync(file, junk);
      const e = new VectorStore(file);
      expect((await e.vectors('m1')).size).toBe(0);
      e.add('m1', [{ key: 'k3', hash: 'h3', vec: v(1, 0) }]);
      await e.persist('m1');
      expect(await keys(new VectorStore(file), 'm1')).toEqual(['k3:h3']);
    }
    fs.rmSync(dir, { recursive: true });
  });

  it('stores a vector in a byte a dimension: the file is near count × dimension bytes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-vectors-'));
    const file = path.join(dir, 'vectors.bin');
    const s = new VectorStore(file);
    s.add('m', Array.from({ length: 500 }, (_, i) => ({ key: `key${i}`.padEnd(16, '0'), hash: 'h'.repeat(16), vec: new Float32Array(384).fill(i + 1) })));
    await s.persist('m');
    // 384 int8 + 48 bytes of sign bits + 4 of length + a text line of 34 bytes.
    expect(fs.statSync(file).size).toBeLessThan(500 * (384 + 48 + 4 + 34) + 200);
    fs.rmSync(dir, { recursive: true });
  });

  it('ranks by cosine as float vectors do, only where the hash matches', () => {
    const random = seededRandom(7);
    const unit = () => normalizeInPlace(Float32Array.from({ length: 384 }, () => random() - 0.5));
    const vecs = Array.from({ length: 300 }, unit);
    const items = vecs.map((_, i) => ({ key: `k${i}`, hash: 'h' }));
    const stored = StoredVectors.empty('m');
    vecs.forEach((x, i) => stored.set(items[i]!.key, 'h', x));
    const parsed = StoredVectors.parse(stored.serialize(), 'm')!;
    const query = unit();
    const exact = items.map((it, i) => ({ key: it.key, score: cosine(query, vecs[i]!) })).sort((x, y) => y.score - x.score);
    const got = parsed.rank(query, items, 10);
    expect(got.map((g) => g.item.key)).toEqual(exact.slice(0, 10).map((e) => e.key));
    for (const [i, g] of got.entries()) expect(Math.abs(g.score - exact[i]!.score)).toBeLessThan(0.01);
    // A changed text (another hash) has no vector.
    expect(parsed.rank(query, [{ key: exact[0]!.key, hash: 'other' }], 5)).toEqual([]);
  });

  it('above the exact-scan size, sign bits choose whom to score, and keep the nearest', () => {
    const random = seededRandom(11);
    const unit = () => normalizeInPlace(Float32Array.from({ length: 64 }, () => random() - 0.5));
    const n = 30_000;
    const data = new Int8Array(n * 64);
    const inv = new Float32Array(n);
    const bits = new Uint32Array(n * 2);
    const vecs: Float32Array[] = [];
    for (let r = 0; r < n; r++) {
      const x = unit();
      vecs.push(x);
      const q = quantize(x);
      data.set(q.q, r * 64);
      inv[r] = q.inv;
      bits.set(q.bits, r * 2);
    }
    const block = { dim: 64, data, inv, bits };
    const query = unit();
    const rows = Int32Array.from({ length: n }, (_, i) => i);
    expect(closestBySigns(query, block, rows, 2000)).toHaveLength(2000);
    const exact = vecs.map((x, i) => ({ i, s: cosine(query, x) })).sort((a, b) => b.s - a.s);
    const got = scanBlock(query, block, rows, 10);
    // The nearest few are found (random 64-dimensional vectors are the hard case for sign bits).
    expect(got.slice(0, 3).map((g) => g.at)).toEqual(exact.slice(0, 3).map((e) => e.i));
  });
});

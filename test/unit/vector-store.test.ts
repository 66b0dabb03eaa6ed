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

  it('stores a vector in three bytes a dimension (int8 and its int16 residual): the file is near 3 × count × dimension bytes', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-vectors-'));
    const file = path.join(dir, 'vectors.bin');
    const s = new VectorStore(file);
    s.add('m', Array.from({ length: 500 }, (_, i) => ({ key: `key${i}`.padEnd(16, '0'), hash: 'h'.repeat(16), vec: new Float32Array(384).fill(i + 1) })));
    await s.persist('m');
    // 384 int8 + 384 int16 residuals + 48 bytes of sign bits + 4 of length + a text line of 34 bytes.
    expect(fs.statSync(file).size).toBeLessThan(500 * (3 * 384 + 48 + 4 + 34) + 200);
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
    for (const [i, g] of got.entries()) expect(Math.abs(g.score - exact[i]!.score)).toBeLessThan(1e-4);
    // A changed text (another hash) has no vector.
    expect(parsed.rank(query, [{ key: exact[0]!.key, hash: 'other' }], 5)).toEqual([]);
  });

  it('ranks near-ties in the Float32 order, where int8 alone reorders them', () => {
    // Vectors a hair apart (less than an int8 step): their order is the residual's to keep.
    const random = seededRandom(36);
    const dim = 64;
    const unit = () => normalizeInPlace(Float32Array.from({ length: dim }, () => random() - 0.5));
    const query = unit();
    const base = unit();
    const vecs = Array.from({ length: 200 }, () => normalizeInPlace(base.map((x) => x + (random() - 0.5) * 0.01)));
    const items = vecs.map((_, i) => ({ key: `k${i}`, hash: 'h' }));
    const exact = items.map((it, i) => ({ key: it.key, score: cosine(query, vecs[i]!) })).sort((x, y) => y.score - x.score);
    const stored = StoredVectors.empty('m');
    vecs.forEach((x, i) => stored.set(items[i]!.key, 'h', x));
    const parsed = StoredVectors.parse(stored.serialize(), 'm')!;
    // int8 alone would not keep this order (the case the residual is for).
    const int8Order = vecs.map((x, i) => ({ key: items[i]!.key, score: cosine(query, Float32Array.from(quantize(x).q)) })).sort((x, y) => y.score - x.score);
    expect(int8Order.slice(0, 50).map((e) => e.key)).not.toEqual(exact.slice(0, 50).map((e) => e.key));
    // Read from the file, not yet written, and over the stored rows alone: the Float32 order every time.
    for (const ranked of [parsed.rank(query, items, 50).map((r) => r.item.key), stored.rank(query, items, 50).map((r) => r.item.key), parsed.rankStored(query, 50).map((r) => r.key)]) {
      expect(ranked).toEqual(exact.slice(0, 50).map((e) => e.key));
    }
    // The vector read back is the stored one (to a Float32's precision).
    expect(cosine(parsed.vector('k0')!, vecs[0]!)).toBeGreaterThan(1 - 1e-8);
  });

  it('a file of version 2 (int8 without residuals) reads as empty and is replaced by the next write', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-vectors-'));
    const file = path.join(dir, 'vectors.bin');
    const stored = StoredVectors.empty('m');
    stored.set('k1', 'h1', v(1, 2, 3, 4));
    stored.set('k2', 'h2', v(4, 3, 2, 1));
    // Version 2's layout: this one's less the residuals, with "version":"2" in its header.
    const bytes = Buffer.from(stored.serialize());
    const header = bytes.indexOf('"version":"3"');
    expect(header).toBeGreaterThan(0);
    bytes.write('"version":"2"', header, 'latin1');
    fs.writeFileSync(file, bytes.subarray(0, bytes.length - 2 * 2 * 4));
    expect(StoredVectors.parse(fs.readFileSync(file), 'm')).toBeNull();
    const s = new VectorStore(file);
    expect((await s.vectors('m')).size).toBe(0);
    s.add('m', [{ key: 'k3', hash: 'h3', vec: v(1, 1, 1, 1) }]);
    await s.persist('m');
    expect(await keys(new VectorStore(file), 'm')).toEqual(['k3:h3']);
    expect(fs.readFileSync(file).includes('"version":"3"')).toBe(true);
    fs.rmSync(dir, { recursive: true });
  });

  it('above the exact-scan size, sign bits choose whom to score, and keep the nearest', () => {
    const random = seededRandom(11);
    const unit = () => normalizeInPlace(Float32Array.from({ length: 64 }, () => random() - 0.5));
    const n = 30_000;
    const data = new Int8Array(n * 64);
    const fine = new Int16Array(n * 64);
    const inv = new Float32Array(n);
    const bits = new Uint32Array(n * 2);
    const vecs: Float32Array[] = [];
    for (let r = 0; r < n; r++) {
      const x = unit();
      vecs.push(x);
      const q = quantize(x);
      data.set(q.q, r * 64);
      fine.set(q.fine, r * 64);
      inv[r] = q.inv;
      bits.set(q.bits, r * 2);
    }
    const block = { dim: 64, data, fine, inv, bits };
    const query = unit();
    const rows = Int32Array.from({ length: n }, (_, i) => i);
    expect(closestBySigns(query, block, rows, 2000)).toHaveLength(2000);
    const exact = vecs.map((x, i) => ({ i, s: cosine(query, x) })).sort((a, b) => b.s - a.s);
    const got = scanBlock(query, block, rows, 10);
    // The nearest few are found (random 64-dimensional vectors are the hard case for sign bits).
    expect(got.slice(0, 3).map((g) => g.at)).toEqual(exact.slice(0, 3).map((e) => e.i));
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { VectorStore } from '../../src/stores/index/vectors/vector-store.ts';

const v = (...xs: number[]) => new Float32Array(xs);
const keys = async (s: VectorStore, model: string) => [...(await s.vectors(model))].map(([k, x]) => `${k}:${x.hash}`).sort();

describe('vector store', () => {
  it('persists vectors by model, key and content hash, and merges with other writers', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-vectors-'));
    const file = path.join(dir, 'mem', 'vectors.sqlite');
    const a = new VectorStore(file);
    expect((await a.vectors('m1')).size).toBe(0);
    a.add('m1', [{ key: 'k1', hash: 'h1', vec: v(1, 2) }, { key: 'k2', hash: 'h2', vec: v(3, 4) }]);
    // Queued vectors are visible before they are written.
    expect(await keys(a, 'm1')).toEqual(['k1:h1', 'k2:h2']);
    expect(await a.persist('m1')).toBe(true);
    expect(await keys(new VectorStore(file), 'm1')).toEqual(['k1:h1', 'k2:h2']);

    // Another writer adds to the same file meanwhile; a's next write keeps it.
    const b = new VectorStore(file);
    b.add('m2', [{ key: 'k1', hash: 'h1', vec: v(9) }]);
    await b.persist('m2');
    a.add('m1', [{ key: 'k1', hash: 'h1b', vec: v(5, 6) }]);
    await a.persist('m1');

    const c = new VectorStore(file);
    // A new hash of a key replaces the old one.
    expect(await keys(c, 'm1')).toEqual(['k1:h1b', 'k2:h2']);
    expect(Array.from((await c.vectors('m1')).get('k1')!.vec)).toEqual([5, 6]);
    expect(await c.count('m2')).toBe(1);

    // keep: vectors of this model not among the current keys and hashes go; other models stay.
    await c.persist('m1', new Map([['k2', 'h2']]));
    expect(await keys(new VectorStore(file), 'm1')).toEqual(['k2:h2']);
    expect(await new VectorStore(file).count('m2')).toBe(1);

    // A corrupt file is a cache miss, not an error, and the next write replaces it.
    fs.writeFileSync(file, 'garbage'.repeat(100));
    const e = new VectorStore(file);
    expect((await e.vectors('m1')).size).toBe(0);
    e.add('m1', [{ key: 'k3', hash: 'h3', vec: v(1) }]);
    await e.persist('m1');
    expect(await keys(new VectorStore(file), 'm1')).toEqual(['k3:h3']);
    fs.rmSync(dir, { recursive: true });
  });

  it('packs rows into 64 KiB pages: the file stays near the size of its vectors', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-vectors-'));
    const file = path.join(dir, 'vectors.sqlite');
    const s = new VectorStore(file);
    s.add('m', Array.from({ length: 500 }, (_, i) => ({ key: `key${i}`.padEnd(16, '0'), hash: 'h'.repeat(16), vec: new Float32Array(384).fill(i) })));
    await s.persist('m');
    const data = 500 * 384 * 4;
    // Beyond the data: a few pages for meta, the index and the tables' roots. (4 KiB pages made it about 3x the data.)
    expect(fs.statSync(file).size).toBeLessThan(data * 1.15 + 6 * 65536);
    fs.rmSync(dir, { recursive: true });
  });
});

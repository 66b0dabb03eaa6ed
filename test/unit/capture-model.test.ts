/**
 * The capture model's weights are checked, never silently replaced; its
 * scores are the same on every build (integer sums, a logistic function with
 * + - * / only); and the statements it is given are prose, not code or logs.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { vectorHashOf } from '../../src/core/capture-features.ts';
import { CaptureModel, captureModel, exactExp, MODEL_ROWS, pooledVector, sigmoid, vectorPlaces, type VectorPool, type WeightsTable, weightsDigest } from '../../src/core/capture-model.ts';
import { CAPTURE_WEIGHTS } from '../../src/core/capture-weights.ts';
import { statementsOf, summaryLine } from '../../src/core/statements.ts';
import { prng } from '../helpers/prng.ts';

describe('the weights', () => {
  it('the shipped table decodes and passes its checksum', () => {
    expect(() => new CaptureModel(CAPTURE_WEIGHTS)).not.toThrow();
  });

  it('a table without word vectors is digested as before they existed: the numbers, then the weights', () => {
    const t = CAPTURE_WEIGHTS as WeightsTable;
    expect(t.vectors).toBeUndefined();
    const header = JSON.stringify({ version: t.version, bits: t.bits, rows: t.rows, bias: t.bias, scale: t.scale, calibration: t.calibration });
    const digest = createHash('sha256').update(header).update(Buffer.from(t.weights.join(''), 'base64')).digest('hex');
    expect(digest).toBe(t.sha256);
  });

  it('a damaged table is an error, never a model that scores otherwise', () => {
    const lines = [...CAPTURE_WEIGHTS.weights];
    // One character changed in the middle of the weights.
    const i = lines.length >> 1;
    const line = lines[i]!;
    lines[i] = `${line.slice(0, 10)}${line[10] === 'A' ? 'B' : 'A'}${line.slice(11)}`;
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, weights: lines })).toThrow(/damaged/);
    // A chunk lost.
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, weights: CAPTURE_WEIGHTS.weights.slice(1) })).toThrow(/damaged/);
    // Numbers that score with the weights are covered by the checksum too.
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, bias: CAPTURE_WEIGHTS.bias.map((b, r) => (r === 0 ? b + 0.5 : b)) })).toThrow(/damaged/);
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, calibration: { a: CAPTURE_WEIGHTS.calibration.a, b: 3 } })).toThrow(/damaged/);
  });
});

/** The shipped table with word vectors: its own if it has them, else random ones for the words of `words` (and the digest that fits them). */
function withVectors(pool: VectorPool = 'mean+max'): WeightsTable {
  const shipped = CAPTURE_WEIGHTS as WeightsTable;
  if (shipped.vectors?.pool === pool) return shipped;
  const rand = prng(3);
  const [bits, dim] = [10, 8];
  const table = new Int8Array((1 << bits) * dim);
  const fingerprints = new Uint8Array(2 << bits);
  for (const w of ['we', 'switch', 'the', 'cach', 'becaus', 'memori', 'lru', 'work', 'set']) {
    const at = vectorPlaces(vectorHashOf(w), bits);
    const b = fingerprints[2 * at.first] === 0 && fingerprints[2 * at.first + 1] === 0 ? at.first : at.second;
    fingerprints[2 * b] = at.fingerprint & 0xff;
    fingerprints[2 * b + 1] = at.fingerprint >>> 8;
    for (let q = 0; q < dim; q++) table[b * dim + q] = Math.round((rand() - 0.5) * 254);
  }
  const width = pool === 'mean+max' ? 2 * dim : dim;
  const weights = MODEL_ROWS.map(() => Array.from({ length: width }, () => (rand() - 0.5) * 4));
  const { vectors: _, sha256: __, ...base } = shipped;
  const bytes = Buffer.concat([Buffer.from(base.weights.join(''), 'base64'), Buffer.from(table.buffer), fingerprints]);
  const chunks = (b: Uint8Array) => Buffer.from(b).toString('base64').match(/.{1,1000}/g)!;
  const vectors = { bits, dim, pool, weights, table: chunks(new Uint8Array(table.buffer)), fingerprints: chunks(fingerprints) };
  return { ...base, vectors, sha256: weightsDigest(new Uint8Array(bytes), { ...base, vectors }) };
}

describe('word vectors', () => {
  it('a table with word vectors passes its checksum, and they move the scores', () => {
    const text = 'We switched the cache to LRU because the working set no longer fits in memory.';
    for (const pool of ['mean', 'mean+max'] as const) {
      const t = withVectors(pool);
      const { vectors: _, ...plain } = t;
      const without = new CaptureModel({ ...plain, sha256: weightsDigest(new Uint8Array(Buffer.from(plain.weights.join(''), 'base64')), plain) });
      expect(new CaptureModel(t).score(text).score).not.toBe(without.score(text).score);
    }
  });

  it('a damaged vector table or vector weight is an error', () => {
    const t = withVectors();
    const v = t.vectors!;
    const lines = [...v.table];
    const i = lines.length >> 1;
    const line = lines[i]!;
    lines[i] = `${line.slice(0, 10)}${line[10] === 'A' ? 'B' : 'A'}${line.slice(11)}`;
    expect(() => new CaptureModel({ ...t, vectors: { ...v, table: lines } })).toThrow(/damaged/);
    expect(() => new CaptureModel({ ...t, vectors: { ...v, table: v.table.slice(1) } })).toThrow(/damaged/);
    const fps = [...v.fingerprints];
    const f = fps[0]!;
    fps[0] = `${f.slice(0, 4)}${f[4] === 'A' ? 'B' : 'A'}${f.slice(5)}`;
    expect(() => new CaptureModel({ ...t, vectors: { ...v, fingerprints: fps } })).toThrow(/damaged/);
    expect(() => new CaptureModel({ ...t, vectors: { ...v, weights: v.weights.map((row, r) => (r === 1 ? row.map((x, q) => (q === 0 ? x + 0.25 : x)) : row)) } })).toThrow(/damaged/);
    expect(() => new CaptureModel({ ...t, vectors: { ...v, pool: v.pool === 'mean' ? 'mean+max' : 'mean' } })).toThrow(/damaged/);
    // A pooling it does not know, even with a digest that fits it, is not read as the mean.
    const mean = withVectors('mean');
    const { sha256: _digest, ...unsigned } = { ...mean, vectors: { ...mean.vectors!, pool: 'max' as VectorPool } };
    const bytes = Buffer.concat([Buffer.from(mean.weights.join(''), 'base64'), Buffer.from(mean.vectors!.table.join(''), 'base64'), Buffer.from(mean.vectors!.fingerprints.join(''), 'base64')]);
    expect(() => new CaptureModel({ ...unsigned, sha256: weightsDigest(new Uint8Array(bytes), unsigned) })).toThrow(/damaged/);
    // Vectors dropped altogether: the digest covered them.
    const { vectors: _, ...plain } = t;
    expect(() => new CaptureModel(plain)).toThrow(/damaged/);
  });

  it('the pooled vector is exact: the same words in any order give the same numbers, unit length; words without a vector count for nothing', () => {
    const rand = prng(5);
    const [bits, dim] = [8, 4];
    const table = Int8Array.from({ length: (1 << bits) * dim }, () => Math.round((rand() - 0.5) * 254));
    const fingerprints = new Uint16Array(1 << bits);
    const hashes = Uint32Array.from({ length: 40 }, () => Math.floor(rand() * 2 ** 32));
    const placed: number[] = [];
    for (const h of hashes.subarray(0, 20)) {
      const at = vectorPlaces(h, bits);
      const free = fingerprints[at.first] === 0 ? at.first : fingerprints[at.second] === 0 ? at.second : -1;
      if (free < 0) continue;
      fingerprints[free] = at.fingerprint;
      placed.push(h);
    }
    const v = { bits, dim, pool: 'mean+max' as const, table, fingerprints };
    const words = Uint32Array.from({ length: 300 }, () => placed[Math.floor(rand() * placed.length)]!);
    const a = pooledVector(words, v)!;
    expect([...pooledVector(words.slice().reverse(), v)!]).toEqual([...a]);
    expect(Math.abs(a.subarray(0, dim).reduce((s, x) => s + x * x, 0) - 1)).toBeLessThan(1e-12);
    // Words of no bucket (hashes 20-39 were never placed, bar a chance fingerprint) add nothing.
    const strangers = hashes.subarray(20).filter((h) => {
      const at = vectorPlaces(h, bits);
      return fingerprints[at.first] !== at.fingerprint && fingerprints[at.second] !== at.fingerprint;
    });
    expect(strangers.length).toBeGreaterThan(10);
    expect(pooledVector(strangers, v)).toBeNull();
    expect([...pooledVector(Uint32Array.from([...words, ...strangers]), v)!]).toEqual([...a]);
    // The maximum of one word is that word's vector.
    const one = pooledVector(Uint32Array.of(placed[0]!), v)!;
    expect([...one.subarray(dim)]).toEqual([...one.subarray(0, dim)]);
  });
});

describe('deterministic scores', () => {
  it('exactExp agrees with Math.exp to the last few bits, using only + - * /', () => {
    const rand = prng(9);
    for (let i = 0; i < 5000; i++) {
      const x = (rand() - 0.5) * 80;
      expect(Math.abs(exactExp(x) - Math.exp(x)) / Math.exp(x)).toBeLessThan(1e-14);
    }
    expect(sigmoid(0)).toBe(0.5);
  });

  it('the same text scores the same in two model instances and twice in one', () => {
    const a = new CaptureModel(CAPTURE_WEIGHTS);
    const text = 'We switched the cache to LRU because the working set no longer fits in memory.';
    expect(a.score(text)).toEqual(captureModel().score(text));
    expect(a.score(text)).toEqual(a.score(text));
  });
});

describe('statements', () => {
  it('leaves out code blocks, tables, logs, quotes and struck text; a lead-in takes its list', () => {
    const text = [
      'We moved the index to the common dir because worktrees share it.',
      '',
      '```ts',
      'const decided = true;',
      '```',
      '```',
      'We decided to use sql.js because it needs no native build (prose inside a fence is still code).',
      '```',
      '',
      '| id | status |',
      '| --- | --- |',
      '| BR-2 | done |',
      '',
      '2026-01-02 10:00:01 ERROR blocked by lock',
      '> We decided to drop Python 3.7.',
      '',
      'The fix is:',
      '- release the lock after the write',
      '- retry once on conflict',
      '',
      '~~Blocked by CI.~~ CI works again.',
    ].join('\n');
    const found = statementsOf(text).map((s) => s.text);
    expect(found).toEqual([
      'We moved the index to the common dir because worktrees share it.',
      'The fix is:\n- release the lock after the write\n- retry once on conflict',
      'CI works again.',
    ]);
  });

  it('a summary line is cut at a word, and a lead-in is joined to what it introduces', () => {
    const long = `Use ${'many '.repeat(30)}words here.`;
    const line = summaryLine(long, '');
    expect([...line].length).toBeLessThanOrEqual(100);
    expect(line.endsWith('many…')).toBe(true);
    expect(summaryLine('The fix is:', '- release the lock after the write')).toBe('The fix is: release the lock after the write');
  });
});

import { describe, expect, it } from 'vitest';
import { cosine, EMBED_MAX_CHARS, embeddingHash, embeddingText, meanPool, normalizeInPlace } from '../../src/core/search/embedding.ts';

describe('embedding text', () => {
  it('is the summary, the tags, then the body, cut at EMBED_MAX_CHARS', () => {
    expect(embeddingText({ summary: 'Use sql.js', tags: ['db', 'wasm'], body: 'No native modules.\n' })).toBe('Use sql.js\ndb, wasm\nNo native modules.');
    expect(embeddingText({ summary: 'Only a summary', tags: [], body: '  ' })).toBe('Only a summary');
    const long = embeddingText({ summary: 's', tags: [], body: 'x'.repeat(5000) });
    expect(long).toHaveLength(EMBED_MAX_CHARS);
    // Never half a surrogate pair.
    const emoji = embeddingText({ summary: 'e', tags: [], body: '😀'.repeat(1000) });
    expect(emoji.length).toBeLessThanOrEqual(EMBED_MAX_CHARS);
    expect(/[\uD800-\uDBFF]$/.test(emoji)).toBe(false);
  });

  it('hashes what is embedded: metadata outside the text does not change it', () => {
    const m = { summary: 'Use sql.js', tags: ['db'], body: 'b', status: 'active' };
    const resolved = { ...m, status: 'resolved' };
    expect(embeddingHash(m)).toBe(embeddingHash(resolved));
    expect(embeddingHash(m)).not.toBe(embeddingHash({ ...m, body: 'c' }));
    expect(embeddingHash(m)).toMatch(/^[0-9a-f]{16}$/);
  });
});

describe('vectors', () => {
  it('mean-pools over the attention mask and normalises', () => {
    // batch 2, seq 3, dim 2; the second text's last token is padding.
    const hidden = [1, 0, 3, 0, 5, 0, 0, 2, 0, 4, 9, 9];
    const mask = [1n, 1n, 1n, 1n, 1n, 0n];
    const raw = meanPool(hidden, mask, 2, 3, 2, false);
    expect(Array.from(raw[0]!)).toEqual([3, 0]);
    expect(Array.from(raw[1]!)).toEqual([0, 3]);
    const unit = meanPool(hidden, mask, 2, 3, 2);
    expect(Array.from(unit[1]!)).toEqual([0, 1]);
    expect(Array.from(meanPool([7, 7], [0], 1, 1, 2)[0]!)).toEqual([0, 0]);
  });

  it('computes cosine similarity', () => {
    const a = new Float32Array([1, 0]);
    expect(cosine(a, new Float32Array([2, 0]))).toBeCloseTo(1);
    expect(cosine(a, new Float32Array([0, 3]))).toBeCloseTo(0);
    expect(cosine(a, new Float32Array([-1, 0]))).toBeCloseTo(-1);
    expect(cosine(a, new Float32Array([1, 0, 0]))).toBe(0);
    expect(cosine(a, new Float32Array([0, 0]))).toBe(0);
    expect(Array.from(normalizeInPlace(new Float32Array([3, 4])))).toEqual([expect.closeTo(0.6), expect.closeTo(0.8)]);
  });
});

import { describe, expect, it } from 'vitest';
import { maxFusedScore, reciprocalRankFusion, RRF_K } from '../../src/core/search/fusion.ts';

const id = (s: string) => s;

describe('reciprocal rank fusion', () => {
  it('sums 1 / (k + rank) over the lists, with k = 60 by default', () => {
    expect(RRF_K).toBe(60);
    const fused = reciprocalRankFusion([['a', 'b', 'c'], ['c', 'a']], id);
    expect(fused.map((f) => f.item)).toEqual(['a', 'c', 'b']);
    expect(fused[0]!.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[2]!.score).toBeCloseTo(1 / 62, 12);
    expect(fused.map((f) => f.ranks)).toEqual([[1, 2], [3, 1], [2, null]]);
  });

  it('rewards agreement: an item second in both lists beats one first in only one', () => {
    const fused = reciprocalRankFusion([['x', 'both'], ['y', 'both']], id);
    expect(fused[0]!.item).toBe('both');
  });

  it('breaks ties by best single rank, then by list order, deterministically', () => {
    // a and b: each first in one list; a's list comes first.
    expect(reciprocalRankFusion([['a'], ['b']], id).map((f) => f.item)).toEqual(['a', 'b']);
    expect(reciprocalRankFusion([['b'], ['a']], id).map((f) => f.item)).toEqual(['b', 'a']);
    // Same score (1/61 + 1/64 vs 1/62 + 1/63 differ slightly), so check a real tie: [p, q] and [q, p].
    expect(reciprocalRankFusion([['p', 'q'], ['q', 'p']], id).map((f) => f.item)).toEqual(['p', 'q']);
  });

  it('counts an item repeated within one list once, at its best rank', () => {
    const fused = reciprocalRankFusion([['a', 'a', 'b']], id);
    expect(fused.map((f) => [f.item, f.ranks[0]])).toEqual([['a', 1], ['b', 3]]);
    expect(fused[0]!.score).toBeCloseTo(1 / 61, 12);
  });

  it('fuses by key and keeps the first item seen for it', () => {
    const fused = reciprocalRankFusion([[{ k: '1', from: 'lexical' }], [{ k: '1', from: 'semantic' }]], (x) => x.k);
    expect(fused).toHaveLength(1);
    expect(fused[0]!.item.from).toBe('lexical');
  });

  it('multiplies the votes of each list by its weight', () => {
    // Equal weights: a tie (1/61 + 1/62 each), broken by list order.
    expect(reciprocalRankFusion([['a', 'b'], ['b', 'a']], id).map((f) => f.item)).toEqual(['a', 'b']);
    expect(reciprocalRankFusion([['a', 'b'], ['b', 'a']], id, RRF_K, [1, 1]).map((f) => f.item)).toEqual(['a', 'b']);
    // The second list weighs twice: its first item wins.
    const fused = reciprocalRankFusion([['a', 'b'], ['b', 'a']], id, RRF_K, [1, 2]);
    expect(fused.map((f) => f.item)).toEqual(['b', 'a']);
    expect(fused[0]!.score).toBeCloseTo(1 / 62 + 2 / 61, 12);
    expect(fused[1]!.score).toBeCloseTo(1 / 61 + 2 / 62, 12);
    // Weight 0: the list still records ranks but adds nothing.
    const lexicalOnly = reciprocalRankFusion([['x', 'y'], ['y', 'z']], id, 10, [1, 0]);
    expect(lexicalOnly.map((f) => [f.item, f.score])).toEqual([['x', 1 / 11], ['y', 1 / 12], ['z', 0]]);
    expect(lexicalOnly[1]!.ranks).toEqual([2, 1]);
  });

  it('rejects weights that are not one non-negative number per list', () => {
    expect(() => reciprocalRankFusion([['a'], ['b']], id, RRF_K, [1])).toThrow(RangeError);
    expect(() => reciprocalRankFusion([['a'], ['b']], id, RRF_K, [1, -1])).toThrow(RangeError);
    expect(() => reciprocalRankFusion([['a'], ['b']], id, RRF_K, [1, Number.NaN])).toThrow(RangeError);
  });

  it('handles empty lists, other k, and normalises by the maximum', () => {
    expect(reciprocalRankFusion([], id)).toEqual([]);
    expect(reciprocalRankFusion([[], []], id)).toEqual([]);
    expect(reciprocalRankFusion([['a']], id, 0)[0]!.score).toBe(1);
    expect(() => reciprocalRankFusion([['a']], id, -1)).toThrow(RangeError);
    const top = reciprocalRankFusion([['a'], ['a']], id)[0]!;
    expect(top.score / maxFusedScore(2)).toBeCloseTo(1, 12);
  });
});

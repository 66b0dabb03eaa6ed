/**
 * Reciprocal rank fusion (Cormack, Clarke and Büttcher, 2009): each list
 * votes 1 / (k + rank) for the items it ranks (rank counted from 1); items are
 * ordered by the sum of their votes. Only ranks are used, so BM25 scores and
 * cosine similarities, which live on unrelated scales, fuse without tuning.
 * k = 60 is the value of the paper and of most hybrid search engines.
 */
export const RRF_K = 60;

export interface Fused<T> {
  item: T;
  /** Sum of weight / (k + rank) over the lists that hold the item (each list's weight 1 unless given). */
  score: number;
  /** The item's rank (from 1) in each list, or null where it is absent. */
  ranks: Array<number | null>;
}

/**
 * Fuses ranked lists (best first) of items identified by `keyOf`. Ties are
 * broken by the best single rank, then by the order of the lists (an item of
 * the first list first), so the result is deterministic. An item repeated
 * within one list counts at its first (best) rank. `weights`, one per list
 * (default all 1), multiply each list's votes (weighted RRF); recall uses
 * equal weights (docs/semantic.md, "Ranking and fusion", says why).
 */
export function reciprocalRankFusion<T>(
  lists: readonly (readonly T[])[],
  keyOf: (item: T) => string,
  k: number = RRF_K,
  weights?: readonly number[],
): Fused<T>[] {
  if (!(k >= 0)) throw new RangeError(`k must be >= 0, got ${k}`);
  if (weights && (weights.length !== lists.length || !weights.every((w) => w >= 0 && Number.isFinite(w)))) {
    throw new RangeError(`weights must be ${lists.length} finite numbers >= 0, got [${weights.join(', ')}]`);
  }
  const byKey = new Map<string, Fused<T> & { first: number }>();
  let seen = 0;
  lists.forEach((list, li) => {
    list.forEach((item, i) => {
      const key = keyOf(item);
      let entry = byKey.get(key);
      if (!entry) {
        entry = { item, score: 0, ranks: lists.map(() => null), first: seen++ };
        byKey.set(key, entry);
      }
      if (entry.ranks[li] !== null) return;
      entry.ranks[li] = i + 1;
      entry.score += (weights?.[li] ?? 1) / (k + i + 1);
    });
  });
  const bestRank = (f: Fused<T>) => Math.min(...f.ranks.map((r) => r ?? Infinity));
  return [...byKey.values()]
    .sort((a, b) => b.score - a.score || bestRank(a) - bestRank(b) || a.first - b.first)
    .map(({ item, score, ranks }) => ({ item, score, ranks }));
}

/** The largest score RRF can give with `lists` lists: ranked first in all of them. Dividing by it maps scores into (0, 1]. */
export function maxFusedScore(lists: number, k: number = RRF_K): number {
  return lists / (k + 1);
}

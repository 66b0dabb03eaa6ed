/** The relevance floor, pure: what the hooks leave out because it matches too little beside the best hit. */
/**
 * The lowest score a hit needs to be injected unasked: `floor` times the best (hits come best
 * first). Lexical scores have no absolute scale, so the floor is relative; nothing beats noise.
 * A single hit needs only to match. `floor` is asked only when there are two hits or more
 * (reading it may cost a git process).
 */
export function floorScore(hits: readonly { score: number }[], floor: () => number): number {
  if (hits.length < 2) return Number.MIN_VALUE;
  const best = hits[0]!.score;
  return best > 0 ? best * floor() : Infinity;
}

/** The hits worth injecting unasked: those scoring at least floorScore. */
export function aboveFloor<T extends { score: number }>(hits: readonly T[], floor: () => number): T[] {
  const min = floorScore(hits, floor);
  return hits.filter((h) => h.score >= min);
}

/**
 * The connection graph of one namespace's memories, pure: two memories are
 * connected when one links to the other (relates_to, consolidates, supersedes)
 * or when their words are similar at or above the threshold, whether or not a
 * link was made at capture (a capture links only to what the index held then).
 * Consolidation groups memories by it; aging spares the connected.
 */
import { linkedPairs } from './links.ts';
import type { Memory } from './memory.ts';
import { contentTerms, similarPairs } from './similarity.ts';

export interface ConnectionGraph {
  /** For each memory (by position), its neighbours by position, with the similarity (1 for a stored link). */
  neighbours: Array<Map<number, number>>;
}

export function connectionGraph(memories: readonly Memory[], threshold: number): ConnectionGraph {
  const neighbours = memories.map(() => new Map<number, number>());
  const join = (a: number, b: number, w: number) => {
    neighbours[a]!.set(b, Math.max(w, neighbours[a]!.get(b) ?? 0));
    neighbours[b]!.set(a, Math.max(w, neighbours[b]!.get(a) ?? 0));
  };
  for (const [a, b] of linkedPairs(memories)) join(a, b, 1);
  if (threshold <= 1) for (const p of similarPairs(memories.map(contentTerms), threshold)) join(p.a, p.b, p.similarity);
  return { neighbours };
}

/**
 * Groups for consolidation, each a hub and its direct neighbours (so every
 * member is close to the one whose summary the group takes, and a chain of
 * loosely similar memories never becomes one group). Greedy and deterministic:
 * the hub with the most unassigned neighbours first (ties: the strongest ties,
 * then the earlier position); groups smaller than `minSize` are not formed.
 */
export function hubGroups(graph: ConnectionGraph, minSize: number): number[][] {
  const n = graph.neighbours.length;
  const taken = new Uint8Array(n);
  const groups: number[][] = [];
  for (;;) {
    let hub = -1;
    let best: number[] = [];
    let bestWeight = 0;
    for (let i = 0; i < n; i++) {
      if (taken[i]) continue;
      const free = [...graph.neighbours[i]!.keys()].filter((j) => !taken[j]);
      if (free.length + 1 < minSize || free.length < best.length) continue;
      const weight = free.reduce((s, j) => s + graph.neighbours[i]!.get(j)!, 0);
      if (free.length > best.length || weight > bestWeight) {
        hub = i;
        best = free;
        bestWeight = weight;
      }
    }
    if (hub < 0) return groups;
    const group = [hub, ...best].sort((a, b) => a - b);
    for (const i of group) taken[i] = 1;
    groups.push(group);
  }
}

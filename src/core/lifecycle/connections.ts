/**
 * The connection graph of one namespace's memories, pure: two memories are
 * connected when one links to the other (relates_to, consolidates, supersedes)
 * or when their words are similar at or above the threshold, whether or not a
 * link was made at capture (a capture links only to what the index held then).
 * A threshold of 1 leaves words out: stored links only.
 * Consolidation groups memories by it; aging spares the connected.
 */
import { linkedPairs } from './links.ts';
import type { Memory } from '../memory.ts';
import { contentTerms, similarPairs } from '../search/similarity.ts';

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
  if (threshold < 1) for (const p of similarPairs(memories.map(contentTerms), threshold)) join(p.a, p.b, p.similarity);
  return { neighbours };
}

/**
 * Groups for consolidation, each a hub and its direct neighbours (so every
 * member is close to the hub, whose summary the group takes, and a chain of
 * loosely similar memories never becomes one group). Greedy, one pass and
 * deterministic: hubs are taken by degree (ties: the stronger ties, then the
 * earlier position), each with its neighbours not yet in a group; a group
 * smaller than `minSize` is not formed.
 */
export function hubGroups(graph: ConnectionGraph, minSize: number): Array<{ hub: number; members: number[] }> {
  const n = graph.neighbours.length;
  const weight = graph.neighbours.map((m) => [...m.values()].reduce((s, w) => s + w, 0));
  const order = Array.from({ length: n }, (_, i) => i)
    .filter((i) => graph.neighbours[i]!.size + 1 >= minSize)
    .sort((a, b) => graph.neighbours[b]!.size - graph.neighbours[a]!.size || weight[b]! - weight[a]! || a - b);
  const taken = new Uint8Array(n);
  const groups: Array<{ hub: number; members: number[] }> = [];
  for (const hub of order) {
    if (taken[hub]) continue;
    const free = [...graph.neighbours[hub]!.keys()].filter((j) => !taken[j]);
    if (free.length + 1 < minSize) continue;
    const members = [hub, ...free].sort((a, b) => a - b);
    for (const i of members) taken[i] = 1;
    groups.push({ hub, members });
  }
  return groups;
}

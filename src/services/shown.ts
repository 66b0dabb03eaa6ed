/**
 * Memories as shown: the one step every surface (the CLI, the hooks, MCP, the
 * UI) takes between finding memories and printing them. It adds what a view
 * of a memory says beside its text (whether its files changed since, where
 * its commit stands, who brought it and whether the policy trusts it), and
 * counts a use when the memories answer a question (gc keeps memories in
 * use). Agents are given only what the trust policy lets through
 * (`forAgent`); the rest is counted for a person to review.
 */
import type { Reach } from '../core/history/anchor.ts';
import type { Memory } from '../core/memory.ts';
import type { Stale } from '../core/history/staleness.ts';
import { placementsOf } from './history/anchors.ts';
import type { Deps } from './deps.ts';
import { stalenessOf } from './history/staleness.ts';
import { injectable, type TrustView, trustOf } from './trust/trust.ts';
import { countUses } from './usage.ts';

/** What this file's services use. */
export type ShownDeps = Pick<Deps, 'repo' | 'notes' | 'settings'>;

/** What a view adds to each memory; each part only when asked for (each costs git or cache reads). */
export interface ShowParts {
  /** Count a use of each (recall and hydrate do; a listing does not). */
  uses?: boolean;
  /** Whether its files changed since its commit (services/history/staleness.ts). */
  staleness?: boolean;
  /** Where its commit stands: on HEAD's history, another branch, or gone (services/history/anchors.ts). */
  reach?: boolean;
  /** Who brought it and whether the trust policy trusts it (services/trust/trust.ts). */
  trust?: boolean;
}

export interface Shown {
  memory: Memory;
  /** null: fresh; undefined: not asked, or not measured (no files, not on a branch). */
  stale?: Stale | null;
  reach?: Reach;
  trust?: TrustView;
}

/** Each memory, in order, with the parts asked for. */
export function asShown(ctx: ShownDeps, memories: readonly Memory[], parts: ShowParts): Shown[] {
  if (parts.uses) countUses(ctx, memories);
  // Placed first: staleness places the same commits and finds them in the cache.
  const placed = parts.reach ? placementsOf(ctx.repo, memories.map((m) => m.object)) : null;
  const stale = parts.staleness ? stalenessOf(ctx.repo, memories) : null;
  const trust = parts.trust ? trustOf(ctx, memories) : null;
  return memories.map((memory) => ({
    memory,
    ...(stale ? { stale: stale.get(memory.key) } : {}),
    ...(placed ? { reach: placed.get(memory.object)?.reach ?? 'missing' } : {}),
    ...(trust ? { trust: trust.get(memory.key) } : {}),
  }));
}

/** What an agent is given: the memories the trust policy lets through (with git's author), shown with their staleness; `held` counts the others. */
export function forAgent(ctx: ShownDeps, memories: readonly Memory[], parts: Pick<ShowParts, 'uses'> = {}): { shown: Shown[]; held: number } {
  const given = injectable(ctx, memories);
  return { shown: asShown(ctx, given, { ...parts, staleness: true }), held: memories.length - given.length };
}

/** key → staleness of the shown memories, as core/memory-context.ts takes it. */
export function stalenessMap(shown: readonly Shown[]): Map<string, Stale | null> {
  return new Map(shown.flatMap((s) => (s.stale !== undefined ? [[s.memory.key, s.stale] as const] : [])));
}

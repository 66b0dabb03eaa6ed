/**
 * Anchors: a memory can have copies on several commits (git copied its note
 * through an amend or a rebase, a teammate pushed one, it was cherry-picked or
 * reanchored). Its anchor is the copy shown and hydrated: the one on a commit
 * HEAD reaches, else a local branch, else a remote-tracking branch, else the
 * newest commit that still exists; ties go to the smaller object id, so every
 * clone with the same refs picks the same copy.
 */

/** Where a commit stands, best first. */
export const REACHES = ['head', 'branch', 'remote', 'tag', 'unreachable', 'not-a-commit', 'missing'] as const;
export type Reach = (typeof REACHES)[number];

export interface Placement {
  object: string;
  reach: Reach;
  /** Committer time in seconds (0 when unknown). */
  time: number;
}

/** HEAD, branches and remote-tracking branches rank in that order; past them, the newest existing commit wins. */
function tier(reach: Reach): number {
  switch (reach) {
    case 'head':
      return 0;
    case 'branch':
      return 1;
    case 'remote':
      return 2;
    case 'missing':
      return 4;
    default:
      return 3;
  }
}

export function pickAnchor(placements: readonly Placement[]): Placement | undefined {
  let best: Placement | undefined;
  for (const p of placements) {
    if (!best) best = p;
    else {
      const byTier = tier(p.reach) - tier(best.reach);
      if (byTier < 0 || (byTier === 0 && (p.time > best.time || (p.time === best.time && p.object < best.object)))) best = p;
    }
  }
  return best;
}

/**
 * A commit that no branch, remote-tracking branch, tag or HEAD reaches (or that
 * is gone): gc will drop it, and `git notes prune` the notes on it.
 */
export function isOrphan(reach: Reach): boolean {
  return reach === 'unreachable' || reach === 'missing';
}

/** On HEAD's history (or not a commit at all, like the empty tree of a repository without commits). */
export function onHeadHistory(reach: Reach): boolean {
  return reach === 'head' || reach === 'not-a-commit';
}

/**
 * How much a recall score keeps by where the memory's commit stands: a
 * little less off HEAD's history, a little less again on no branch; enough
 * to order equal matches, never to hide one.
 */
export function reachWeight(reach: Reach): number {
  if (onHeadHistory(reach)) return 1;
  if (reach === 'branch' || reach === 'remote') return 0.97;
  return 0.94;
}

/** A word for a memory off HEAD's history, or '' on it. */
export function reachLabel(reach: Reach): string {
  if (onHeadHistory(reach)) return '';
  if (reach === 'branch' || reach === 'remote' || reach === 'tag') return 'unmerged';
  return 'on no branch';
}

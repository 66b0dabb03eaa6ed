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

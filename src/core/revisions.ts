/** Which revision of a memory is current, when several exist (clones, rebased copies) and some were forgotten. */
import { compareRevisions, revisionTime } from './memory.ts';

export interface Revision {
  updated: string;
  tiebreak: string;
}

/**
 * Index of the winning revision, or -1 when a tombstone at least as new as every
 * revision hides the memory. Deterministic, so every clone agrees.
 */
export function currentRevision(revisions: readonly Revision[], tombstones: ReadonlyArray<{ updated: string }>): number {
  let best = -1;
  revisions.forEach((r, i) => {
    if (best < 0 || compareRevisions(r, revisions[best]!) > 0) best = i;
  });
  if (best < 0) return -1;
  const winner = revisionTime(revisions[best]!.updated);
  return tombstones.some((t) => revisionTime(t.updated) >= winner) ? -1 : best;
}

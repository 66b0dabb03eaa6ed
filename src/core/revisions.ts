/**
 * The one rule for which revision of a memory is current, when several exist
 * (clones, copies on rewritten commits) and some were forgotten: the newest
 * revision (later `updated`, then the larger tie-break, a hash of its text, so
 * every clone picks the same), unless a tombstone at least as new hides it.
 * The merge (core/merge.ts) and the index (stores/index) both decide by it.
 */
import { sha1Hex } from './hash.ts';
import { compareRevisions, revisionTime } from './memory.ts';

export interface Revision {
  updated: string;
  tiebreak: string;
}

/** The tie-break of a document: a hash of its text. */
export function tiebreakOf(raw: string): string {
  return sha1Hex(raw);
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

/** The newest of some revisions (by the same rule), or -1 when there are none. */
export function newestRevision(revisions: readonly Revision[]): number {
  return currentRevision(revisions, []);
}

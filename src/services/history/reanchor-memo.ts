/**
 * The last reanchor run that wrote nothing, remembered with digests of what
 * its answer depends on: HEAD and every branch, remote-tracking branch and
 * tag (placements, candidates), and the notes tips (the memories). The
 * post-merge and post-rewrite hooks and `git mem pull` run reanchor often,
 * and mostly nothing has moved since: then a run reads two ref lists and
 * this file, checks that the commits it left memories on still exist or are
 * still gone (gc prunes without moving a ref), and says the same again. No
 * index, no sql.js, no walk: milliseconds. When only the refs moved, the
 * notes are as that run left them: if it found no memory on an orphaned
 * commit and the refs still reach its tips, none is now (services/history/reanchor.ts
 * asks git that, else places the notes' commits without the index). A cache:
 * unreadable or stale, the run does the work.
 */
import { createHash } from 'node:crypto';
import { JsonFile } from '../../stores/cache/json-file.ts';
import { objectTypes } from '../../stores/git/objects.ts';
import { refTips } from '../../stores/git/ref-tips.ts';
import type { Deps } from '../deps.ts';

/** A memory a run left where it is. */
export interface LeftBehind {
  id: string;
  namespace: string;
  key: string;
  objects: string[];
}

export interface MissingLeft extends LeftBehind {
  /** Captured by this clone's user: the commit was most likely here and pruned (else a teammate's, maybe not fetched yet). */
  mine: boolean;
  /** This clone held the commit (stores/cache/held-log.ts) and gc pruned it: what its memories recorded of it was matched, in vain. Else it may never have been fetched. */
  pruned: boolean;
}

type MemoDeps = Pick<Deps, 'notes' | 'repo' | 'settings'>;

/** Bump when what a run reports changes shape or meaning. */
const VERSION = 2;

interface Memo {
  /** A digest of HEAD and every branch, remote-tracking branch and tag (stores/git/ref-tips.ts). */
  refs: string;
  /** A digest of the notes tips. */
  notes: string;
  /** The user `missing[].mine` was decided for (kept only when some memory is missing). */
  author?: string;
  /** Every commit a memory was left on: whether it existed. */
  exists: Record<string, boolean>;
  unmatched: LeftBehind[];
  missing: MissingLeft[];
  /**
   * When no memory sat on an orphaned commit: HEAD's and the refs' tips then.
   * While the notes stay put and the refs still reach these, that holds.
   */
  tips?: string[];
}

export interface Remembered {
  unmatched: LeftBehind[];
  missing: MissingLeft[];
}

/** What a run's answer depends on: two `for-each-ref`s. */
export interface RunState {
  refs: string;
  notes: string;
  /** Namespace → notes tip, as read for `notes`. */
  tips: Map<string, string>;
  /** HEAD's and the refs' tips, read with `refs` (before the run looks, so a ref moved meanwhile is not taken as looked at). */
  refTips: string[];
}

export function runState(ctx: MemoDeps): RunState {
  const tips = ctx.notes.tips();
  const lines = [...tips].sort(([a], [b]) => (a < b ? -1 : 1)).map(([ns, oid]) => `${ns} ${oid}`);
  const refs = refTips(ctx.repo);
  return { refs: refs.digest, refTips: refs.tips, notes: createHash('sha1').update(`${VERSION}\n${lines.join('\n')}`).digest('hex'), tips };
}

/** The last run that wrote nothing, if one is kept and readable. */
function memoFile(ctx: MemoDeps): JsonFile<Memo> {
  return new JsonFile<Memo>(ctx.repo.mem, 'reanchor', VERSION, (m) => Array.isArray(m.unmatched) && Array.isArray(m.missing) && typeof m.exists === 'object');
}

export function lastRun(ctx: MemoDeps): Memo | undefined {
  return memoFile(ctx).read() ?? undefined;
}

function leftOn(memo: Remembered): string[] {
  return [...new Set([...memo.unmatched, ...memo.missing].flatMap((m) => m.objects))];
}

/** What the last run left behind, when it ran under this state and its commits are as it found them. */
export function recallRun(ctx: MemoDeps, memo: Memo, state: RunState): Remembered | undefined {
  if (memo.refs !== state.refs || memo.notes !== state.notes) return undefined;
  if (memo.missing.length && memo.author !== ctx.settings.author) return undefined;
  const objects = leftOn(memo);
  const types = objectTypes(ctx.repo, objects);
  // A commit pruned since (or fetched since without moving a ref) changes what is reported about its memories.
  if (objects.some((o) => types.has(o) !== memo.exists[o])) return undefined;
  return { unmatched: memo.unmatched, missing: memo.missing };
}

/**
 * Remembers a run that wrote nothing: its answer is then what any run under
 * the same state says. `exists`: whether the run found each commit (from its
 * placements, not read again: a gc in between would be missed).
 */
export function rememberRun(ctx: MemoDeps, state: RunState, left: Remembered, exists: (object: string) => boolean, clean: boolean): void {
  memoFile(ctx).write({
    refs: state.refs,
    notes: state.notes,
    ...(left.missing.length ? { author: ctx.settings.author } : {}),
    exists: Object.fromEntries(leftOn(left).map((o) => [o, exists(o)])),
    unmatched: left.unmatched,
    missing: left.missing,
    ...(clean ? { tips: state.refTips } : {}),
  });
}

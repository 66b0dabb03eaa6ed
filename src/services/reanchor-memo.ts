/**
 * The last reanchor run that changed nothing, remembered under a digest of
 * what its answer depends on: HEAD and every branch, remote-tracking branch
 * and tag (placements, candidates) and the notes tips (the memories). The
 * post-merge and post-rewrite hooks and `git mem pull` run reanchor often,
 * and mostly nothing has moved since: then a run reads two ref lists and
 * this file, checks that the commits it left memories on still exist or are
 * still gone (gc prunes without moving a ref), and says the same again. No
 * index, no sql.js, no walk: milliseconds. A cache: unreadable or stale, the
 * run does the work.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { objectTypes } from '../stores/git/objects.ts';
import { refsState } from '../stores/git/reachability.ts';
import type { Deps } from './deps.ts';

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
}

type MemoDeps = Pick<Deps, 'notes' | 'repo' | 'settings'>;

/** Bump when what a run reports changes shape or meaning. */
const VERSION = 1;

interface Memo {
  version: number;
  state: string;
  /** The user `missing[].mine` was decided for (read only when some memory is missing). */
  author?: string;
  /** Every commit a memory was left on: whether it existed. */
  exists: Record<string, boolean>;
  unmatched: LeftBehind[];
  missing: MissingLeft[];
}

export interface Remembered {
  unmatched: LeftBehind[];
  missing: MissingLeft[];
}

/** The digest of HEAD, the refs and the notes tips: two `for-each-ref`s. */
export function reanchorState(ctx: MemoDeps): string {
  const tips = [...ctx.notes.tips()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([ns, oid]) => `${ns} ${oid}`);
  return createHash('sha1').update(`${VERSION}\n${refsState(ctx.repo)}\n${tips.join('\n')}`).digest('hex');
}

function leftOn(memo: Pick<Memo, 'unmatched' | 'missing'>): string[] {
  return [...new Set([...memo.unmatched, ...memo.missing].flatMap((m) => m.objects))];
}

/** What the last run under this state left behind, if it still holds. */
export function recallRun(ctx: MemoDeps, state: string): Remembered | undefined {
  let memo: Memo;
  try {
    memo = JSON.parse(fs.readFileSync(ctx.repo.mem.file('reanchor'), 'utf8')) as Memo;
  } catch {
    return undefined; // None yet, or unreadable.
  }
  if (memo?.version !== VERSION || memo.state !== state || !Array.isArray(memo.unmatched) || !Array.isArray(memo.missing)) return undefined;
  if (memo.missing.length && memo.author !== ctx.settings.author) return undefined;
  const objects = leftOn(memo);
  const types = objectTypes(ctx.repo, objects);
  // A commit pruned since (or fetched since without moving a ref) changes what is reported about its memories.
  if (objects.some((o) => types.has(o) !== memo.exists[o])) return undefined;
  return { unmatched: memo.unmatched, missing: memo.missing };
}

/**
 * Remembers a run that changed nothing: its answer is then what any run
 * under the same state says. `exists`: whether the run found each commit
 * (from its placements, not read again: a gc in between would be missed).
 */
export function rememberRun(ctx: MemoDeps, state: string, left: Remembered, exists: (object: string) => boolean): void {
  try {
    if (!ctx.repo.mem.writable()) return;
    const memo: Memo = {
      version: VERSION,
      state,
      ...(left.missing.length ? { author: ctx.settings.author } : {}),
      exists: Object.fromEntries(leftOn(left).map((o) => [o, exists(o)])),
      unmatched: left.unmatched,
      missing: left.missing,
    };
    writeFileAtomic(ctx.repo.mem.file('reanchor'), JSON.stringify(memo));
  } catch {
    // A cache: the next run does the work.
  }
}

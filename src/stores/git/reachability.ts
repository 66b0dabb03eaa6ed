/**
 * Where commits stand relative to HEAD and the refs (core/history/anchor.ts), for many
 * commits at once: one `cat-file` for what the objects are (facts that never
 * change, so callers may keep them), then at most four `rev-list`s, each
 * walking only what the commits reach and the refs do not.
 */
import { createHash } from 'node:crypto';
import type { Placement, Reach } from '../../core/history/anchor.ts';
import { parseCommit } from '../../core/commit.ts';
import { readBatch } from './objects.ts';
import { otherWorktreeHeads, type Repo } from './repo.ts';

/** What an existing object is: its type and, for a commit, its committer time (s). */
export interface ObjectFacts {
  type: string;
  time: number;
}

/** Committer clocks may disagree by this much (s). */
const CLOCK_SKEW = 24 * 3600;

/** Negative refs of each step: a commit they do not exclude is reached by them. Another worktree's detached HEAD counts as a branch. */
function steps(repo: Repo): ReadonlyArray<readonly [Reach, readonly string[]]> {
  return [
    ['head', ['HEAD']],
    ['branch', ['--branches', ...otherWorktreeHeads(repo)]],
    ['remote', ['--remotes']],
    ['tag', ['--tags']],
  ];
}

/** Facts of the objects that exist (missing ones are absent), with one `cat-file --batch`. */
export function readFacts(repo: Repo, objects: readonly string[]): Map<string, ObjectFacts> {
  const out = new Map<string, ObjectFacts>();
  const unique = [...new Set(objects)];
  readBatch(repo, unique).forEach((obj, i) => {
    if (!obj) return;
    const committer = obj.type === 'commit' ? parseCommit(obj.content.toString('utf8')).committer : null;
    out.set(unique[i]!, { type: obj.type, time: committer ? Math.floor(Date.parse(committer.date) / 1000) : 0 });
  });
  return out;
}

/** Where a commit is known to stand, if it is. */
export type PlaceOf = (object: string) => Placement | undefined;

export interface PlaceOptions {
  /** Facts already known (kept from earlier runs); what is read is added to it. */
  facts?: Map<string, ObjectFacts>;
  /**
   * Asked before each step after the first, for each commit not yet reached:
   * true when its place no longer matters (its memory has a better copy). Such
   * commits are left out of the result.
   */
  settled?: (object: string, placeOf: PlaceOf) => boolean;
  /**
   * Commits (→ committer time) that exist, placed too when HEAD reaches them and left out
   * otherwise: those committed no earlier than the oldest commit asked for ride on HEAD's step,
   * whose walk reaches that far back anyway (50 ms on a 10,000-commit history without a
   * commit-graph, for one old commit as for 3,000).
   */
  alongHead?: ReadonlyMap<string, number>;
}

export function placeObjects(repo: Repo, objects: readonly string[], options: PlaceOptions = {}): Map<string, Placement> {
  const facts = options.facts ?? new Map<string, ObjectFacts>();
  const unique = [...new Set(objects)];
  const unknown = unique.filter((o) => !facts.has(o));
  for (const [o, f] of readFacts(repo, unknown)) facts.set(o, f);
  const out = new Map<string, Placement>();
  let pending: string[] = [];
  for (const object of unique) {
    const f = facts.get(object);
    if (!f) out.set(object, { object, reach: 'missing', time: 0 });
    else if (f.type !== 'commit') out.set(object, { object, reach: 'not-a-commit', time: 0 });
    else {
      out.set(object, { object, reach: 'unreachable', time: f.time });
      pending.push(object);
    }
  }
  const negatives: string[] = [];
  // HEAD's commit time: a commit committed after it (a day of clock skew aside) is no ancestor of it
  // (as isAncestor in history.ts says), so HEAD's walk is not asked about it; walking a branch's
  // newest commits back to an old tag checked out is what that walk costs.
  let headTime: number | undefined;
  const headTimeOf = () => (headTime ??= facts.get(repo.head!)?.time ?? readFacts(repo, [repo.head!]).get(repo.head!)?.time ?? Infinity);
  for (const [reach, refs] of steps(repo)) {
    // HEAD on no commit yet (an orphan branch): it reaches nothing, and git would refuse it as a negative.
    if (reach === 'head' && !repo.head) continue;
    negatives.push(...refs);
    if (reach !== 'head' && options.settled) {
      const placeOf: PlaceOf = (o) => out.get(o);
      const skip = pending.filter((o) => options.settled!(o, placeOf));
      for (const o of skip) out.delete(o);
      pending = pending.filter((o) => out.has(o));
    }
    if (pending.length === 0) break;
    const asked = reach === 'head' ? pending.filter((o) => out.get(o)!.time <= headTimeOf() + CLOCK_SKEW) : pending;
    let along: string[] = [];
    if (reach === 'head' && asked.length && options.alongHead?.size) {
      // Not those committed after HEAD either.
      const oldest = Math.min(...asked.map((o) => out.get(o)!.time));
      along = [...options.alongHead].filter(([o, time]) => time >= oldest && time <= headTimeOf() + CLOCK_SKEW && !out.has(o)).map(([o]) => o);
    }
    if (asked.length === 0) continue;
    // What the pending commits reach that the refs so far do not: a commit absent from it is reached.
    const r = repo.git.exec(['rev-list', '--stdin', '--not', ...negatives], { input: [...asked, ...along].join('\n') + '\n' });
    // One of them gone since it was known (gc): placed again with those that are still here.
    if (r.status !== 0 && along.length) {
      const here = existing(repo, along);
      const alongHead = new Map([...options.alongHead!].filter(([o]) => here.has(o)));
      return placeObjects(repo, objects, { ...options, alongHead: alongHead.size < options.alongHead!.size ? alongHead : undefined });
    }
    if (r.status !== 0) {
      // A kept fact went stale (gc removed the commit): read them all again, once.
      if (unknown.length < unique.length) {
        facts.clear();
        return placeObjects(repo, objects, { ...options, facts });
      }
      break;
    }
    const outside = new Set(r.stdout.toString('utf8').split('\n'));
    for (const o of along) if (!outside.has(o)) out.set(o, { object: o, reach, time: options.alongHead!.get(o)! });
    const askedSet = new Set(asked);
    const still: string[] = pending.filter((o) => !askedSet.has(o));
    for (const object of asked) {
      if (outside.has(object)) still.push(object);
      else out.get(object)!.reach = reach;
    }
    pending = still;
  }
  return out;
}

/** Those of `objects` that are here (one `cat-file --batch-check`). */
function existing(repo: Repo, objects: readonly string[]): Set<string> {
  const r = repo.git.exec(['cat-file', '--batch-check=%(objectname)'], { input: objects.join('\n') + '\n' });
  // A missing object's line is `<name> missing`.
  return new Set(r.stdout.toString('utf8').split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l)));
}

/**
 * A digest of HEAD, the other worktrees' detached HEADs and every branch, remote-tracking branch and tag: what
 * placements depend on. One `for-each-ref`.
 */
export function refsState(repo: Repo): string {
  let state = states.get(repo);
  if (state === undefined) {
    const refs = repo.git.run(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/remotes/', 'refs/tags/']);
    states.set(repo, (state = createHash('sha1').update(`HEAD ${repo.head ?? ''}\n${otherWorktreeHeads(repo).map((h) => `${h} worktree\n`).join('')}${refs}`).digest('hex')));
  }
  return state;
}

/** Read once per process: a command runs in tens of milliseconds, and HEAD (repo.head) is read once too. */
const states = new WeakMap<Repo, string>();

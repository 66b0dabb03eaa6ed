/**
 * Where commits stand relative to HEAD and the refs (core/anchor.ts), for many
 * commits at once: one `cat-file` for existence and times, then at most four
 * `rev-list`s, each walking only what the commits reach and the refs do not.
 */
import { createHash } from 'node:crypto';
import type { Placement, Reach } from '../../core/anchor.ts';
import { parseCommit } from '../../core/commit.ts';
import { readBatch } from './objects.ts';
import type { Repo } from './repo.ts';

/** Negative refs of each step: a commit they do not exclude is reached by them. */
const STEPS: ReadonlyArray<readonly [Reach, readonly string[]]> = [
  ['head', ['HEAD']],
  ['branch', ['--branches']],
  ['remote', ['--remotes']],
  ['tag', ['--tags']],
];

function committerTime(content: Buffer): number {
  const committer = parseCommit(content.toString('utf8')).committer;
  return committer ? Math.floor(Date.parse(committer.date) / 1000) : 0;
}

export function placeObjects(repo: Repo, objects: readonly string[]): Map<string, Placement> {
  const unique = [...new Set(objects)];
  const out = new Map<string, Placement>();
  const found = readBatch(repo, unique);
  let pending: string[] = [];
  unique.forEach((object, i) => {
    const obj = found[i];
    if (!obj) out.set(object, { object, reach: 'missing', time: 0 });
    else if (obj.type !== 'commit') out.set(object, { object, reach: 'not-a-commit', time: 0 });
    else {
      out.set(object, { object, reach: 'unreachable', time: committerTime(obj.content) });
      pending.push(object);
    }
  });
  const negatives: string[] = [];
  for (const [reach, refs] of STEPS) {
    if (pending.length === 0) break;
    if (reach === 'head' && !repo.head) continue;
    negatives.push(...refs);
    // What the pending commits reach that the refs so far do not: a commit absent from it is reached.
    const r = repo.git.exec(['rev-list', '--stdin', '--not', ...negatives], { input: pending.join('\n') + '\n' });
    if (r.status !== 0) continue;
    const outside = new Set(r.stdout.toString('utf8').split('\n'));
    const still: string[] = [];
    for (const object of pending) {
      if (outside.has(object)) still.push(object);
      else out.get(object)!.reach = reach;
    }
    pending = still;
  }
  return out;
}

/**
 * A digest of HEAD and every branch, remote-tracking branch and tag: what
 * placements depend on. One `for-each-ref`.
 */
export function refsState(repo: Repo): string {
  const refs = repo.git.run(['for-each-ref', '--format=%(objectname) %(refname)', 'refs/heads/', 'refs/remotes/', 'refs/tags/']);
  return createHash('sha1').update(`HEAD ${repo.head ?? ''}\n${refs}`).digest('hex');
}

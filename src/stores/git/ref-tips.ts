/**
 * The commits HEAD and the refs point at, and whether refs that moved still
 * reach what the old ones did: what lets a caller that placed commits under
 * the old refs know that every commit reached then is reached now.
 */
import { createHash } from 'node:crypto';
import { otherWorktreeHeads, type Repo } from './repo.ts';

const REF_PREFIXES = ['refs/heads/', 'refs/remotes/', 'refs/tags/'];

export interface RefTips {
  /** A digest of HEAD and every ref with what it points at: equal digests, equal refs. */
  digest: string;
  /** HEAD's commit and every branch, remote-tracking branch and tag tip (a tag object as it is: rev-list peels it), each once, sorted. */
  tips: string[];
}

/** HEAD and the refs, with one `for-each-ref`. */
export function refTips(repo: Repo): RefTips {
  // Not peeled (%(*objectname)): that reads every tag object, 10 ms at 1,000 tags.
  const r = repo.git.exec(['for-each-ref', '--format=%(objectname) %(refname)', ...REF_PREFIXES]);
  const text = r.status === 0 ? r.stdout.toString('utf8') : '';
  const tips = new Set<string>();
  for (const line of text.split('\n')) {
    const oid = line.slice(0, line.indexOf(' '));
    if (oid) tips.add(oid);
  }
  if (repo.head) tips.add(repo.head);
  const worktrees = otherWorktreeHeads(repo);
  for (const h of worktrees) tips.add(h);
  return { digest: createHash('sha1').update(`HEAD ${repo.head ?? ''}\n${worktrees.map((h) => `${h} worktree\n`).join('')}${text}`).digest('hex'), tips: [...tips].sort() };
}

/**
 * Whether HEAD and the refs reach every one of `tips` (so everything those
 * reached). A walk from the old tips that stops where the refs' history
 * begins: a handful of commits after a commit, a merge or a pull. False when
 * one is gone or no longer reached (a branch deleted or reset).
 */
export function reachesAll(repo: Repo, tips: readonly string[]): boolean {
  if (tips.length === 0) return true;
  const negatives = ['--branches', '--remotes', '--tags', ...(repo.head ? ['HEAD'] : []), ...otherWorktreeHeads(repo)];
  const r = repo.git.exec(['rev-list', '--stdin', '--not', ...negatives], { input: tips.join('\n') + '\n' });
  return r.status === 0 && r.stdout.toString('utf8').trim() === '';
}

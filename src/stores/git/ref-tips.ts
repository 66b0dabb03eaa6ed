/**
 * The commits HEAD and the refs point at, and whether refs that moved still
 * reach what the old ones did: what lets a caller that placed commits under
 * the old refs know that every commit reached then is reached now.
 */
import type { Repo } from './repo.ts';

const REF_PREFIXES = ['refs/heads/', 'refs/remotes/', 'refs/tags/'];

/** HEAD's commit and every branch, remote-tracking branch and tag tip, each once, sorted (tags peeled to what they point at). */
export function refTips(repo: Repo): string[] {
  const r = repo.git.exec(['for-each-ref', '--format=%(objectname)%0a%(*objectname)', ...REF_PREFIXES]);
  const tips = new Set(r.status === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : []);
  if (repo.head) tips.add(repo.head);
  return [...tips].sort();
}

/**
 * Whether HEAD and the refs reach every one of `tips` (so everything those
 * reached). A walk from the old tips that stops where the refs' history
 * begins: a handful of commits after a commit, a merge or a pull. False when
 * one is gone or no longer reached (a branch deleted or reset).
 */
export function reachesAll(repo: Repo, tips: readonly string[]): boolean {
  if (tips.length === 0) return true;
  const negatives = ['--branches', '--remotes', '--tags', ...(repo.head ? ['HEAD'] : [])];
  const r = repo.git.exec(['rev-list', '--stdin', '--not', ...negatives], { input: tips.join('\n') + '\n' });
  return r.status === 0 && r.stdout.toString('utf8').trim() === '';
}

/** Commits and lines as git tells them: ranges of commits, blame of a file. */
import { GitMemError, UsageError } from '../../core/errors.ts';
import { parseBlamePorcelain } from '../../core/blame.ts';
import type { Repo } from './repo.ts';

/** The commits of a range (`a..b`, or anything rev-list takes), oldest first, with their subjects. */
export function commitsInRange(repo: Repo, range: string): Array<{ commit: string; subject: string }> {
  if (range.startsWith('-')) throw new UsageError(`'${range}' is not a range of commits`);
  const r = repo.git.exec(['log', '--reverse', '--format=%H%x00%s', '--end-of-options', range, '--']);
  if (r.status !== 0) throw new UsageError(`'${range}' is not a range of commits here: ${r.stderr.trim().split('\n')[0] ?? ''}`);
  return r.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [commit = '', subject = ''] = line.split('\0');
      return { commit, subject };
    });
}

function resolves(repo: Repo, rev: string): boolean {
  return repo.git.exec(['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`]).status === 0;
}

/**
 * What a branch adds: the current branch against its upstream, else against
 * the default branch (the remote's HEAD, else main or master). Null on the
 * default branch itself with no upstream.
 */
export function defaultRange(repo: Repo): string | null {
  if (resolves(repo, '@{upstream}')) return '@{upstream}..HEAD';
  const remoteHead = repo.git.exec(['symbolic-ref', '-q', '--short', 'refs/remotes/origin/HEAD']).stdout.toString('utf8').trim();
  const current = repo.git.exec(['symbolic-ref', '-q', '--short', 'HEAD']).stdout.toString('utf8').trim();
  for (const base of [remoteHead, 'main', 'master'].filter(Boolean)) {
    if (base !== current && resolves(repo, base)) return `${base}..HEAD`;
  }
  return null;
}

/** The commit behind each line (all of them, or `from`-`to`) of a file as it is in the work tree. Lines not committed yet are left out. */
export function blameLines(repo: Repo, file: string, from?: number, to?: number): Array<{ commit: string; line: number }> {
  const args = ['blame', '--porcelain'];
  if (from !== undefined) args.push('-L', `${from},${to ?? from}`);
  const r = repo.git.exec([...args, '--', file]);
  if (r.status !== 0) {
    const why = r.stderr.trim().split('\n')[0]?.replace(/^fatal: /, '') ?? '';
    throw new GitMemError(`cannot blame ${file}: ${why}`);
  }
  return parseBlamePorcelain(r.stdout.toString('utf8')).filter((l) => !/^0+$/.test(l.commit));
}

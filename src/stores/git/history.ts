/** Commits and lines as git tells them: ranges of commits, blame of a file. */
import { GitMemError, UsageError } from '../../core/errors.ts';
import { parseBlamePorcelain } from '../../core/blame.ts';
import { type FileChange, type Hunk, parseDiffBlocks, parseHunks, parseRenames, type TouchingCommit } from '../../core/staleness.ts';
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

/** The commit behind each line (all of them, or those in `ranges`, inclusive) of a file as it is in the work tree. Lines not committed yet are left out. */
export function blameLines(repo: Repo, file: string, ranges: ReadonlyArray<readonly [number, number]> = []): Array<{ commit: string; line: number }> {
  const args = ['blame', '--porcelain', ...ranges.flatMap(([from, to]) => ['-L', `${from},${to}`])];
  const r = repo.git.exec([...args, '--', file]);
  if (r.status !== 0) {
    const why = r.stderr.trim().split('\n')[0]?.replace(/^fatal: /, '') ?? '';
    throw new GitMemError(`cannot blame ${file}: ${why}`);
  }
  return parseBlamePorcelain(r.stdout.toString('utf8')).filter((l) => !/^0+$/.test(l.commit));
}

/** For each pair, what changed from its commit to its target (one `git diff-tree --stdin`), in the order given. */
export function changesSince(repo: Repo, pairs: ReadonlyArray<{ target: string; commit: string }>): FileChange[][] {
  if (pairs.length === 0) return [];
  const r = repo.git.exec(['-c', 'core.quotePath=false', 'diff-tree', '--stdin', '--always', '-r', '--raw', '--numstat', '--no-renames'], {
    input: pairs.map((p) => `${p.target} ${p.commit}`).join('\n') + '\n',
  });
  if (r.status !== 0) return pairs.map(() => []);
  return parseDiffBlocks(r.stdout.toString('utf8'), new Set(pairs.map((p) => p.target)));
}

/**
 * The newest commits of `rev` (at most `max`, none before `since`, in s) with
 * the files each changed (one `git log`, not limited by path: path limiting
 * walks the whole history when the files changed long ago).
 */
export function recentChanges(repo: Repo, since: number, max: number, rev = 'HEAD'): TouchingCommit[] {
  if (!repo.head && rev === 'HEAD') return [];
  const r = repo.git.exec(['-c', 'core.quotePath=false', 'log', '--format=%x00%H %ct', '--name-only', '--no-renames', `--since=${since}`, `--max-count=${max}`, rev, '--']);
  if (r.status !== 0) return [];
  return r.stdout
    .toString('utf8')
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const [head = '', ...files] = entry.split('\n');
      const [commit = '', time = '0'] = head.split(' ');
      return { commit, time: Number(time), paths: files.filter(Boolean) };
    });
}

/** Old path → new path of the files renamed from `commit` to `target` (git's rename detection). */
export function renamesBetween(repo: Repo, commit: string, target: string): Map<string, string> {
  const r = repo.git.exec(['-c', 'core.quotePath=false', 'diff-tree', '-r', '-M', '--diff-filter=R', '--name-status', '-z', commit, target]);
  return r.status === 0 ? parseRenames(r.stdout.toString('utf8')) : new Map();
}

/** The hunks of one file's change from `commit` to `target`, without context lines. */
export function hunksBetween(repo: Repo, commit: string, target: string, file: string): Hunk[] {
  const r = repo.git.exec(['diff', '-U0', '--no-color', '--no-ext-diff', '--no-renames', commit, target, '--', file]);
  return r.status === 0 ? parseHunks(r.stdout.toString('utf8')) : [];
}

/** Of `commits`, those HEAD does not reach (one `rev-list`, walking only what HEAD lacks). */
export function offHead(repo: Repo, commits: readonly string[]): Set<string> {
  if (commits.length === 0) return new Set();
  if (!repo.head) return new Set(commits);
  const r = repo.git.exec(['rev-list', '--stdin', '--not', 'HEAD'], { input: commits.join('\n') + '\n' });
  if (r.status !== 0) return new Set();
  const wanted = new Set(commits);
  return new Set(r.stdout.toString('utf8').split('\n').filter((c) => wanted.has(c)));
}

/** The tip of a branch (a local one first, else a remote-tracking one) that holds `commit`; null when none does. */
export function branchHolding(repo: Repo, commit: string): string | null {
  const r = repo.git.exec(['for-each-ref', `--contains=${commit}`, '--count=1', '--format=%(objectname)', 'refs/heads/', 'refs/remotes/']);
  const tip = r.stdout.toString('utf8').trim();
  return r.status === 0 && tip ? tip : null;
}

/** A commit's committer time (s), when `rev` names a commit here; else null. */
export function commitTime(repo: Repo, rev: string): number | null {
  if (rev.startsWith('-')) return null;
  const r = repo.git.exec(['log', '-1', '--format=%ct', '--end-of-options', `${rev}^{commit}`, '--']);
  const t = Number(r.stdout.toString('utf8').trim());
  return r.status === 0 && Number.isFinite(t) && t > 0 ? t : null;
}

/** The commit a ref pointed at, at a time (s), as its own history tells (its first-parent chain); null when it did not exist yet. */
export function refAt(repo: Repo, ref: string, time: number): string | null {
  const r = repo.git.exec(['rev-list', '-1', '--first-parent', `--before=${time}`, ref, '--']);
  const commit = r.stdout.toString('utf8').trim();
  return r.status === 0 && commit ? commit : null;
}

/** The commit a revision names, or null when it names none here. */
export function resolveCommit(repo: Repo, rev: string): string | null {
  const r = repo.git.exec(['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`]);
  return r.status === 0 ? r.stdout.toString('utf8').trim() : null;
}

/** The subjects of the last `n` commits on HEAD. */
export function recentSubjects(repo: Repo, n: number): string[] {
  if (!repo.head) return [];
  return repo.git.exec(['log', `-${n}`, '--format=%s', repo.head]).stdout.toString('utf8').split('\n').filter(Boolean);
}

/** The newest commits (at most `n`, none older than `since`) that changed a file. */
export function commitsChangingFile(repo: Repo, file: string, n: number, since: string): string[] {
  const r = repo.git.exec(['--literal-pathspecs', 'log', '--format=%H', '-n', String(n), `--since=${since}`, '--', file]);
  return r.status === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
}

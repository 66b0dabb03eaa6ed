/** Commits and lines as git tells them: ranges of commits, blame of a file. */
import { GitMemError, UsageError } from '../../core/errors.ts';
import { parseBlamePorcelain } from '../../core/history/blame.ts';
import { type Hunk, parseHunks, parseRenames, type TouchingCommit } from '../../core/history/staleness.ts';
import { readFacts } from './reachability.ts';
import type { Repo } from './repo.ts';

/** The commits of a range (`a..b`, or anything rev-list takes), oldest first, with their subjects. */
export function commitsInRange(repo: Repo, range: string): Array<{ commit: string; subject: string; parents: string[] }> {
  if (range.startsWith('-')) throw new UsageError(`'${range}' is not a range of commits`);
  const r = repo.git.exec(['log', '--reverse', '--date-order', '--format=%H%x00%P%x00%s', '--end-of-options', range, '--']);
  if (r.status !== 0) throw new UsageError(`'${range}' is not a range of commits here: ${r.stderr.trim().split('\n')[0] ?? ''}`);
  return r.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [commit = '', parents = '', subject = ''] = line.split('\0');
      return { commit, subject, parents: parents.split(' ').filter(Boolean) };
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

/**
 * The blob each `<rev>:<path>` names, in request order: null where the file
 * is not there (or is no file). One `cat-file --batch-check` for all.
 */
export function blobsAt(repo: Repo, specs: ReadonlyArray<{ rev: string; path: string }>): Array<string | null> {
  // A path with a line break cannot be asked for on a line: unknown, so left as it was.
  const asked = specs.map((s) => (/[\n\r]/.test(s.path) ? null : `${s.rev}:${s.path}`));
  const lines = asked.filter((a): a is string => a !== null);
  if (lines.length === 0) return specs.map(() => null);
  const r = repo.git.exec(['cat-file', '--batch-check=%(objectname) %(objecttype)'], { input: lines.join('\n') + '\n' });
  const answers = r.status === 0 ? r.stdout.toString('utf8').split('\n') : [];
  let i = 0;
  return asked.map((a) => {
    if (a === null) return null;
    const [oid = '', type = ''] = (answers[i++] ?? '').split(' ');
    // "<spec> missing" has no type; a directory is a tree; a submodule is a commit, compared by id like a blob.
    return /^[0-9a-f]{40,64}$/.test(oid) && (type === 'blob' || type === 'commit') ? oid : null;
  });
}

/** Every file of a commit's tree → its blob (or a submodule's commit), with one `ls-tree`. */
export function treeBlobs(repo: Repo, rev: string): Map<string, string> {
  const out = new Map<string, string>();
  const r = repo.git.exec(['ls-tree', '-r', '-z', '--full-tree', '--end-of-options', rev]);
  if (r.status !== 0) return out;
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    // `<mode> <type> <oid>\t<path>`
    const tab = entry.indexOf('\t');
    if (tab < 0) continue;
    const [, type = '', oid = ''] = entry.slice(0, tab).split(' ');
    if (type === 'blob' || type === 'commit') out.set(entry.slice(tab + 1), oid);
  }
  return out;
}

/**
 * The newest commits of `rev` not reachable from `exclude` (at most `max`,
 * none before `since`, in s), newest first, with the files each changed and
 * those it deleted. Merges list no files (git log's default): the commits
 * they bring are listed themselves. One `git log`, not limited by path: a
 * path-limited walk reads the whole history when the files changed long ago.
 */
export function recentChanges(repo: Repo, since: number, max: number, rev = 'HEAD', exclude: readonly string[] = []): TouchingCommit[] {
  if (!repo.head && rev === 'HEAD') return [];
  // Between named commits the answer never changes: asked twice in one command (the results and
  // the window step from the same place), it is asked of git once.
  const key = [rev, ...exclude].every((c) => /^[0-9a-f]{40,64}$/.test(c)) ? `${since} ${max} ${rev} ${exclude.join(' ')}` : null;
  const known = key ? memo(changesAsked, repo).get(key) : undefined;
  if (known) return known;
  const found = logChanges(repo, since, max, rev, exclude);
  if (key) memo(changesAsked, repo).set(key, found);
  return found;
}

/** Per repository, what this process asked of git that never changes (keyed by commit ids). */
const changesAsked = new WeakMap<Repo, Map<string, TouchingCommit[]>>();
const ancestryAsked = new WeakMap<Repo, Map<string, boolean>>();

function memo<T>(store: WeakMap<Repo, Map<string, T>>, repo: Repo): Map<string, T> {
  let m = store.get(repo);
  if (!m) store.set(repo, (m = new Map()));
  return m;
}

function logChanges(repo: Repo, since: number, max: number, rev: string, exclude: readonly string[]): TouchingCommit[] {
  const args = ['-c', 'core.quotePath=false', 'log', '--format=%x00%H %ct', '--name-status', '--no-renames', `--max-count=${max}`];
  if (since > 0) args.push(`--since=${since}`);
  const r = repo.git.exec([...args, rev, ...exclude.map((e) => `^${e}`), '--']);
  return r.status === 0 ? parseChanges(r.stdout.toString('utf8')) : [];
}

/** `\0<commit> <time>` then `<status>\t<path>` lines, per commit (as recentChanges and changesOf ask git for them). */
function parseChanges(out: string): TouchingCommit[] {
  return out
    .split('\0')
    .filter(Boolean)
    .map((entry) => {
      const [head = '', ...lines] = entry.split('\n');
      const [commit = '', time = '0'] = head.split(' ');
      const paths: string[] = [];
      const deleted: string[] = [];
      for (const line of lines) {
        const tab = line.indexOf('\t');
        if (tab < 0) continue;
        const path = line.slice(tab + 1);
        paths.push(path);
        if (line.startsWith('D')) deleted.push(path);
      }
      return { commit, time: Number(time), paths, ...(deleted.length ? { deleted } : {}) };
    });
}

/** The newest `max` commits of `rev` (ids and committer times), newest first, in recentChanges' order: one `git log` that diffs nothing. */
export function recentCommits(repo: Repo, max: number, rev: string): Array<{ commit: string; time: number }> {
  const r = repo.git.exec(['log', '--format=%H %ct', `--max-count=${max}`, rev, '--']);
  if (r.status !== 0) return [];
  return r.stdout
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [commit = '', time = '0'] = line.split(' ');
      return { commit, time: Number(time) };
    });
}

/**
 * What each commit changed against its parent, as recentChanges says it (files and deletions, no
 * renames; nothing for a merge), with one `git diff-tree --stdin`. Commits it says nothing of (a
 * merge, a commit that changed nothing) are absent.
 */
export function changesOf(repo: Repo, commits: readonly string[]): Map<string, TouchingCommit> {
  if (commits.length === 0) return new Map();
  const r = repo.git.exec(['-c', 'core.quotePath=false', 'diff-tree', '--stdin', '-r', '--root', '--name-status', '--no-renames', '--format=%x00%H %ct'], { input: commits.join('\n') + '\n' });
  return new Map(r.status === 0 ? parseChanges(r.stdout.toString('utf8')).map((c) => [c.commit, c]) : []);
}

/** Committer clocks disagree by this much (s) before a newer commit is taken for no ancestor of an older one. */
const CLOCK_SKEW = 24 * 3600;

/**
 * Whether `ancestor` is `descendant` or in its history. A commit much newer
 * than the other is no ancestor of it: said from their times (one small
 * `cat-file`), since `git merge-base --is-ancestor` walks the whole history
 * back to say no (50 ms on a repository of 10,000 commits). `within` (s):
 * say no, without asking git, when the descendant was committed longer after.
 */
export function isAncestor(repo: Repo, ancestor: string, descendant: string, within = Infinity): boolean {
  if (ancestor === descendant) return true;
  // Asked again in one command (the anchors, the results and the window all step from the last HEAD): answered once.
  const key = `${ancestor} ${descendant} ${within}`;
  const asked = memo(ancestryAsked, repo);
  let answer = asked.get(key);
  if (answer === undefined) asked.set(key, (answer = askAncestor(repo, ancestor, descendant, within)));
  return answer;
}

function askAncestor(repo: Repo, ancestor: string, descendant: string, within: number): boolean {
  const facts = readFacts(repo, [ancestor, descendant]);
  const [a, d] = [facts.get(ancestor), facts.get(descendant)];
  if (a?.type !== 'commit' || d?.type !== 'commit' || a.time > d.time + CLOCK_SKEW) return false;
  // Asked only about a near ancestor: one committed long before is not looked for.
  if (d.time - a.time > within) return false;
  return repo.git.exec(['merge-base', '--is-ancestor', ancestor, descendant]).status === 0;
}

/** Old path → new path of the files each commit renamed against its first parent (one `diff-tree --stdin -M`); later commits in the list win. */
export function renamesIn(repo: Repo, commits: readonly string[]): Map<string, string> {
  if (commits.length === 0) return new Map();
  const r = repo.git.exec(['-c', 'core.quotePath=false', 'diff-tree', '--stdin', '-r', '-M', '-m', '--first-parent', '--diff-filter=R', '--name-status', '-z'], {
    input: commits.join('\n') + '\n',
  });
  return r.status === 0 ? parseRenames(r.stdout.toString('utf8')) : new Map();
}

/**
 * For commits HEAD does not reach: the tip of a branch that holds each (local
 * branches first, then remote-tracking ones, the most recently committed
 * first). One `rev-list` per branch tried, each walking only what the commits
 * reach beyond that branch; at most `maxTips` branches. Commits no branch
 * tried holds are absent.
 */
export function tipsHolding(repo: Repo, commits: readonly string[], maxTips = 16): Map<string, string> {
  const out = new Map<string, string>();
  if (commits.length === 0) return out;
  const refs = repo.git.exec(['for-each-ref', '--sort=-committerdate', '--format=%(objectname) %(objecttype) %(refname)', 'refs/heads/', 'refs/remotes/']);
  if (refs.status !== 0) return out;
  const tips = refs.stdout
    .toString('utf8')
    .split('\n')
    .map((l) => l.split(' '))
    .filter(([, type, name]) => type === 'commit' && name && !name.endsWith('/HEAD'))
    .sort(([, , a], [, , b]) => Number(b!.startsWith('refs/heads/')) - Number(a!.startsWith('refs/heads/')))
    .map(([oid]) => oid!);
  let pending = [...new Set(commits)];
  for (const tip of [...new Set(tips)].slice(0, maxTips)) {
    if (pending.length === 0) break;
    const r = repo.git.exec(['rev-list', '--stdin', '--not', tip], { input: pending.join('\n') + '\n' });
    if (r.status !== 0) continue;
    const outside = new Set(r.stdout.toString('utf8').split('\n'));
    for (const c of pending) if (!outside.has(c)) out.set(c, tip);
    pending = pending.filter((c) => !out.has(c));
  }
  return out;
}

/** The hunks of one file's change from `commit` to `target`, without context lines. */
export function hunksBetween(repo: Repo, commit: string, target: string, file: string): Hunk[] {
  const r = repo.git.exec(['diff', '-U0', '--no-color', '--no-ext-diff', '--no-renames', commit, target, '--', file]);
  return r.status === 0 ? parseHunks(r.stdout.toString('utf8')) : [];
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

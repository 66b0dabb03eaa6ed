/** What commits changed and when, for a file's history: commits are immutable, so callers may keep the answer. */
import type { Repo } from './repo.ts';

export interface CommitFacts {
  /** Committer time, in seconds. */
  time: number;
  /** The paths the commit changed against its first parent (everything, for a root commit). */
  files: string[];
}

/**
 * commit → its time and the files it changed, for many commits with one `git diff-tree --stdin`
 * (objects that are not commits are absent). Pure parsing in parseCommitFacts.
 */
export function commitFacts(repo: Repo, commits: readonly string[]): Map<string, CommitFacts> {
  if (commits.length === 0) return new Map();
  const r = repo.git.exec(['-c', 'core.quotePath=false', 'diff-tree', '--stdin', '--always', '-r', '--root', '--name-only', '-m', '--first-parent', '--no-renames', '-z', '--format=%x02%H %ct'], {
    input: [...new Set(commits)].join('\n') + '\n',
  });
  // diff-tree goes on past an object it cannot diff (a tree, a blob), and says so on stderr: what it printed holds.
  return parseCommitFacts(r.stdout.toString('utf8'));
}

/** `\x02<commit> <time>\0\n<path>\0<path>\0...` per commit, as commitFacts asks git for them. */
export function parseCommitFacts(out: string): Map<string, CommitFacts> {
  const facts = new Map<string, CommitFacts>();
  for (const chunk of out.split('\x02')) {
    const end = chunk.indexOf('\0');
    const head = end < 0 ? chunk.trim() : chunk.slice(0, end);
    const [commit = '', time = ''] = head.split(' ');
    if (!/^[0-9a-f]{40,64}$/.test(commit) || !/^\d+$/.test(time)) continue;
    const files = end < 0 ? [] : chunk.slice(end + 1).replace(/^\n/, '').split('\0').filter(Boolean);
    // With -m, a merge may come more than once (once per parent; --first-parent keeps one): the first holds.
    if (!facts.has(commit)) facts.set(commit, { time: Number(time), files });
  }
  return facts;
}

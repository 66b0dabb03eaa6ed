/** The history of the notes refs as git records it: who made each notes commit, its signature, what it changed, and which of them this clone wrote. */
import type { Repo } from './repo.ts';

export interface NotesCommit {
  commit: string;
  /** `Name <email>` and the email alone. */
  author: string;
  email: string;
  /** Committer time (s). */
  time: number;
  /** git's `%G?` letter. */
  signature: string;
  /** The signer as git names it (`%GS`), when signed. */
  signer: string;
  /** The committer's email, for clones without a reflog. */
  committerEmail: string;
  /** Notes it changed: the annotated object, and the note's blob before and after (null: none). */
  changes: Array<{ object: string; oldBlob: string | null; blob: string | null }>;
}

const ZERO = /^0+$/;

/**
 * The commits of `tip` not reachable from `exclude`, oldest first, merges left
 * out (a merge's notes come from the commits it joins). One `git log`; its
 * `%G?` checks each signed commit with gpg or ssh-keygen as git is configured.
 */
export function notesCommits(repo: Repo, tip: string, exclude: readonly string[]): NotesCommit[] {
  const r = repo.git.exec([
    'log',
    '--reverse',
    '--no-merges',
    '--format=%x00%H%x1f%an%x1f%ae%x1f%ct%x1f%G?%x1f%GS%x1f%ce',
    '--raw',
    '-r',
    '--no-abbrev',
    '--no-renames',
    tip,
    ...exclude.map((e) => `^${e}`),
    '--',
  ]);
  if (r.status !== 0) return [];
  const out: NotesCommit[] = [];
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    if (!entry.trim()) continue;
    const [head = '', ...lines] = entry.split('\n');
    const [commit = '', name = '', email = '', time = '0', signature = 'N', signer = '', committerEmail = ''] = head.split('\x1f');
    const changes: NotesCommit['changes'] = [];
    for (const line of lines) {
      // `:<mode> <mode> <old> <new> <status>\t<path>`; a note's path is its object's id, perhaps split into fan-out folders.
      const tab = line.indexOf('\t');
      if (!line.startsWith(':') || tab < 0) continue;
      const [, , oldBlob = '', blob = ''] = line.slice(1, tab).split(' ');
      const object = line.slice(tab + 1).replace(/\//g, '');
      if (!/^[0-9a-f]{40,64}$/.test(object)) continue;
      changes.push({ object, oldBlob: ZERO.test(oldBlob) ? null : oldBlob, blob: ZERO.test(blob) ? null : blob });
    }
    out.push({ commit, author: `${name} <${email}>`, email, time: Number(time), signature, signer, committerEmail, changes });
  }
  return out;
}

/**
 * The notes commits git-mem (or `git notes`) wrote in this clone: what the
 * ref's reflog shows it set, except what a pull brought (`merge <remote> into …`).
 * Null when the ref keeps no reflog.
 */
export function writtenHere(repo: Repo, ref: string): Set<string> | null {
  const r = repo.git.exec(['reflog', 'show', '--format=%H%x1f%gs', ref, '--']);
  if (r.status !== 0) return null;
  const out = new Set<string>();
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [commit = '', message = ''] = line.split('\x1f');
    if (commit && !/^merge \S+ into /.test(message)) out.add(commit);
  }
  return out;
}

/** Of `commits`, those each remote's notes tracking ref of `namespace` holds (walking only what `exclude` does not reach): remote → set. */
export function heldByRemotes(repo: Repo, commits: readonly string[], namespace: string, exclude: readonly string[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  if (commits.length === 0) return out;
  const refs = repo.git.exec(['for-each-ref', '--format=%(refname)', 'refs/notes/remotes/']);
  const wanted = new Set(commits);
  for (const ref of refs.stdout.toString('utf8').split('\n')) {
    const m = /^refs\/notes\/remotes\/(.+)\/mem\/([^/]+)$/.exec(ref);
    if (!m || m[2] !== namespace) continue;
    const r = repo.git.exec(['rev-list', ref, ...exclude.map((e) => `^${e}`), '--']);
    if (r.status !== 0) continue;
    const held = new Set(r.stdout.toString('utf8').split('\n').filter((c) => wanted.has(c)));
    if (held.size) out.set(m[1]!, held);
  }
  return out;
}

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

/** Of these commits, those this clone still has. */
function existing(repo: Repo, commits: readonly string[]): string[] {
  return commits.filter((c) => repo.git.exec(['cat-file', '-e', `${c}^{commit}`]).status === 0);
}

/**
 * The commits of `tip` not reachable from `exclude`, oldest first, merges left
 * out (a merge's notes come from the commits it joins). One `git log`; its
 * `%G?` checks each signed commit with gpg or ssh-keygen as git is configured.
 * An excluded commit that no longer exists (a squashed and collected notes
 * history) is left out: then every commit of `tip` is read.
 */
export function notesCommits(repo: Repo, tip: string, exclude: readonly string[]): NotesCommit[] {
  const present = existing(repo, exclude);
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
    ...present.map((e) => `^${e}`),
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

/** What the reflog of a notes ref says this clone wrote. */
export interface Written {
  /** The notes commits git-mem (or `git notes`) wrote here: what the reflog shows the ref set to, except what a pull brought (`merge <remote> into …`). */
  commits: Set<string>;
  /** Committer time (s) of the oldest commit the reflog still lists (Infinity when it lists none): older entries may have expired. */
  since: number;
}

/** Null when the ref keeps no reflog. */
export function writtenHere(repo: Repo, ref: string): Written | null {
  const r = repo.git.exec(['reflog', 'show', '--format=%H%x1f%ct%x1f%gs', ref, '--']);
  if (r.status !== 0) return null;
  const commits = new Set<string>();
  let since = Infinity;
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [commit = '', time = '', message = ''] = line.split('\x1f');
    if (!commit) continue;
    since = Math.min(since, Number(time) || Infinity);
    if (!/^merge \S+ into /.test(message)) commits.add(commit);
  }
  return { commits, since };
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
    const r = repo.git.exec(['rev-list', ref, ...existing(repo, exclude).map((e) => `^${e}`), '--']);
    if (r.status !== 0) continue;
    const held = new Set(r.stdout.toString('utf8').split('\n').filter((c) => wanted.has(c)));
    if (held.size) out.set(m[1]!, held);
  }
  return out;
}

/**
 * The note blobs a push would send: every blob in the notes commits reachable
 * from some tips and not from others (`git rev-list --objects`), not only the
 * notes at the tips, because the commits in between travel too. One walk
 * that stops at what the other side has: the cost follows what is new, not
 * the number of notes.
 */
import { objectTypes } from './objects.ts';
import type { Repo } from './repo.ts';

export interface NewNote {
  /** The object the note is attached to (its path in the notes tree, fanout removed). */
  object: string;
  blob: string;
}

/** The commits among `oids` that this repository has (a remote's tip it never fetched is not one). */
export function presentCommits(repo: Repo, oids: readonly string[]): string[] {
  const wanted = oids.filter((o) => /^[0-9a-f]{40,64}$/.test(o) && !/^0+$/.test(o));
  const types = objectTypes(repo, wanted);
  return wanted.filter((o) => types.get(o) === 'commit');
}

/**
 * Note blobs reachable from `tips` and not from `known`, each once (a blob at
 * two paths: the first). Entries whose path is no object id (a file someone put
 * in a notes tree, a fanout folder) are left out: git notes never reads them.
 */
export function newNoteBlobs(repo: Repo, tips: readonly string[], known: readonly string[]): NewNote[] {
  const include = presentCommits(repo, tips);
  if (include.length === 0) return [];
  const exclude = presentCommits(repo, known);
  const hexLength = repo.objectFormat === 'sha256' ? 64 : 40;
  const input = [...include, ...exclude.map((o) => `^${o}`)].join('\n') + '\n';
  const out = repo.git.run(['rev-list', '--objects', '--stdin'], { input });
  const notes: NewNote[] = [];
  for (const line of out.split('\n')) {
    const space = line.indexOf(' ');
    if (space < 0) continue; // a commit, or the root tree
    const object = line.slice(space + 1).replaceAll('/', '');
    if (object.length === hexLength && /^[0-9a-f]+$/.test(object)) notes.push({ object, blob: line.slice(0, space) });
  }
  return notes;
}

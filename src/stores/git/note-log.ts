/** The history of one note: the notes commits that changed it, newest first, each with the note's blob after it. */
import type { Repo } from './repo.ts';

export interface NoteChange {
  commit: string;
  /** `Name <email>`. */
  author: string;
  /** Committer time (s). */
  time: number;
  /** The note's blob after the commit; null when the commit removed it. */
  blob: string | null;
}

const ZERO = /^0+$/;

/**
 * The newest `max` commits of the notes ref `ref` that changed the note on
 * `object` (at whatever fan-out: the note's path is the object's id, perhaps
 * split into folders). One `git log`.
 */
export function noteChanges(repo: Repo, ref: string, object: string, max: number): NoteChange[] {
  if (!/^[0-9a-f]{40,64}$/.test(object)) return [];
  const paths = [object, `${object.slice(0, 2)}/${object.slice(2)}`, `${object.slice(0, 2)}/${object.slice(2, 4)}/${object.slice(4)}`];
  const r = repo.git.exec(['log', `-n${max}`, '--format=%x00%H%x1f%an <%ae>%x1f%ct', '--raw', '--no-abbrev', '--no-renames', '-m', '--first-parent', '--end-of-options', ref, '--', ...paths]);
  if (r.status !== 0) return [];
  const out: NoteChange[] = [];
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    if (!entry.trim()) continue;
    const [head = '', ...lines] = entry.split('\n');
    const [commit = '', author = '', time = '0'] = head.split('\x1f');
    const line = lines.find((l) => l.startsWith(':') && l.includes('\t'));
    const blob = line?.slice(1, line.indexOf('\t')).split(' ')[3] ?? '';
    out.push({ commit, author, time: Number(time), blob: blob && !ZERO.test(blob) ? blob : null });
  }
  return out;
}

/**
 * noteChanges for many objects of one notes ref at once: the newest `max`
 * changes of each object's note, from one `git log` of the whole ref (no
 * pathspec: one walk, instead of one process per note).
 */
export function noteChangesOf(repo: Repo, ref: string, objects: ReadonlySet<string>, max: number): Map<string, NoteChange[]> {
  const out = new Map<string, NoteChange[]>();
  if (!objects.size) return out;
  const r = repo.git.exec(['log', '--format=%x00%H%x1f%an <%ae>%x1f%ct', '--raw', '--no-abbrev', '--no-renames', '-m', '--first-parent', '--end-of-options', ref, '--']);
  if (r.status !== 0) return out;
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    if (!entry.trim()) continue;
    const [head = '', ...lines] = entry.split('\n');
    const [commit = '', author = '', time = '0'] = head.split('\x1f');
    for (const line of lines) {
      const tab = line.indexOf('\t');
      if (!line.startsWith(':') || tab < 0) continue;
      const object = line.slice(tab + 1).replace(/\//g, '');
      if (!objects.has(object)) continue;
      const list = out.get(object) ?? [];
      if (list.length >= max) continue;
      const blob = line.slice(1, tab).split(' ')[3] ?? '';
      list.push({ commit, author, time: Number(time), blob: blob && !ZERO.test(blob) ? blob : null });
      out.set(object, list);
    }
  }
  return out;
}

/** A notes commit of a reanchor run: its message records the moves (core/history/moves.ts). */
export interface MoveCommit {
  commit: string;
  /** Committer time (s). */
  time: number;
  message: string;
}

/**
 * The newest `max` notes commits of `refs` (merged histories included: a
 * teammate's run comes with a pull) written by a reanchor run, newest first.
 * One `git log`, its messages only (no diff).
 */
export function reanchorCommits(repo: Repo, refs: readonly string[], max: number): MoveCommit[] {
  if (!refs.length) return [];
  const r = repo.git.exec(['log', `-n${max}`, '--format=%x00%H%x1f%ct%x1f%B', '--grep=^reanchor ', '--end-of-options', ...refs, '--']);
  if (r.status !== 0) return [];
  const out: MoveCommit[] = [];
  for (const entry of r.stdout.toString('utf8').split('\0')) {
    if (!entry.trim()) continue;
    const [commit = '', time = '0', message = ''] = entry.split('\x1f');
    out.push({ commit, time: Number(time), message });
  }
  return out;
}

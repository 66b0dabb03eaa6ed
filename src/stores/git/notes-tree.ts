/**
 * Notes trees as git lays them out: a note for object X is a blob named X, or,
 * once a level holds many notes, `X[0:2]/X[2:]` (and deeper). Git reads every
 * layout; a writer must find an existing note at any level, or it leaves two
 * notes for one object (isomorphic-git's notes API does exactly that).
 */
import { type GitObject, readBatch, readObjects } from './objects.ts';
import type { Repo } from './repo.ts';
import { BLOB_MODE, isTree, parseTree, TREE_MODE, type TreeEntry } from './tree.ts';

const FANOUT_DIR = /^[0-9a-f]{2}$/;
const HEX = /^[0-9a-f]+$/;
/** A flat level with this many notes is fanned out, as git does past 255 notes. */
export const FANOUT_THRESHOLD = 256;

export type TreeLookup = (oid: string) => TreeEntry[];
export type TreeWriter = (entries: TreeEntry[]) => string;
/** A change to a notes tree: object id and the new note blob, or null to remove the note. */
export type NoteChange = readonly [object: string, blob: string | null];

function isFanoutDir(e: TreeEntry): boolean {
  return isTree(e) && FANOUT_DIR.test(e.name);
}

/** The blob of the note attached to `object`, wherever the layout put it. */
export function findNote(lookup: TreeLookup, root: TreeEntry[], object: string): string | null {
  let entries = root;
  for (let consumed = 0; consumed < object.length; consumed += 2) {
    const rest = object.slice(consumed);
    const flat = entries.find((e) => !isTree(e) && e.name === rest);
    if (flat) return flat.oid;
    const dir = entries.find((e) => isTree(e) && e.name === rest.slice(0, 2));
    if (!dir) return null;
    entries = lookup(dir.oid);
  }
  return null;
}

/**
 * Applies changes to the tree level reached by `prefix` (the hex already consumed
 * by parent directories) and returns the new entries. Pure apart from `write`.
 */
export function editNotesTree(
  entries: readonly TreeEntry[],
  prefix: string,
  changes: readonly NoteChange[],
  lookup: TreeLookup,
  write: TreeWriter,
): TreeEntry[] {
  const touched = new Set(changes.map(([object]) => object.slice(prefix.length)));
  let list = entries.filter((e) => isTree(e) || !touched.has(e.name));
  const fanned = list.some(isFanoutDir);
  const dirs = new Set(list.filter(isFanoutDir).map((e) => e.name));
  const byDir = new Map<string, NoteChange[]>();
  const toDir = (name: string, change: NoteChange) => byDir.set(name, [...(byDir.get(name) ?? []), change]);

  for (const change of changes) {
    const [object, blob] = change;
    const rest = object.slice(prefix.length);
    const dirName = rest.slice(0, 2);
    // Existing subdirectory: it may hold an older note for this object, so the change goes there.
    if (dirs.has(dirName) || (fanned && blob)) toDir(dirName, change);
    else if (blob) list.push({ mode: BLOB_MODE, name: rest, oid: blob });
  }

  if (!fanned) {
    const notes = list.filter((e) => !isTree(e) && HEX.test(e.name) && e.name.length > 2);
    if (notes.length >= FANOUT_THRESHOLD) {
      const moving = new Set(notes);
      list = list.filter((e) => !moving.has(e));
      for (const n of notes) toDir(n.name.slice(0, 2), [prefix + n.name, n.oid]);
    }
  }

  for (const [dirName, dirChanges] of byDir) {
    const existing = list.find((e) => isTree(e) && e.name === dirName);
    const sub = editNotesTree(existing ? lookup(existing.oid) : [], prefix + dirName, dirChanges, lookup, write);
    list = list.filter((e) => e !== existing);
    if (sub.length) list.push({ mode: TREE_MODE, name: dirName, oid: write(sub) });
  }
  return list;
}

/** What editing the notes on some objects needs from a notes ref. */
export interface NotesSnapshot {
  commit: string | null;
  tree: string | null;
  lookup: TreeLookup;
  /** The note attached to `object`, as text, or null. */
  noteText(object: string): string | null;
}

/**
 * Reads, with one `git cat-file --batch`, the ref's commit and root tree, and
 * every directory and note path an object's note can have at fanout 0, 1 or 2.
 * Each line resolves the ref anew; if it moved meanwhile, the compare-and-swap
 * against `commit` fails and the caller starts over, so a torn read is harmless.
 */
export function readNotesSnapshot(repo: Repo, ref: string, objects: readonly string[], options: { notes: boolean } = { notes: true }): NotesSnapshot {
  // Few objects: name every candidate path, one process. Many: paths resolve slowly one by one,
  // so read the root, then the subtrees it lists by id, two processes.
  const many = objects.length > 32;
  const paths = new Set<string>();
  for (const o of many ? [] : objects) {
    const [a, b] = [o.slice(0, 2), o.slice(2, 4)];
    const candidates = options.notes ? [a, `${a}/${b}`, o, `${a}/${o.slice(2)}`, `${a}/${b}/${o.slice(4)}`] : [a, `${a}/${b}`];
    for (const p of candidates) paths.add(p);
  }
  const got = readBatch(repo, [ref, `${ref}^{tree}`, ...[...paths].map((p) => `${ref}:${p}`)]);
  if (many && got[1]?.type === 'tree') {
    const dirs = new Set(objects.map((o) => o.slice(0, 2)));
    const root = parseTree(got[1].content, repo.objectFormat === 'sha256' ? 32 : 20);
    got.push(...readBatch(repo, root.filter((e) => isTree(e) && dirs.has(e.name)).map((e) => e.oid)));
  }
  const oidBytes = repo.objectFormat === 'sha256' ? 32 : 20;
  const trees = new Map<string, TreeEntry[]>();
  const blobs = new Map<string, Buffer>();
  for (const obj of got) {
    if (obj?.type === 'tree') trees.set(obj.oid, parseTree(obj.content, oidBytes));
    else if (obj?.type === 'blob') blobs.set(obj.oid, obj.content);
  }
  const load = (oid: string): GitObject => {
    const obj = readObjects(repo, [oid]).get(oid);
    if (!obj) throw new Error(`object ${oid} in ${ref} is missing`);
    return obj;
  };
  const lookup: TreeLookup = (oid) => {
    let entries = trees.get(oid);
    if (!entries) trees.set(oid, (entries = parseTree(load(oid).content, oidBytes)));
    return entries;
  };
  const commit = got[0]?.type === 'commit' ? got[0].oid : null;
  const tree = commit && got[1]?.type === 'tree' ? got[1].oid : null;
  if (many && options.notes && tree) {
    // Every note blob in one more process, rather than one per object later.
    const wanted = objects.map((o) => findNote(lookup, lookup(tree), o)).filter((b): b is string => !!b);
    for (const [oid, obj] of readObjects(repo, wanted)) blobs.set(oid, obj.content);
  }
  return {
    commit,
    tree,
    lookup,
    noteText(object) {
      const blob = tree ? findNote(lookup, lookup(tree), object) : null;
      if (!blob) return null;
      return (blobs.get(blob) ?? load(blob).content).toString('utf8');
    },
  };
}

/**
 * Notes trees as git lays them out: a note for object X is a blob named X, or,
 * once a level holds many notes, `X[0:2]/X[2:]` (and deeper). Git reads every
 * layout; a writer must find an existing note at any level, or it leaves two
 * notes for one object (isomorphic-git's notes API does exactly that).
 */
import { type GitObject, readObjects } from './objects.ts';
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

/** Loads, level by level with one process per level, every tree on the paths to `objects`. */
export function loadNotesTrees(repo: Repo, root: string | null, objects: readonly string[]): Map<string, TreeEntry[]> {
  const cache = new Map<string, TreeEntry[]>();
  const oidBytes = repo.objectFormat === 'sha256' ? 32 : 20;
  let frontier = root ? [{ oid: root, consumed: 0, objects }] : [];
  while (frontier.length) {
    const read: Map<string, GitObject> = readObjects(
      repo,
      frontier.map((f) => f.oid),
    );
    const next = new Map<string, { oid: string; consumed: number; objects: string[] }>();
    for (const f of frontier) {
      const obj = read.get(f.oid);
      if (!obj || obj.type !== 'tree') throw new Error(`notes tree ${f.oid} is missing`);
      const entries = parseTree(obj.content, oidBytes);
      cache.set(f.oid, entries);
      for (const object of f.objects) {
        const dir = entries.find((e) => isTree(e) && e.name === object.slice(f.consumed, f.consumed + 2));
        if (!dir || cache.has(dir.oid)) continue;
        const item = next.get(dir.oid) ?? { oid: dir.oid, consumed: f.consumed + 2, objects: [] };
        item.objects.push(object);
        next.set(dir.oid, item);
      }
    }
    frontier = [...next.values()];
  }
  return cache;
}

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { editNotesTree, FANOUT_THRESHOLD, findNote, type NoteChange } from '../../src/stores/git/notes-tree.ts';
import { BLOB_MODE, TREE_MODE, type TreeEntry } from '../../src/stores/git/tree.ts';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
const objectId = (i: number | string) => sha1(`object ${i}`);
const blobId = (i: number | string) => sha1(`note ${i}`);

/** An in-memory object store: trees are hashed from their sorted entries. */
function fakeStore() {
  const trees = new Map<string, TreeEntry[]>();
  const write = (entries: TreeEntry[]): string => {
    const sorted = [...entries].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const oid = sha1(`tree ${JSON.stringify(sorted)}`);
    trees.set(oid, sorted);
    return oid;
  };
  const lookup = (oid: string): TreeEntry[] => {
    const t = trees.get(oid);
    if (!t) throw new Error(`no tree ${oid}`);
    return t;
  };
  return { trees, write, lookup };
}

/** Every note in the tree as [object id, blob], reconstructing ids from the path. */
function allNotes(lookup: (oid: string) => TreeEntry[], entries: TreeEntry[], prefix = ''): Array<[string, string]> {
  return entries.flatMap((e): Array<[string, string]> =>
    e.mode === TREE_MODE ? allNotes(lookup, lookup(e.oid), prefix + e.name) : [[prefix + e.name, e.oid]],
  );
}

function add(n: number, from = 0): NoteChange[] {
  return Array.from({ length: n }, (_, k) => [objectId(from + k), blobId(from + k)] as const);
}

const sortPairs = (pairs: Array<[string, string]>) => [...pairs].sort((a, b) => a[0].localeCompare(b[0]));
const expectedPairs = (changes: readonly NoteChange[]) => sortPairs(changes.map(([o, b]) => [o, b!]));

describe('editNotesTree: layout', () => {
  it('fans out at 256 notes, as git does past 255', () => {
    expect(FANOUT_THRESHOLD).toBe(256);
  });

  it('keeps a tree of 255 notes flat', () => {
    const { write, lookup } = fakeStore();
    const changes = add(255);
    const root = editNotesTree([], '', changes, lookup, write);
    expect(root).toHaveLength(255);
    expect(root.every((e) => e.mode === BLOB_MODE)).toBe(true);
    expect(sortPairs(root.map((e) => [e.name, e.oid]))).toEqual(expectedPairs(changes));
  });

  it('stays flat while notes are added one by one, and fans out on the 256th', () => {
    const { write, lookup } = fakeStore();
    let root: TreeEntry[] = [];
    for (let i = 0; i < 255; i++) root = editNotesTree(root, '', add(1, i), lookup, write);
    expect(root).toHaveLength(255);
    expect(root.some((e) => e.mode === TREE_MODE)).toBe(false);

    root = editNotesTree(root, '', add(1, 255), lookup, write);
    expect(root.length).toBeGreaterThan(0);
    for (const e of root) {
      expect(e.mode).toBe(TREE_MODE);
      expect(e.name).toMatch(/^[0-9a-f]{2}$/);
      for (const sub of lookup(e.oid)) {
        expect(sub.mode).toBe(BLOB_MODE);
        expect(sub.name).toHaveLength(38);
      }
    }
    expect(new Set(root.map((e) => e.name)).size).toBe(root.length);
    expect(sortPairs(allNotes(lookup, root))).toEqual(expectedPairs(add(256)));
  });

  it('fans out a batch of 256 notes written at once', () => {
    const { write, lookup } = fakeStore();
    const root = editNotesTree([], '', add(256), lookup, write);
    expect(root.every((e) => e.mode === TREE_MODE && /^[0-9a-f]{2}$/.test(e.name))).toBe(true);
    expect(sortPairs(allNotes(lookup, root))).toEqual(expectedPairs(add(256)));
  });

  it('keeps other entries (non-notes) where they are', () => {
    const { write, lookup } = fakeStore();
    const readme: TreeEntry = { mode: BLOB_MODE, name: 'README', oid: blobId('readme') };
    const root = editNotesTree([readme], '', add(256), lookup, write);
    expect(root).toContainEqual(readme);
    expect(allNotes(lookup, root.filter((e) => e !== readme))).toHaveLength(256);
  });

  it('fans out a second level when 256 notes share their first two hex chars', () => {
    const { write, lookup } = fakeStore();
    const changes: NoteChange[] = Array.from({ length: 256 }, (_, i) => [`ab${sha1(`deep ${i}`).slice(0, 38)}`, blobId(`deep ${i}`)] as const);
    const root = editNotesTree([], '', changes, lookup, write);
    expect(root.map((e) => [e.mode, e.name])).toEqual([[TREE_MODE, 'ab']]);
    const level1 = lookup(root[0]!.oid);
    expect(level1.every((e) => e.mode === TREE_MODE && /^[0-9a-f]{2}$/.test(e.name))).toBe(true);
    expect(sortPairs(allNotes(lookup, root))).toEqual(expectedPairs(changes));
    for (const [object, blob] of changes) expect(findNote(lookup, root, object)).toBe(blob);
  });
});

describe('editNotesTree: edits', () => {
  it('replaces a note in a flat tree without duplicating it', () => {
    const { write, lookup } = fakeStore();
    let root = editNotesTree([], '', add(10), lookup, write);
    root = editNotesTree(root, '', [[objectId(3), blobId('new')]], lookup, write);
    expect(root).toHaveLength(10);
    expect(root.filter((e) => e.name === objectId(3))).toEqual([{ mode: BLOB_MODE, name: objectId(3), oid: blobId('new') }]);
  });

  it('removes a note from a flat tree and keeps the others', () => {
    const { write, lookup } = fakeStore();
    let root = editNotesTree([], '', add(10), lookup, write);
    root = editNotesTree(root, '', [[objectId(3), null]], lookup, write);
    expect(sortPairs(allNotes(lookup, root))).toEqual(expectedPairs(add(10).filter(([o]) => o !== objectId(3))));
  });

  it('replaces a note in a fanned tree in place', () => {
    const { write, lookup } = fakeStore();
    let root = editNotesTree([], '', add(300), lookup, write);
    root = editNotesTree(root, '', [[objectId(42), blobId('new')]], lookup, write);
    const notes = allNotes(lookup, root);
    expect(notes).toHaveLength(300);
    expect(notes.filter(([o]) => o === objectId(42))).toEqual([[objectId(42), blobId('new')]]);
    expect(findNote(lookup, root, objectId(42))).toBe(blobId('new'));
  });

  it('adds a new note to a fanned tree inside a fan-out directory', () => {
    const { write, lookup } = fakeStore();
    let root = editNotesTree([], '', add(300), lookup, write);
    root = editNotesTree(root, '', add(1, 1000), lookup, write);
    expect(root.every((e) => e.mode === TREE_MODE)).toBe(true);
    expect(findNote(lookup, root, objectId(1000))).toBe(blobId(1000));
    expect(allNotes(lookup, root)).toHaveLength(301);
  });

  describe('a fanned tree holding a flat root note written by another tool', () => {
    function setup(objectWithDir: boolean) {
      const store = fakeStore();
      const fanned = editNotesTree([], '', add(300), store.lookup, store.write);
      const dirs = new Set(fanned.map((e) => e.name));
      // An object whose fan-out directory already exists, or one whose directory does not.
      let i = 5000;
      while (dirs.has(objectId(i).slice(0, 2)) !== objectWithDir) i++;
      const object = objectId(i);
      const root: TreeEntry[] = [...fanned, { mode: BLOB_MODE, name: object, oid: blobId('old') }];
      expect(findNote(store.lookup, root, object)).toBe(blobId('old'));
      return { ...store, root, object };
    }

    for (const withDir of [true, false]) {
      const label = withDir ? 'its fan-out directory exists' : 'its fan-out directory does not exist';
      it(`replacing it leaves exactly one note for that object (${label})`, () => {
        const { write, lookup, root, object } = setup(withDir);
        const next = editNotesTree(root, '', [[object, blobId('new')]], lookup, write);
        expect(allNotes(lookup, next).filter(([o]) => o === object)).toEqual([[object, blobId('new')]]);
        expect(next.some((e) => e.name === object)).toBe(false);
        expect(findNote(lookup, next, object)).toBe(blobId('new'));
        expect(allNotes(lookup, next)).toHaveLength(301);
      });

      it(`removing it removes the note (${label})`, () => {
        const { write, lookup, root, object } = setup(withDir);
        const next = editNotesTree(root, '', [[object, null]], lookup, write);
        expect(allNotes(lookup, next).filter(([o]) => o === object)).toEqual([]);
        expect(findNote(lookup, next, object)).toBeNull();
        expect(allNotes(lookup, next)).toHaveLength(300);
      });
    }
  });

  it('removes a fan-out directory when its last note is removed', () => {
    const { write, lookup } = fakeStore();
    const root = editNotesTree([], '', add(300), lookup, write);
    const single = root.find((e) => lookup(e.oid).length === 1)!;
    expect(single).toBeDefined();
    const object = single.name + lookup(single.oid)[0]!.name;
    const next = editNotesTree(root, '', [[object, null]], lookup, write);
    expect(next.some((e) => e.name === single.name)).toBe(false);
    expect(next).toHaveLength(root.length - 1);
    expect(allNotes(lookup, next)).toHaveLength(299);
    expect(findNote(lookup, next, object)).toBeNull();
  });

  it('keeps a fan-out directory that still holds notes', () => {
    const { write, lookup } = fakeStore();
    const root = editNotesTree([], '', add(300), lookup, write);
    const multi = root.find((e) => lookup(e.oid).length >= 2)!;
    const object = multi.name + lookup(multi.oid)[0]!.name;
    const next = editNotesTree(root, '', [[object, null]], lookup, write);
    const dir = next.find((e) => e.name === multi.name)!;
    expect(lookup(dir.oid)).toHaveLength(lookup(multi.oid).length - 1);
  });

  it('removing a note that does not exist changes nothing', () => {
    const { write, lookup } = fakeStore();
    const root = editNotesTree([], '', add(300), lookup, write);
    const next = editNotesTree(root, '', [[objectId('missing'), null]], lookup, write);
    expect(sortPairs(allNotes(lookup, next))).toEqual(sortPairs(allNotes(lookup, root)));
  });

  it('applies several adds, replaces and removes in one batch', () => {
    const { write, lookup } = fakeStore();
    const root = editNotesTree([], '', add(300), lookup, write);
    const batch: NoteChange[] = [
      [objectId(1), null],
      [objectId(2), blobId('two v2')],
      [objectId(999), blobId(999)],
    ];
    const next = editNotesTree(root, '', batch, lookup, write);
    const expected = new Map(add(300).map(([o, b]) => [o, b!]));
    expected.delete(objectId(1));
    expected.set(objectId(2), blobId('two v2'));
    expected.set(objectId(999), blobId(999));
    expect(sortPairs(allNotes(lookup, next))).toEqual(sortPairs([...expected]));
  });

  it('does not modify the entries it was given', () => {
    const { write, lookup } = fakeStore();
    const root = editNotesTree([], '', add(5), lookup, write);
    const copy = structuredClone(root);
    editNotesTree(root, '', [[objectId(0), null], [objectId(7), blobId(7)]], lookup, write);
    expect(root).toEqual(copy);
  });
});

describe('findNote', () => {
  const { write, lookup } = fakeStore();
  const obj = 'abcdef0123456789abcdef0123456789abcdef01';

  it('finds a note at the root', () => {
    expect(findNote(lookup, [{ mode: BLOB_MODE, name: obj, oid: blobId('flat') }], obj)).toBe(blobId('flat'));
  });

  it('finds a note one level down', () => {
    const ab = write([{ mode: BLOB_MODE, name: obj.slice(2), oid: blobId('one') }]);
    expect(findNote(lookup, [{ mode: TREE_MODE, name: 'ab', oid: ab }], obj)).toBe(blobId('one'));
  });

  it('finds a note two and three levels down', () => {
    const cd = write([{ mode: BLOB_MODE, name: obj.slice(4), oid: blobId('two') }]);
    const ab = write([{ mode: TREE_MODE, name: 'cd', oid: cd }]);
    expect(findNote(lookup, [{ mode: TREE_MODE, name: 'ab', oid: ab }], obj)).toBe(blobId('two'));

    const ef = write([{ mode: BLOB_MODE, name: obj.slice(6), oid: blobId('three') }]);
    const cd3 = write([{ mode: TREE_MODE, name: 'ef', oid: ef }]);
    const ab3 = write([{ mode: TREE_MODE, name: 'cd', oid: cd3 }]);
    expect(findNote(lookup, [{ mode: TREE_MODE, name: 'ab', oid: ab3 }], obj)).toBe(blobId('three'));
  });

  it('finds a flat root note in a fanned tree, and a note in a directory next to it', () => {
    const other = 'ab' + '1'.repeat(38);
    const ab = write([{ mode: BLOB_MODE, name: other.slice(2), oid: blobId('in dir') }]);
    const root: TreeEntry[] = [
      { mode: TREE_MODE, name: 'ab', oid: ab },
      { mode: BLOB_MODE, name: obj, oid: blobId('flat') },
    ];
    expect(findNote(lookup, root, obj)).toBe(blobId('flat'));
    expect(findNote(lookup, root, other)).toBe(blobId('in dir'));
  });

  it('returns null when there is no note', () => {
    const ab = write([{ mode: BLOB_MODE, name: '2'.repeat(38), oid: blobId('x') }]);
    expect(findNote(lookup, [], obj)).toBeNull();
    expect(findNote(lookup, [{ mode: TREE_MODE, name: 'ab', oid: ab }], obj)).toBeNull();
    expect(findNote(lookup, [{ mode: TREE_MODE, name: 'ab', oid: ab }], 'cd' + '0'.repeat(38))).toBeNull();
  });

  it('does not take a directory for a note', () => {
    // A tree entry named like the whole object id is not a note.
    const t = write([]);
    expect(findNote(lookup, [{ mode: TREE_MODE, name: obj, oid: t }], obj)).toBeNull();
  });

  it('finds every note of a tree it built', () => {
    const store = fakeStore();
    const root = editNotesTree([], '', add(700), store.lookup, store.write);
    for (const [object, blob] of add(700)) expect(findNote(store.lookup, root, object)).toBe(blob);
  });
});

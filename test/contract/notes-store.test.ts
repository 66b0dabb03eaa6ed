/**
 * One suite, two implementations: GitNotesStore against a real repository and
 * MemoryNotesStore in memory must behave alike, so services tested against
 * the fake hold against git (git-bug's repository test suites are the model).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { mergeNotes } from '../../src/core/merge.ts';
import { GitNotesStore, type NotesStore } from '../../src/stores/git/notes-store.ts';
import { openRepo } from '../../src/stores/git/repo.ts';
import { MemoryNotesStore } from '../fakes/memory-notes-store.ts';

interface Subject {
  store: NotesStore;
  /** Points a namespace's ref at a commit (to build diverging histories). */
  setTip(namespace: string, commit: string | null): void;
}

function gitSubject(): Subject {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-contract-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
  spawnSync('git', ['init', '-q', dir], { env });
  const repo = openRepo(dir, env);
  const store = new GitNotesStore(repo, () => 'Test <test@example.com> 1700000000 +0000');
  return {
    store,
    setTip: (ns, commit) => {
      const args = commit ? ['update-ref', `refs/notes/mem/${ns}`, commit] : ['update-ref', '-d', `refs/notes/mem/${ns}`];
      spawnSync('git', args, { cwd: dir, env });
    },
  };
}

function memorySubject(): Subject {
  const store = new MemoryNotesStore();
  return { store, setTip: (ns, commit) => store.setTip(ns, commit) };
}

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

/** Sets notes on objects in one update. */
function put(store: NotesStore, ns: string, notes: Record<string, string | null>) {
  return store.update(ns, Object.keys(notes), () => ({ changes: new Map(Object.entries(notes)), message: 'put' }));
}

function notesAt(store: NotesStore, commit: string): Record<string, string> {
  const list = store.listNotes(commit);
  const texts = store.readTexts(list.map((n) => n.blob));
  return Object.fromEntries(list.map((n) => [n.object, texts.get(n.blob)!]).sort());
}

const doc = (key: string, summary: string, updated = '2026-01-01T00:00:00Z') => `---\nid: ${key}\ntype: decisions\ntimestamp: 2026-01-01T00:00:00Z\nupdated: ${updated}\nsummary: ${summary}\n---\n`;

for (const [name, make] of [['GitNotesStore', gitSubject], ['MemoryNotesStore', memorySubject]] as const) {
  describe(`NotesStore contract: ${name}`, () => {
    it('starts empty, writes and removes notes, and names blobs as git does', () => {
      const { store } = make();
      expect(store.tips().size).toBe(0);
      const first = put(store, 'decisions', { [A]: 'one\n', [B]: 'two\n' })!;
      expect(first.previous).toBeNull();
      expect(store.tips().get('decisions')).toBe(first.commit);
      expect(notesAt(store, first.commit)).toEqual({ [A]: 'one\n', [B]: 'two\n' });
      // git's blob id of "one\n".
      expect(store.listNotes(first.commit).find((n) => n.object === A)!.blob).toBe('5626abf0f72e58d7a153368ba57db4c673c0e171');
      const second = put(store, 'decisions', { [A]: null })!;
      expect(second.previous).toBe(first.commit);
      expect(notesAt(store, second.commit)).toEqual({ [B]: 'two\n' });
      expect(store.diffNotes(first.commit, second.commit)).toEqual([{ object: A, oldBlob: store.listNotes(first.commit).find((n) => n.object === A)!.blob, blob: null }]);
    });

    it('reads changed notes old and new: appended, edited in place, new, and with multi-byte text', () => {
      const { store } = make();
      const first = put(store, 'decisions', { [A]: 'über one\n', [B]: 'two\n' })!;
      const second = put(store, 'decisions', { [A]: 'über one\nand more ✓\n', [B]: 'TWO\n', [C]: 'three\n' })!;
      const changes = store.diffNotes(first.commit, second.commit).map((d) => ({ oldBlob: d.oldBlob, blob: d.blob! }));
      expect(changes).toHaveLength(3);
      const all = changes.flatMap((c) => (c.oldBlob ? [c.oldBlob, c.blob] : [c.blob]));
      expect(store.readChangedTexts(changes)).toEqual(store.readTexts(all));
      expect([...store.readChangedTexts(changes).values()].sort()).toEqual(['TWO\n', 'three\n', 'two\n', 'über one\n', 'über one\nand more ✓\n']);
    });

    it('writes nothing when modify returns null or changes nothing', () => {
      const { store } = make();
      const first = put(store, 'decisions', { [A]: 'one\n' })!;
      expect(store.update('decisions', [A], () => null)).toBeNull();
      expect(put(store, 'decisions', { [A]: 'one\n' })).toBeNull();
      expect(store.tips().get('decisions')).toBe(first.commit);
    });

    it('redoes modify on fresh state when the ref moved meanwhile: no write is lost', () => {
      const { store } = make();
      put(store, 'decisions', { [A]: 'base\n' });
      let calls = 0;
      store.update('decisions', [A], (current) => {
        calls++;
        // Another writer gets in between the read and the swap, once.
        if (calls === 1) put(store, 'decisions', { [B]: 'theirs\n' });
        return { changes: new Map([[A, `${current.get(A)!.trim()} + mine\n`]]), message: 'mine' };
      });
      expect(calls).toBe(2);
      expect(notesAt(store, store.tips().get('decisions')!)).toEqual({ [A]: 'base + mine\n', [B]: 'theirs\n' });
    });

    it('moves several namespaces together, and skips those with nothing to write', () => {
      const { store } = make();
      const results = store.updateAll([
        { namespace: 'decisions', objects: [A], modify: () => ({ changes: new Map([[A, 'd\n']]), message: 'm' }) },
        { namespace: 'learnings', objects: [A], modify: () => ({ changes: new Map([[A, 'l\n']]), message: 'm' }) },
        { namespace: 'blockers', objects: [A], modify: () => null },
      ]);
      expect(results).toHaveLength(2);
      expect([...store.tips().keys()].sort()).toEqual(['decisions', 'learnings']);
    });

    it('keeps every note at any fanout (300 notes in one commit)', () => {
      const { store } = make();
      const notes = Object.fromEntries(Array.from({ length: 300 }, (_, i) => [i.toString(16).padStart(40, '0'), `note ${i}\n`]));
      put(store, 'decisions', notes);
      expect(Object.keys(notesAt(store, store.tips().get('decisions')!))).toHaveLength(300);
      put(store, 'decisions', { [A]: 'one more\n' });
      expect(notesAt(store, store.tips().get('decisions')!)[A]).toBe('one more\n');
    });

    it('merges: up to date, fast-forward, and a merge commit that keeps both sides', () => {
      const { store, setTip } = make();
      const merger = (object: string, ours: Uint8Array | null, theirs: Uint8Array) => mergeNotes('decisions', object, ours, theirs);
      const base = put(store, 'decisions', { [A]: doc('0000000000000001', 'base') })!.commit;
      const theirs = put(store, 'decisions', { [B]: doc('0000000000000002', 'theirs on B'), [A]: doc('0000000000000001', 'edited by them', '2026-01-02T00:00:00Z') })!.commit;
      setTip('decisions', base);
      expect(store.merge('decisions', base, merger, 'merge')).toMatchObject({ kind: 'up-to-date', commit: base });
      expect(store.merge('decisions', theirs, merger, 'merge')).toMatchObject({ kind: 'fast-forward', commit: theirs });
      setTip('decisions', base);
      put(store, 'decisions', { [C]: doc('0000000000000003', 'ours on C'), [A]: `${doc('0000000000000001', 'base')}\n${doc('0000000000000004', 'ours too on A')}` });
      const outcome = store.merge('decisions', theirs, merger, 'merge');
      expect(outcome.kind).toBe('merged');
      const merged = notesAt(store, outcome.commit);
      expect(Object.keys(merged).sort()).toEqual([A, B, C]);
      expect(merged[A]).toContain('edited by them');
      expect(merged[A]).toContain('ours too on A');
      expect(store.merge('decisions', theirs, merger, 'merge').kind).toBe('up-to-date');
      expect(store.tips().get('decisions')).toBe(outcome.commit);
    });

    it('redoes a merge on fresh state when the ref moved meanwhile: neither the capture nor their notes are lost', () => {
      const { store, setTip } = make();
      const base = put(store, 'decisions', { [A]: doc('0000000000000001', 'base') })!.commit;
      const theirs = put(store, 'decisions', { [B]: doc('0000000000000002', 'theirs on B') })!.commit;
      setTip('decisions', base);
      put(store, 'decisions', { [C]: doc('0000000000000003', 'ours on C') });
      let calls = 0;
      const outcome = store.merge(
        'decisions',
        theirs,
        (object, ours, their) => {
          // A capture lands between the merge's read and its swap, once.
          if (calls++ === 0) put(store, 'decisions', { [A]: `${doc('0000000000000001', 'base')}\n${doc('0000000000000004', 'captured meanwhile')}` });
          return mergeNotes('decisions', object, ours, their);
        },
        'merge',
      );
      expect(calls).toBeGreaterThan(1);
      expect(store.tips().get('decisions')).toBe(outcome.commit);
      const merged = notesAt(store, outcome.commit);
      expect(Object.keys(merged).sort()).toEqual([A, B, C]);
      expect(merged[A]).toContain('captured meanwhile');
    });
  });
}

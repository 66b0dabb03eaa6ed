/**
 * git-mem's notes: one ref per namespace. Reads batch objects through one
 * process; every write is a new notes commit published with a compare-and-swap
 * (`git update-ref <ref> <new> <old>`), redone from fresh state on conflict.
 */
import { ConflictError, GitError } from '../../core/errors.ts';
import { sleepSync } from '../../io/processes.ts';
import { NOTES_REF_PREFIX, notesRef } from '../../core/namespaces.ts';
import { hashObject, objectSizes, readObjects, writeObject } from './objects.ts';
import { editNotesTree, readNotesSnapshot } from './notes-tree.ts';
import type { Repo } from './repo.ts';
import { serializeTree, type TreeEntry } from './tree.ts';

export interface NoteRef {
  object: string;
  blob: string;
}

export interface NoteDiff {
  object: string;
  /** The note blob before, or null. */
  oldBlob: string | null;
  /** The note blob after, or null when removed. */
  blob: string | null;
}

export interface NotesUpdate {
  /** object → new note text, or null to remove its note. */
  changes: Map<string, string | null>;
  message: string;
}

export interface MergeOutcome {
  kind: 'up-to-date' | 'fast-forward' | 'merged';
  commit: string;
  /** Sum over the notes that differed, as reported by the note merger. */
  incoming: number;
  merged: number;
}

/**
 * Merges two versions of the note on `object` (their bytes; `ours` is null when
 * only theirs has one). Returns the merged text, or `theirs` or `ours` itself
 * when one of them is the result.
 */
export type NoteMerger = (object: string, ours: Uint8Array | null, theirs: Uint8Array) => { text: string | Uint8Array; incoming: number; merged: number };

export interface UpdateResult {
  commit: string;
  previous: string | null;
}

const MAX_ATTEMPTS = 80;

/** What git says when a ref is locked or moved since it was read: try again from fresh state. */
const CAS_FAILURE = /lock|expected|exists|is at/i;


/** Randomised, growing pause between attempts, so parallel writers fall out of step. */
function backoff(attempt: number): void {
  sleepSync(Math.min(50, 2 + attempt * 2) * (0.5 + Math.random()));
}

/** A request of updateAll: one namespace's notes on some objects, changed by `modify`. */
export interface NotesRequest {
  namespace: string;
  objects: readonly string[];
  modify: (current: Map<string, string | null>) => NotesUpdate | null;
}

/**
 * git-mem's notes: what services and the index need of them. The real one is
 * GitNotesStore; test/fakes/memory-notes-store.ts keeps them in memory, and
 * test/contract/notes-store.test.ts holds both to the same behaviour.
 */
export interface NotesStore {
  /** Current tip commit of every namespace's ref. */
  tips(): Map<string, string>;
  /** Every note in a notes commit. */
  listNotes(commit: string): NoteRef[];
  /** Notes that differ between two notes commits, one entry per object. */
  diffNotes(from: string, to: string): NoteDiff[];
  /** Note blobs' texts by blob id (missing ones absent). */
  readTexts(blobs: readonly string[]): Map<string, string>;
  /**
   * readTexts() of the old and new blobs of changed notes. A note that only
   * gained text at its end holds its old text as a prefix: then the old blob is
   * not read (its id is checked against the hash of that prefix).
   */
  readChangedTexts(changes: ReadonlyArray<{ oldBlob: string | null; blob: string }>): Map<string, string>;
  /** Read-modify-write of the notes on `objects`, retried from fresh state until the compare-and-swap holds. */
  update(namespace: string, objects: readonly string[], modify: NotesRequest['modify']): UpdateResult | null;
  /** update() for several namespaces, their refs moved together (all or none). */
  updateAll(requests: readonly NotesRequest[]): UpdateResult[];
  /** Merges the notes commit `theirs` into a namespace: fast-forward, or a merge commit whose notes `mergeNote` merged. */
  merge(namespace: string, theirs: string, mergeNote: NoteMerger, message: string): MergeOutcome;
}

export class GitNotesStore implements NotesStore {
  constructor(
    readonly repo: Repo,
    /** `Name <email> <epoch> <tz>`, as `git var GIT_COMMITTER_IDENT` prints it (secrets redacted by the caller); asked for only when writing. */
    private readonly ident: () => string,
    /** Sign the notes commits (mem.sign, else commit.gpgSign) with the user's gpg or ssh key, as `git commit -S` would. */
    private readonly sign: () => boolean = () => false,
  ) {}

  /** Current tip commit of every namespace's ref (packed or loose). */
  tips(): Map<string, string> {
    const out = this.repo.git.run(['for-each-ref', '--format=%(refname) %(objectname)', NOTES_REF_PREFIX]);
    const tips = new Map<string, string>();
    for (const line of out.split('\n')) {
      const [ref, oid] = line.split(' ');
      if (ref && oid) tips.set(ref.slice(NOTES_REF_PREFIX.length), oid);
    }
    return tips;
  }

  /** Every note in a notes commit, at whatever fanout. */
  listNotes(commit: string): NoteRef[] {
    const out = this.repo.git.run(['ls-tree', '-r', '-z', commit]);
    const notes: NoteRef[] = [];
    for (const rec of out.split('\0')) {
      const tab = rec.indexOf('\t');
      if (tab < 0) continue;
      const [, type, blob] = rec.slice(0, tab).split(' ');
      const object = rec.slice(tab + 1).replaceAll('/', '');
      if (type === 'blob' && blob) notes.push({ object, blob });
    }
    return notes;
  }

  /**
   * Notes that differ between two notes commits, one entry per object: its note
   * blob in `from` and in `to` (null where it has none). Paths that differ only
   * by fanout are the same object.
   */
  diffNotes(from: string, to: string): NoteDiff[] {
    const out = this.repo.git.run(['diff-tree', '-r', '-z', '--no-renames', from, to]);
    const fields = out.split('\0');
    const byObject = new Map<string, NoteDiff>();
    const ZERO = /^0+$/;
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [, , oldBlob = '', newBlob = ''] = fields[i]!.split(' ');
      const object = fields[i + 1]!.replaceAll('/', '');
      const entry = byObject.get(object) ?? { object, oldBlob: null, blob: null };
      if (!ZERO.test(oldBlob)) entry.oldBlob = oldBlob;
      if (!ZERO.test(newBlob)) entry.blob = newBlob;
      byObject.set(object, entry);
    }
    return [...byObject.values()].filter((d) => d.oldBlob !== d.blob);
  }

  readTexts(blobs: readonly string[]): Map<string, string> {
    const texts = new Map<string, string>();
    for (const [oid, obj] of readObjects(this.repo, blobs)) texts.set(oid, obj.content.toString('utf8'));
    return texts;
  }

  readChangedTexts(changes: ReadonlyArray<{ oldBlob: string | null; blob: string }>): Map<string, string> {
    const texts = new Map<string, string>();
    const news = readObjects(this.repo, changes.map((c) => c.blob));
    // Sizes are cheap to ask for (no content is inflated); a pull of 1,000 memories into notes of 50 read 40 MB before.
    const sizes = objectSizes(this.repo, changes.flatMap((c) => (c.oldBlob ? [c.oldBlob] : [])));
    const unread: string[] = [];
    for (const c of changes) {
      const content = news.get(c.blob)?.content;
      if (content) texts.set(c.blob, content.toString('utf8'));
      if (!c.oldBlob || texts.has(c.oldBlob)) continue;
      const size = sizes.get(c.oldBlob);
      const prefix = content && size !== undefined && size <= content.length ? content.subarray(0, size) : null;
      if (prefix && hashObject(this.repo.objectFormat, 'blob', prefix) === c.oldBlob) texts.set(c.oldBlob, prefix.toString('utf8'));
      else unread.push(c.oldBlob);
    }
    for (const [oid, text] of this.readTexts(unread)) texts.set(oid, text);
    return texts;
  }

  /**
   * Read-modify-write of the notes on `objects`, retried from fresh state until
   * the compare-and-swap succeeds. `modify` may run several times; it returns
   * null when there is nothing to write.
   */
  update(namespace: string, objects: readonly string[], modify: (current: Map<string, string | null>) => NotesUpdate | null): UpdateResult | null {
    return this.updateAll([{ namespace, objects, modify }])[0] ?? null;
  }

  /**
   * Like update, for several namespaces at once: one notes commit each, and
   * the refs move together in one `git update-ref --stdin` transaction (all or
   * none), retried from fresh state when any of them moved meanwhile. Returns
   * the refs that moved.
   */
  updateAll(requests: readonly NotesRequest[]): UpdateResult[] {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const prepared = requests.flatMap((r) => {
        const p = this.prepare(r.namespace, r.objects, r.modify);
        return p ? [p] : [];
      });
      if (prepared.length === 0) return [];
      if (this.swap(prepared)) return prepared.map((p) => ({ commit: p.commit, previous: p.previous }));
      backoff(attempt);
    }
    throw new ConflictError(`${requests.map((r) => notesRef(r.namespace)).join(', ')} kept changing; gave up after ${MAX_ATTEMPTS} attempts`, 'try again');
  }

  /** A notes commit: git-mem's identity as author and committer. */
  private writeCommit(tree: string, parents: readonly string[], message: string): string {
    const ident = this.ident();
    if (this.sign()) return this.signedCommit(tree, parents, message, ident);
    const lines = [`tree ${tree}`, ...parents.map((p) => `parent ${p}`), `author ${ident}`, `committer ${ident}`];
    return writeObject(this.repo, 'commit', `${lines.join('\n')}\n\n${message.trim()}\n`);
  }

  /** A signed notes commit: git's `commit-tree -S` signs it with user.signingKey and gpg.format, as a signed commit of the user's would be. */
  private signedCommit(tree: string, parents: readonly string[], message: string, ident: string): string {
    const m = /^(.*) <([^>]*)> (\d+ [+-]\d{4})$/.exec(ident);
    const env: Record<string, string> = m ? { GIT_AUTHOR_NAME: m[1]!, GIT_AUTHOR_EMAIL: m[2]!, GIT_AUTHOR_DATE: m[3]!, GIT_COMMITTER_NAME: m[1]!, GIT_COMMITTER_EMAIL: m[2]!, GIT_COMMITTER_DATE: m[3]! } : {};
    const r = this.repo.git.exec(['commit-tree', '-S', ...parents.flatMap((p) => ['-p', p]), tree], { input: `${message.trim()}\n`, env });
    if (r.status !== 0) {
      const why = r.stderr.toString().trim().split('\n').at(-1) ?? '';
      throw new GitError(['commit-tree', '-S'], r.status, `cannot sign the notes commit (${why}); set up commit signing (user.signingKey, gpg.format) or turn it off: git config mem.sign false`);
    }
    return r.stdout.toString('utf8').trim();
  }

  /**
   * Moves refs from the values read to new commits, all or none, in one
   * `git update-ref --stdin` transaction: the compare-and-swap every write
   * goes through. False when a ref moved meanwhile (or is locked): start over.
   */
  private swap(updates: ReadonlyArray<{ ref: string; commit: string; previous: string | null; message: string }>): boolean {
    const input = updates.map((u) => `update ${u.ref} ${u.commit} ${u.previous ?? '0'.repeat(u.commit.length)}\n`).join('');
    const r = this.repo.git.exec(['update-ref', '-m', updates[0]!.message, '--stdin'], { input });
    if (r.status === 0) return true;
    if (!CAS_FAILURE.test(r.stderr)) throw new GitError(['update-ref', ...updates.map((u) => u.ref)], r.status, r.stderr);
    return false;
  }

  /** A notes commit with `modify`'s changes on top of the ref's current tip, not yet published; null when nothing changes. */
  private prepare(namespace: string, objects: readonly string[], modify: (current: Map<string, string | null>) => NotesUpdate | null) {
    const ref = notesRef(namespace);
    const snap = readNotesSnapshot(this.repo, ref, objects);
    const previous = snap.commit;
    const root = snap.tree ? snap.lookup(snap.tree) : [];
    const current = new Map(objects.map((o) => [o, snap.noteText(o)] as const));
    const next = modify(current);
    if (!next || next.changes.size === 0) return null;
    const changes = [...next.changes].map(([object, text]) => [object, text === null ? null : writeObject(this.repo, 'blob', text)] as const);
    const write = (entries: TreeEntry[]) => writeObject(this.repo, 'tree', serializeTree(entries));
    const newTree = write(editNotesTree(root, '', changes, snap.lookup, write));
    if (newTree === snap.tree) return null;
    return { ref, previous, commit: this.writeCommit(newTree, previous ? [previous] : [], next.message), message: next.message.split('\n')[0]! };
  }

  /** The merge base of two commits, or null when their histories are unrelated. */
  private mergeBase(a: string, b: string): string | null {
    const r = this.repo.git.exec(['merge-base', a, b]);
    return r.status === 0 ? r.stdout.toString('utf8').trim() : null;
  }

  /**
   * Merges the notes commit `theirs` into a namespace's ref: fast-forward when
   * ours is behind, else a merge commit with parents (ours, theirs) whose notes
   * are merged by `mergeNote`. Published by compare-and-swap, redone on conflict.
   */
  merge(namespace: string, theirs: string, mergeNote: NoteMerger, message: string): MergeOutcome {
    const ref = notesRef(namespace);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const ours = this.repo.git.exec(['rev-parse', '-q', '--verify', `${ref}^{commit}`]).stdout.toString('utf8').trim() || null;
      if (ours === theirs) return { kind: 'up-to-date', commit: theirs, incoming: 0, merged: 0 };
      const base = ours ? this.mergeBase(ours, theirs) : null;
      if (ours && base === theirs) return { kind: 'up-to-date', commit: ours, incoming: 0, merged: 0 };

      // Only notes that differ matter; a note only ours has is kept as it is.
      const diff = (ours ? this.diffNotes(ours, theirs) : this.listNotes(theirs).map((n) => ({ object: n.object, oldBlob: null, blob: n.blob }))).filter((d) => d.blob);
      const blobs = readObjects(this.repo, diff.flatMap((d) => (d.oldBlob ? [d.oldBlob, d.blob!] : [d.blob!])));
      let incoming = 0;
      let merged = 0;
      // Merged notes: the text, or the blob id when it is exactly their note (already stored).
      const mergedNotes: Array<readonly [string, { text: string | Uint8Array } | { blob: string }]> = [];
      for (const d of diff) {
        const oursBytes = d.oldBlob ? (blobs.get(d.oldBlob)?.content ?? null) : null;
        const theirBytes = blobs.get(d.blob!)?.content ?? Buffer.alloc(0);
        const result = mergeNote(d.object, oursBytes, theirBytes);
        incoming += result.incoming;
        merged += result.merged;
        if (result.text === oursBytes) continue;
        mergedNotes.push([d.object, result.text === theirBytes ? { blob: d.blob! } : { text: result.text }]);
      }

      let commit = theirs;
      let kind: MergeOutcome['kind'] = 'fast-forward';
      if (ours && base !== ours) {
        const write = (entries: TreeEntry[]) => writeObject(this.repo, 'tree', serializeTree(entries));
        const changes = mergedNotes.map(([object, note]) => [object, 'blob' in note ? note.blob : writeObject(this.repo, 'blob', Buffer.from(note.text))] as const);
        const snap = readNotesSnapshot(this.repo, ours, changes.map(([object]) => object), { notes: false });
        const tree = write(editNotesTree(snap.tree ? snap.lookup(snap.tree) : [], '', changes, snap.lookup, write));
        commit = this.writeCommit(tree, [ours, theirs], message);
        kind = 'merged';
      }
      if (this.swap([{ ref, commit, previous: ours, message: message.split('\n')[0]! }])) return { kind, commit, incoming, merged };
      backoff(attempt);
    }
    throw new ConflictError(`${ref} kept changing during the merge; gave up after ${MAX_ATTEMPTS} attempts`, 'try again');
  }
}

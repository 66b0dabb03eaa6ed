/**
 * The term index catching up with the notes by itself, paying for the change
 * alone: a capture, a hook's captures, an import, most pulls add memories
 * under keys the notes did not hold; an edit or a forget replaces the one
 * revision of a key. Only the notes that changed are read; new documents go
 * to an overlay and replaced ones are marked removed in it (terms/build.ts
 * appendToTermIndex): no sql.js, no decoding of the existing dictionary.
 *
 * Anything else (a memory with copies or older revisions, a tombstone
 * removed, a note that does not parse cleanly) goes down the full path, the
 * SQLite index, which knows every revision and tombstone and so which
 * revision is current. "A new key" and "one revision" are read from the term
 * index's key hashes: a hash collision only sends the update down the full path.
 *
 * The SQLite index is not touched: it catches up from its own tips when a
 * command needs it, and then rewrites the main term index file from its rows
 * and removes the overlay.
 */
import type { Memory } from '../../../core/memory.ts';
import { appendedText, type NoteDoc, parseNote } from '../../../core/note-format.ts';
import type { NotesStore } from '../../git/notes-store.ts';
import { acquireLock } from '../../cache/lock.ts';
import { appendToTermIndex, writeTermIndex } from './build.ts';
import { keyHash, sortedUnique } from './format.ts';
import fs from 'node:fs';
import path from 'node:path';
import { GitError } from '../../../core/errors.ts';
import { removeDeadTemps } from '../../../io/atomic-write.ts';
import { sameTips, TermIndex } from './reader.ts';
import { tracePhase } from '../../../io/trace.ts';

/**
 * What the notes changed since the index's tips, as the term index applies it:
 * memories to add, documents of the index to remove, and keys the notes now
 * hold (`keys`) or hold more of than one current memory (`multiKeys`).
 */
export interface TermChange {
  /** New memories, and new revisions of edited ones. */
  added: Memory[];
  /** Documents of the index read from (an overlay's after its main file's) that are no longer current. */
  removed: number[];
  /** Keys the notes did not hold before. */
  keys: string[];
  /** Keys that now have a tombstone. */
  multiKeys: string[];
}

/**
 * The change from the index's tips to `tips`, when each changed document is
 * a new memory under a key the notes did not hold, an edit of a memory whose
 * key has no other revision and no tombstone, or such a memory forgotten or
 * removed: every one then changes one document. Null otherwise (a memory
 * with copies or older revisions, a tombstone removed, a note with
 * warnings...): only the full path knows which revision is current then.
 */
export function noteChanges(index: TermIndex, notes: NotesStore, tips: Record<string, string>): TermChange | null {
  const changes: Array<{ ns: string; object: string; oldBlob: string | null; blob: string }> = [];
  for (const ns of new Set([...Object.keys(tips), ...Object.keys(index.tips)])) {
    const from = index.tips[ns];
    const to = tips[ns];
    if (from === to) continue;
    // A namespace's ref deleted: its memories go, which only the full path does.
    if (!to) return null;
    let diff: Array<{ object: string; oldBlob: string | null; blob: string | null }>;
    try {
      diff = from ? notes.diffNotes(from, to) : notes.listNotes(to).map((n) => ({ object: n.object, oldBlob: null, blob: n.blob }));
    } catch (err) {
      // The tip it was built at is gone (a squashed notes history, then gc): the full path lists the notes afresh.
      if (err instanceof GitError) return null;
      throw err;
    }
    for (const d of diff) {
      if (!d.blob) return null;
      changes.push({ ns, object: d.object, oldBlob: d.oldBlob, blob: d.blob });
    }
  }
  const texts = notes.readChangedTexts(changes);
  const out: TermChange = { added: [], removed: [], keys: [], multiKeys: [] };
  // Each key changes once per update: a key in two notes (a copy made, a memory moved) takes the full path.
  const touched = new Set<string>();
  const touch = (key: string): boolean => {
    if (touched.has(key)) return false;
    touched.add(key);
    return true;
  };
  for (const c of changes) {
    const text = texts.get(c.blob);
    const before = c.oldBlob ? texts.get(c.oldBlob) : '';
    if (text === undefined || before === undefined) return null;
    // Usually the note gained documents at its end: only those are parsed (a note can hold hundreds).
    // Text in the tail that is not a memory (a paragraph appended by hand) belongs to the memory before
    // it in the whole note: then the whole note is compared.
    const tail = before ? appendedText(before, text) : null;
    const tailDocs = tail === null ? null : parseNote(tail, c.ns, c.object);
    const fromTail = tailDocs !== null && tailDocs.docs.every((d) => d.kind !== 'other');
    const now = fromTail ? tailDocs : parseNote(text, c.ns, c.object);
    const was = fromTail ? { docs: [], warnings: [] } : parseNote(before, c.ns, c.object);
    // Warnings are the full path's to report.
    if (now.warnings.length || was.warnings.length) return null;
    const unchanged = new Map<string, number>();
    for (const doc of was.docs) unchanged.set(doc.raw, (unchanged.get(doc.raw) ?? 0) + 1);
    const appeared: NoteDoc[] = [];
    for (const doc of now.docs) {
      const left = unchanged.get(doc.raw) ?? 0;
      if (left > 0) unchanged.set(doc.raw, left - 1);
      else appeared.push(doc);
    }
    // What left the note: memories by key (an edit's or a forget's old revision); anything else takes the full path.
    const gone = new Set<string>();
    for (const doc of was.docs) {
      const left = unchanged.get(doc.raw) ?? 0;
      if (left === 0) continue;
      unchanged.set(doc.raw, left - 1);
      if (doc.kind !== 'memory' || gone.has(doc.memory.key)) return null;
      gone.add(doc.memory.key);
    }
    // The current memory `key` of this note leaves the index: only when it is the key's one revision.
    const remove = (key: string): boolean => {
      gone.delete(key);
      if (index.mayHaveRevisions(key)) return false;
      const doc = index.documentOf(c.ns, c.object, key);
      if (doc === undefined) return false;
      out.removed.push(doc);
      return true;
    };
    for (const doc of appeared) {
      // Text that is not a memory: neither index holds it.
      if (doc.kind === 'other') continue;
      const key = doc.kind === 'memory' ? doc.memory.key : doc.tombstone.key;
      if (!touch(key)) return null;
      if (gone.has(key)) {
        // An edit (a new revision in its place) or a forget (a tombstone in its place).
        if (!remove(key)) return null;
        if (doc.kind === 'memory') out.added.push(doc.memory);
        else out.multiKeys.push(key);
        continue;
      }
      if (index.mayHoldKey(key)) return null;
      out.keys.push(key);
      if (doc.kind === 'memory') out.added.push(doc.memory);
      else out.multiKeys.push(key);
    }
    // Memories removed with nothing in their place (a note edited by hand, a memory moved away).
    for (const key of [...gone]) if (!touch(key) || !remove(key)) return null;
  }
  return out;
}

/** Where the term index lives: its file, the overlay beside it, and the index lock. */
export interface TermFiles {
  termFile: string;
  overlayFile: string;
  lockFile: string;
  /** Whether the folder can be written (stores/cache/mem-dir.ts): when not, the result is used in memory only. */
  writable: () => boolean;
}

/** The overlay's documents may make up this share of the main file's before they are folded into it. */
const FOLD_SHARE = 0.1;
/** ... but an overlay of this many documents is always kept as one. */
const FOLD_MIN = 2000;

/** The overlay in `file` when it extends exactly this main file (its tips and generation, documents it holds); else null. */
function readOverlay(file: string, main: TermIndex): TermIndex | null {
  const overlay = TermIndex.read(file);
  if (overlay?.base && overlay.base.generation === main.generation && sameTips(overlay.base.tips, main.tips) && overlay.deletedDocs.every((d) => d < main.docCount)) return overlay;
  overlay?.close();
  return null;
}

/**
 * The term index as its files hold it: the main file, with the overlay of
 * memories appended since when there is one for it. Null without a readable main file.
 */
export function readTermIndex(files: TermFiles): TermIndex | null {
  const main = TermIndex.read(files.termFile);
  if (!main) return null;
  const overlay = readOverlay(files.overlayFile, main);
  return overlay ? TermIndex.layered(main, overlay) : main;
}

/** Sorted, unique key hashes of several lists and some keys. */
function joinedHashes(lists: readonly Uint32Array[], keys: readonly string[]): Uint32Array {
  const all = new Uint32Array(lists.reduce((n, l) => n + l.length, 0) + keys.length);
  let at = 0;
  for (const l of lists) {
    all.set(l, at);
    at += l.length;
  }
  keys.forEach((k, i) => (all[at + i] = keyHash(k)));
  return sortedUnique(all);
}

/**
 * The term index at `tips`, from the files plus the change (noteChanges), or
 * null when the change is more than that. New memories and new revisions go
 * to the overlay (`terms.add`, small: rewritten whole) and documents of the
 * main file that are no longer current are marked removed in it; readers
 * layer it over the main file. Once it holds more than a tenth of the main
 * file's documents, added or removed (and at least 2,000), both are folded
 * into a new main file. Written under the index lock (temp file + rename)
 * unless the lock is busy or another process changed the files meanwhile:
 * then this process uses the result in memory.
 */
export function catchUp(main: TermIndex, notes: NotesStore, tips: Record<string, string>, files: TermFiles): TermIndex | null {
  const overlay = readOverlay(files.overlayFile, main);
  const current = overlay ? TermIndex.layered(main, overlay) : main;
  if (current.reflects(tips)) return current;
  const change = noteChanges(current, notes, tips);
  tracePhase(change ? `term index: ${change.added.length} memories added, ${change.removed.length} removed` : 'term index: more than one document per key changed');
  if (!change) {
    overlay?.close();
    return null;
  }
  const n = main.docCount;
  // Removed documents of the main file are marked in the overlay; the overlay's own are dropped from it.
  const deleted = Uint32Array.from(new Set([...(overlay?.deletedDocs ?? []), ...change.removed.filter((d) => d < n)])).sort();
  const dropped = new Set(change.removed.filter((d) => d >= n).map((d) => d - n));
  const kept: Memory[] = [];
  for (let d = 0; overlay && d < overlay.docCount; d++) if (!dropped.has(d)) kept.push(overlay.memory(d));
  const fold = kept.length + change.added.length + deleted.length > Math.max(FOLD_MIN, FOLD_SHARE * n);
  const copies = Object.fromEntries([...main.copies].map(([k, v]) => [k, [...v]]));
  const ownLists = (pick: (t: TermIndex) => Uint32Array) => (fold ? [pick(main)] : []).concat(overlay ? [pick(overlay)] : []);
  const keyHashes = joinedHashes(ownLists((t) => t.keyHashes), change.keys);
  const multiKeys = joinedHashes(ownLists((t) => t.multiKeys), change.multiKeys);
  const bytes = fold
    ? appendToTermIndex(main, { tips, generation: main.generation, copies, keyHashes, multiKeys }, [...kept, ...change.added], new Set(deleted))
    : appendToTermIndex(overlay, { tips, generation: main.generation, copies: {}, keyHashes, multiKeys, base: { tips: main.tips, generation: main.generation }, deleted }, change.added, dropped);
  tracePhase(fold ? 'term index folded' : 'term index overlay built');
  // A busy lock means another process is updating: this one does not wait for it.
  const release = files.writable() ? acquireLock(files.lockFile, 50) : null;
  if (release) {
    try {
      // Written only over what this was computed from: the same main file, and the same overlay or none.
      const onDisk = TermIndex.read(files.termFile);
      const diskOverlay = onDisk ? readOverlay(files.overlayFile, onDisk) : null;
      const sameMain = onDisk !== null && onDisk.generation === main.generation && onDisk.reflects(main.tips);
      const sameOverlay = overlay ? diskOverlay !== null && sameTips(diskOverlay.tips, overlay.tips) : diskOverlay === null;
      const same = sameMain && sameOverlay;
      onDisk?.close();
      diskOverlay?.close();
      if (same) {
        try {
          if (fold) {
            writeTermIndex(files.termFile, bytes);
            fs.rmSync(files.overlayFile, { force: true });
          } else writeTermIndex(files.overlayFile, bytes);
          removeDeadTemps(path.dirname(files.termFile));
          tracePhase('term index written');
        } catch {
          // A full disk, a read-only cache: this process still answers from memory; a later one writes.
        }
      }
    } finally {
      release();
    }
  }
  const built = TermIndex.fromBytes(bytes);
  if (fold) {
    overlay?.close();
    return built;
  }
  return TermIndex.layered(main, built);
}

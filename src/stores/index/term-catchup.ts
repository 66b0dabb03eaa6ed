/**
 * The term index catching up with the notes by itself, when the change only
 * adds memories under keys the notes did not hold: a capture, a hook's
 * captures, an import, most pulls. Only the notes that changed are read, and
 * the new memories are appended to the term index (term-index-build.ts
 * appendToTermIndex): no sql.js, no decoding of the existing dictionary.
 *
 * Anything else (an edit, a forget, a note removed, a memory with a second
 * copy, a note that does not parse cleanly) goes down the full path, the
 * SQLite index, which knows every revision and tombstone and so which
 * revision is current. "A new key" is read from the term index's key hashes:
 * a hash collision only sends the update down the full path.
 *
 * The SQLite index is not touched: it catches up from its own tips when a
 * command needs it, and then finds the term index already at those tips.
 */
import type { Memory } from '../../core/memory.ts';
import { appendedText, parseNote } from '../../core/note-format.ts';
import type { NotesStore } from '../git/notes-store.ts';
import { acquireLock } from './lock.ts';
import { appendToTermIndex, writeTermIndex } from './term-index-build.ts';
import { keyHash } from './term-index-format.ts';
import fs from 'node:fs';
import path from 'node:path';
import { GitError } from '../../core/errors.ts';
import { removeDeadTemps } from '../../io/atomic-write.ts';
import { sameTips, TermIndex } from './term-index.ts';
import { tracePhase } from '../../io/trace.ts';

/**
 * The memories the notes gained between the index's tips and `tips`, when
 * that is all that changed (each under a key the index does not hold, one
 * copy each); null otherwise.
 */
export function addedMemories(index: TermIndex, notes: NotesStore, tips: Record<string, string>): Memory[] | null {
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
  const added: Memory[] = [];
  const newKeys = new Set<number>();
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
    for (const doc of now.docs) {
      const left = unchanged.get(doc.raw) ?? 0;
      if (left > 0) {
        unchanged.set(doc.raw, left - 1);
        continue;
      }
      if (doc.kind === 'tombstone') return null;
      // Text that is not a memory: neither index holds it.
      if (doc.kind !== 'memory') continue;
      const h = keyHash(doc.memory.key);
      if (index.mayHoldKey(doc.memory.key) || newKeys.has(h)) return null;
      newKeys.add(h);
      added.push(doc.memory);
    }
    // A document gone from a note (an edit in place, a removal).
    for (const left of unchanged.values()) if (left > 0) return null;
  }
  return added;
}

/** Where the term index lives: its file, the overlay beside it, and the index lock. */
export interface TermFiles {
  termFile: string;
  overlayFile: string;
  lockFile: string;
}

/** The overlay's documents may make up this share of the main file's before they are folded into it. */
const FOLD_SHARE = 0.1;
/** ... but an overlay of this many documents is always kept as one. */
const FOLD_MIN = 2000;

/** The overlay in `file` when it extends exactly this main file (its tips and generation); else null. */
function readOverlay(file: string, main: TermIndex): TermIndex | null {
  const overlay = TermIndex.read(file);
  if (overlay?.base && overlay.base.generation === main.generation && sameTips(overlay.base.tips, main.tips)) return overlay;
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

/** Sorted key hashes of several lists and some keys. */
function joinedHashes(lists: readonly Uint32Array[], keys: readonly string[]): Uint32Array {
  const out = new Uint32Array(lists.reduce((n, l) => n + l.length, 0) + keys.length);
  let at = 0;
  for (const l of lists) {
    out.set(l, at);
    at += l.length;
  }
  keys.forEach((k, i) => (out[at + i] = keyHash(k)));
  return out.sort();
}

/**
 * The term index at `tips`, from the files plus the memories the notes
 * gained, or null when the change is not only additions. The new memories go
 * to the overlay (`terms.add`, small: rewritten whole), which readers layer
 * over the main file; once it holds more than a tenth of the main file's
 * documents (and at least 2,000), both are folded into a new main file.
 * Written under the index lock (temp file + rename) unless the lock is busy
 * or another process changed the files meanwhile: then this process uses the
 * result in memory.
 */
export function catchUpByAdding(main: TermIndex, notes: NotesStore, tips: Record<string, string>, files: TermFiles): TermIndex | null {
  const overlay = readOverlay(files.overlayFile, main);
  const current = overlay ? TermIndex.layered(main, overlay) : main;
  if (current.reflects(tips)) return current;
  const added = addedMemories(current, notes, tips);
  tracePhase(added ? `term index: ${added.length} memories added` : 'term index: not only additions');
  if (!added) {
    overlay?.close();
    return null;
  }
  const kept = overlay ? Array.from({ length: overlay.docCount }, (_, d) => overlay.memory(d)) : [];
  const fold = kept.length + added.length > Math.max(FOLD_MIN, FOLD_SHARE * main.docCount);
  const copies = Object.fromEntries([...main.copies].map(([k, v]) => [k, [...v]]));
  const keyHashes = joinedHashes(fold ? [main.keyHashes, ...(overlay ? [overlay.keyHashes] : [])] : overlay ? [overlay.keyHashes] : [], added.map((m) => m.key));
  const bytes = fold
    ? appendToTermIndex(main, { tips, generation: main.generation, copies, keyHashes }, [...kept, ...added])
    : appendToTermIndex(overlay, { tips, generation: main.generation, copies: {}, keyHashes, base: { tips: main.tips, generation: main.generation } }, added);
  tracePhase(fold ? 'term index folded' : 'term index overlay built');
  // A busy lock means another process is updating: this one does not wait for it.
  const release = acquireLock(files.lockFile, 50);
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

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
import { TermIndex } from './term-index.ts';
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
    const diff = from ? notes.diffNotes(from, to) : notes.listNotes(to).map((n) => ({ object: n.object, oldBlob: null, blob: n.blob }));
    for (const d of diff) {
      if (!d.blob) return null;
      changes.push({ ns, object: d.object, oldBlob: d.oldBlob, blob: d.blob });
    }
  }
  const texts = notes.readTexts(changes.flatMap((c) => (c.oldBlob ? [c.oldBlob, c.blob] : [c.blob])));
  const added: Memory[] = [];
  const newKeys = new Set<number>();
  for (const c of changes) {
    const text = texts.get(c.blob);
    const before = c.oldBlob ? texts.get(c.oldBlob) : '';
    if (text === undefined || before === undefined) return null;
    // Usually the note gained documents at its end: only those are parsed (a note can hold hundreds).
    const tail = before ? appendedText(before, text) : null;
    const now = parseNote(tail ?? text, c.ns, c.object);
    const was = tail === null ? parseNote(before, c.ns, c.object) : { docs: [], warnings: [] };
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

/**
 * The term index at `tips`, from `index` plus the memories the notes gained,
 * or null when the change is not only additions. Written in place (under the
 * index lock, temp file + rename) unless the lock is busy or another process
 * replaced the file meanwhile: then this process uses it in memory.
 */
export function catchUpByAdding(index: TermIndex, notes: NotesStore, tips: Record<string, string>, files: { termFile: string; lockFile: string }): TermIndex | null {
  const added = addedMemories(index, notes, tips);
  tracePhase(added ? `term index: ${added.length} memories added` : 'term index: not only additions');
  if (!added) return null;
  const hashes = new Uint32Array(index.keyHashes.length + added.length);
  hashes.set(index.keyHashes);
  added.forEach((m, i) => (hashes[index.keyHashes.length + i] = keyHash(m.key)));
  hashes.sort();
  const bytes = appendToTermIndex(index, { tips, generation: index.generation, copies: Object.fromEntries([...index.copies].map(([k, v]) => [k, [...v]])), keyHashes: hashes }, added);
  // A busy lock means another process is updating: this one does not wait for it.
  tracePhase('term index appended');
  const release = acquireLock(files.lockFile, 50);
  if (release) {
    try {
      const onDisk = TermIndex.read(files.termFile);
      const same = onDisk !== null && onDisk.generation === index.generation && onDisk.reflects(index.tips);
      onDisk?.close();
      if (same) writeTermIndex(files.termFile, bytes);
      tracePhase('term index written');
    } finally {
      release();
    }
  }
  return TermIndex.fromBytes(bytes);
}

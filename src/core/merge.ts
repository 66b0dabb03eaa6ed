/**
 * Merging two versions of one note, memory by memory (never line by line: git's
 * cat_sort_uniq sorts the lines of a note and destroys multi-document notes).
 * Per id, the newest revision wins; a tombstone wins over any revision not newer
 * than it. Documents are put in a canonical order, so the merge is commutative
 * and idempotent: every clone that has seen the same revisions holds the same note.
 */
import { sha1Hex } from './hash.ts';
import { revisionTime } from './memory.ts';
import { currentRevision, newestRevision, tiebreakOf } from './revisions.ts';
import { type NoteDoc, parseNote, serializeNote } from './note-format.ts';

export interface NoteMerge {
  text: string;
  /** Memories (or forgets) that came from `theirs`: new ids, or newer revisions. */
  incoming: number;
  /** Ids present on both sides with different revisions. */
  merged: number;
}

/** A memory or a tombstone: a document with a key. */
export type KeyedDoc = Exclude<NoteDoc, { kind: 'other' }>;

export function keyOf(d: KeyedDoc): string {
  return d.kind === 'memory' ? d.memory.key : d.tombstone.key;
}

function updatedOf(d: KeyedDoc): string {
  return d.kind === 'memory' ? d.memory.updated : d.tombstone.updated;
}

function sortTime(d: KeyedDoc): number {
  return revisionTime(d.kind === 'memory' ? d.memory.created || d.memory.updated : d.tombstone.updated);
}

/** The winning document among every revision and tombstone seen for one id (core/revisions.ts decides). */
export function winner(docs: readonly KeyedDoc[]): KeyedDoc {
  const memories = docs.filter((d) => d.kind === 'memory');
  const tombstones = docs.filter((d) => d.kind === 'tombstone');
  const rev = (d: KeyedDoc) => ({ updated: updatedOf(d), tiebreak: tiebreakOf(d.raw) });
  const current = currentRevision(memories.map(rev), tombstones.map(rev));
  if (current >= 0) return memories[current]!;
  return tombstones.length ? tombstones[newestRevision(tombstones.map(rev))]! : docs[0]!;
}

/** The memories and tombstones of a note, as their trimmed text. */
export function keyedDocs(text: string | null, namespace: string, object: string): string[] {
  if (!text) return [];
  return parseNote(text, namespace, object).docs.flatMap((d) => (d.kind === 'other' ? [] : [d.raw.trim()]));
}

/** A note's bytes, as read from its blob. */
export type NoteBytes = Uint8Array;

const decoder = new TextDecoder();

/**
 * Text for the merge: a note's own text, or, for binary content (another
 * tool's note in git-mem's ref), a document of its own carrying the exact
 * bytes in base64, so that neither side is ever dropped for it.
 */
export function mergeableText(bytes: NoteBytes): string {
  if (!bytes.includes(0)) return decoder.decode(bytes);
  const base64 = Buffer.from(bytes).toString('base64').replace(/.{76}/g, '$&\n').trimEnd();
  return `---\nid: ${sha1Hex(base64).slice(0, 16)}\nbinary-note: base64\n---\n\n${base64}`;
}

function sameBytes(a: NoteBytes, b: NoteBytes): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

/**
 * Merges two versions of the note on `object`. `text` is `theirs` itself when
 * their note wins whole (the caller can reuse its blob), `ours` when nothing changes.
 */
export function mergeNotes(namespace: string, object: string, ours: NoteBytes | null, theirs: NoteBytes): { text: string | NoteBytes; incoming: number; merged: number } {
  if (ours === null) return { text: theirs, incoming: keyedDocs(mergeableText(theirs), namespace, object).length, merged: 0 };
  if (sameBytes(ours, theirs)) return { text: ours, incoming: 0, merged: 0 };
  return mergeNoteTexts(namespace, object, mergeableText(ours), mergeableText(theirs));
}

export function mergeNoteTexts(namespace: string, object: string, ours: string | null, theirs: string): NoteMerge {
  if (ours === null) return { text: theirs, incoming: keyedDocs(theirs, namespace, object).length, merged: 0 };
  if (ours === theirs) return { text: ours, incoming: 0, merged: 0 };
  const a = parseNote(ours, namespace, object);
  const b = parseNote(theirs, namespace, object);

  const byKey = new Map<string, { ours: KeyedDoc[]; theirs: KeyedDoc[] }>();
  // Text that is not a memory: kept from both sides, once. Leading text merges by paragraph, since
  // a merged note's leading text is both sides' joined: whole blocks would be kept again and again.
  const paragraphs = new Set<string>();
  const others = new Set<string>();
  for (const [side, parsed] of [['ours', a], ['theirs', b]] as const) {
    for (const d of parsed.docs) {
      if (d.kind === 'other') {
        if (d.leading) for (const p of d.raw.trim().split(/\n[ \t]*\n/)) paragraphs.add(p.trim());
        else others.add(d.raw.trim());
        continue;
      }
      const entry = byKey.get(keyOf(d)) ?? { ours: [], theirs: [] };
      entry[side].push(d);
      byKey.set(keyOf(d), entry);
    }
  }
  let incoming = 0;
  let merged = 0;
  const kept: KeyedDoc[] = [];
  for (const { ours: o, theirs: t } of byKey.values()) {
    const win = winner([...o, ...t]);
    kept.push(win);
    const oursRaw = new Set(o.map((d) => d.raw.trim()));
    if (!oursRaw.has(win.raw.trim())) incoming++;
    if (o.length && t.length && t.some((d) => !oursRaw.has(d.raw.trim()))) merged++;
  }
  kept.sort((x, y) => sortTime(x) - sortTime(y) || (keyOf(x) < keyOf(y) ? -1 : keyOf(x) > keyOf(y) ? 1 : 0));
  const docs = [...[...paragraphs].sort(), ...[...others].sort()].filter(Boolean).map((raw) => ({ raw }));
  docs.push(...kept);
  return { text: serializeNote(docs), incoming, merged };
}

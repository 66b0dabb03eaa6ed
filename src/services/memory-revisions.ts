/**
 * The revisions of a memory as its note's history holds them: for each notes
 * commit that changed the note (newest first, at most a few dozen), the
 * memory's document then (a revision, or its tombstone), who made the commit
 * and when. Consecutive commits that left the memory as it was are told once.
 */
import { NOTES_REF_PREFIX } from '../core/namespaces.ts';
import type { Memory } from '../core/memory.ts';
import { parseNote } from '../core/note-format.ts';
import { type NoteChange, noteChanges, noteChangesOf } from '../stores/git/note-log.ts';
import { readObjects } from '../stores/git/objects.ts';
import type { Deps } from './deps.ts';

export interface Revision {
  /** The notes commit that wrote it. */
  commit: string;
  author: string;
  /** Committer time (s). */
  time: number;
  kind: 'memory' | 'tombstone';
  summary?: string;
  status?: string;
  updated: string;
  /** The body as it was then. */
  body?: string;
}

/**
 * `earlier`: the commits a move took the memory from (services/history/moves.ts):
 * their notes' history holds its revisions from before the move, told too.
 */
export function memoryRevisions(ctx: Pick<Deps, 'repo'>, memory: Memory, max = 30, earlier: readonly string[] = []): Revision[] {
  const ref = `${NOTES_REF_PREFIX}${memory.namespace}`;
  const changes = [memory.object, ...earlier].map((o) => ({ object: o, changes: noteChanges(ctx.repo, ref, o, max) }));
  const blobs = readObjects(ctx.repo, changes.flatMap((c) => c.changes.flatMap((ch) => (ch.blob ? [ch.blob] : []))));
  return merged(changes.map((c) => revisionsIn({ ...memory, object: c.object }, c.changes, blobs)), max);
}

/** memoryRevisions of many memories: one `git log` per namespace and one read of the blobs, not a process per memory (an export). */
export function revisionsOfMany(ctx: Pick<Deps, 'repo'>, memories: readonly Memory[], earlier: ReadonlyMap<string, readonly string[]> = new Map(), max = 30): Map<string, Revision[]> {
  const objectsOf = (m: Memory) => [m.object, ...(earlier.get(`${m.namespace}:${m.key}`) ?? [])];
  const byNs = new Map<string, Set<string>>();
  for (const m of memories) for (const o of objectsOf(m)) byNs.set(m.namespace, (byNs.get(m.namespace) ?? new Set()).add(o));
  const changes = new Map<string, Map<string, NoteChange[]>>();
  for (const [ns, objects] of byNs) changes.set(ns, noteChangesOf(ctx.repo, `${NOTES_REF_PREFIX}${ns}`, objects, max));
  const blobs = readObjects(ctx.repo, [...new Set([...changes.values()].flatMap((m) => [...m.values()].flat().flatMap((c) => (c.blob ? [c.blob] : []))))]);
  return new Map(memories.map((m) => [`${m.namespace}:${m.key}`, merged(objectsOf(m).map((o) => revisionsIn({ ...m, object: o }, changes.get(m.namespace)?.get(o) ?? [], blobs)), max)]));
}

/** Revisions read on several commits (before and after a move), newest first, each revision once (where it was first written). */
function merged(lists: Revision[][], max: number): Revision[] {
  if (lists.length === 1) return lists[0]!;
  const all = lists.flat().sort((a, b) => b.time - a.time || b.updated.localeCompare(a.updated));
  const out: Revision[] = [];
  for (const r of all) {
    const same = out.findIndex((o) => o.kind === r.kind && o.updated === r.updated);
    // Older commits come later: the same revision found again is where it was first written.
    if (same >= 0) out[same] = r;
    else out.push(r);
  }
  return out.slice(0, max);
}

function revisionsIn(memory: Memory, changes: readonly NoteChange[], blobs: Map<string, { content: Buffer }>): Revision[] {
  const out: Revision[] = [];
  for (const c of changes) {
    const text = c.blob ? blobs.get(c.blob)?.content.toString('utf8') : undefined;
    if (!text) continue;
    const doc = parseNote(text, memory.namespace, memory.object).docs.find((d) => (d.kind === 'memory' && d.memory.key === memory.key) || (d.kind === 'tombstone' && d.tombstone.key === memory.key));
    if (!doc || doc.kind === 'other') continue;
    const revision: Revision =
      doc.kind === 'memory'
        ? { commit: c.commit, author: c.author, time: c.time, kind: 'memory', summary: doc.memory.summary, status: doc.memory.status, updated: doc.memory.updated, body: doc.memory.body }
        : { commit: c.commit, author: c.author, time: c.time, kind: 'tombstone', updated: doc.tombstone.updated };
    const last = out.at(-1);
    // Newest first: an older commit holding the same revision is where it was first written.
    if (last && last.kind === revision.kind && last.updated === revision.updated) out[out.length - 1] = revision;
    else out.push(revision);
  }
  return out;
}

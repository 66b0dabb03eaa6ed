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

export function memoryRevisions(ctx: Pick<Deps, 'repo'>, memory: Memory, max = 30): Revision[] {
  const changes = noteChanges(ctx.repo, `${NOTES_REF_PREFIX}${memory.namespace}`, memory.object, max);
  return revisionsIn(memory, changes, readObjects(ctx.repo, changes.flatMap((c) => (c.blob ? [c.blob] : []))));
}

/** memoryRevisions of many memories: one `git log` per namespace and one read of the blobs, not a process per memory (an export). */
export function revisionsOfMany(ctx: Pick<Deps, 'repo'>, memories: readonly Memory[], max = 30): Map<string, Revision[]> {
  const byNs = new Map<string, Set<string>>();
  for (const m of memories) byNs.set(m.namespace, (byNs.get(m.namespace) ?? new Set()).add(m.object));
  const changes = new Map<string, Map<string, NoteChange[]>>();
  for (const [ns, objects] of byNs) changes.set(ns, noteChangesOf(ctx.repo, `${NOTES_REF_PREFIX}${ns}`, objects, max));
  const blobs = readObjects(ctx.repo, [...new Set([...changes.values()].flatMap((m) => [...m.values()].flat().flatMap((c) => (c.blob ? [c.blob] : []))))]);
  return new Map(memories.map((m) => [`${m.namespace}:${m.key}`, revisionsIn(m, changes.get(m.namespace)?.get(m.object) ?? [], blobs)]));
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

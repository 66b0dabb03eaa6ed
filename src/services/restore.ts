/**
 * Undoing a forget: the memory's last revision written again over its
 * tombstone, on every copy that holds the tombstone, with an `updated` newer
 * than the tombstone's, so that merges keep it rather than the tombstone.
 * Redacted as every write is (sealMemory), in one compare-and-swap.
 */
import { NotFoundError } from '../core/errors.ts';
import { formatId, type Memory, revisionTime } from '../core/memory.ts';
import { type NoteDoc, parseNote, serializeMemory, serializeNote } from '../core/note-format.ts';
import { canonicalTime } from '../core/time.ts';
import { sealMemory } from './capture.ts';
import type { MemoriesDeps } from './memories.ts';

export async function restoreMemory(ctx: MemoriesDeps, memory: Memory): Promise<Memory> {
  const copies = await ctx.index.copiesOf(memory.namespace, memory.key);
  const objects = [...new Set([memory.object, ...copies])];
  let restored: Memory | undefined;
  ctx.notes.update(memory.namespace, objects, (current) => {
    const changes = new Map<string, string | null>();
    restored = undefined;
    const found: Array<{ object: string; docs: NoteDoc[]; at: number }> = [];
    let latest = revisionTime(memory.updated);
    for (const object of objects) {
      const text = current.get(object);
      const docs = text ? parseNote(text, memory.namespace, object).docs : [];
      const at = docs.findIndex((d) => d.kind === 'tombstone' && d.tombstone.key === memory.key);
      if (at < 0) continue;
      const doc = docs[at] as Extract<NoteDoc, { kind: 'tombstone' }>;
      latest = Math.max(latest, revisionTime(doc.tombstone.updated));
      found.push({ object, docs, at });
    }
    if (!found.length) return null;
    // Newer than the tombstone, even within the same millisecond.
    const when = Math.max(ctx.now().getTime(), latest + 1);
    restored = sealMemory(ctx, { ...memory, updated: canonicalTime(new Date(when)) }).memory;
    for (const { object, docs, at } of found) {
      const raw = serializeMemory({ ...restored, object });
      changes.set(object, serializeNote(docs.map((d, i) => (i === at ? { raw } : d))));
    }
    return { changes, message: `restore ${formatId(memory)}` };
  });
  if (!restored) throw new NotFoundError(`memory ${formatId(memory)} has no tombstone to restore`, 'see git mem list');
  return restored;
}

/**
 * Copies that agree. git copies a memory's note when it rewrites a commit
 * (notes.rewriteRef on amend and rebase), so one memory can sit on several
 * commits. A merge decides per note, so a forget or an edit made in another
 * clone reaches only the copy on the commit it was made on; pruning that
 * commit (`git notes prune`, gc) would then revive the memory, or its old
 * text, from the copy left behind. Here every copy gets the winning document
 * (core/revisions.ts: the newest revision, or the tombstone that hides it).
 */
import { type KeyedDoc, keyOf, winner } from '../../core/merge.ts';
import { type NoteDoc, parseNote, serializeNote } from '../../core/note-format.ts';
import type { Deps } from '../deps.ts';

/** What this file's services use. */
export type ConvergeDeps = Pick<Deps, 'index' | 'notes'>;

interface Divergent {
  key: string;
  objects: string[];
}

/** Gives every copy of each memory whose copies disagree the winning document; one notes commit per namespace. Returns how many memories it changed. */
export async function convergeCopies(ctx: ConvergeDeps): Promise<number> {
  const divergent = await ctx.index.divergentCopies();
  let converged = 0;
  for (const namespace of new Set(divergent.map((d) => d.namespace))) {
    converged += convergeNamespace(ctx, namespace, divergent.filter((d) => d.namespace === namespace));
  }
  return converged;
}

function convergeNamespace(ctx: ConvergeDeps, namespace: string, memories: readonly Divergent[]): number {
  let converged = 0;
  const objects = [...new Set(memories.flatMap((m) => m.objects))];
  ctx.notes.update(namespace, objects, (current) => {
    converged = 0;
    const touched = new Set<string>();
    const notes = new Map<string, NoteDoc[]>();
    for (const o of objects) {
      const parsed = parseNote(current.get(o) ?? '', namespace, o);
      // A binary note is never rewritten (it holds no memory of ours anyway).
      if (!parsed.binary) notes.set(o, parsed.docs);
    }
    const holds = (d: NoteDoc, key: string): d is KeyedDoc => d.kind !== 'other' && keyOf(d) === key;
    for (const m of memories) {
      const copies = m.objects.filter((o) => notes.get(o)?.some((d) => holds(d, m.key)));
      const docs = copies.flatMap((o) => notes.get(o)!.filter((d) => holds(d, m.key)));
      if (docs.length < 2) continue;
      const win = winner(docs);
      let changed = false;
      for (const o of copies) {
        const before = notes.get(o)!;
        const at = before.findIndex((d) => holds(d, m.key));
        const after = before.flatMap((d, i): NoteDoc[] => (i === at ? [win] : holds(d, m.key) ? [] : [d]));
        if (after.length !== before.length || before[at]!.raw.trim() !== win.raw.trim()) {
          notes.set(o, after);
          touched.add(o);
          changed = true;
        }
      }
      if (changed) converged++;
    }
    const changes = new Map<string, string | null>();
    for (const o of touched) changes.set(o, serializeNote(notes.get(o)!));
    return { changes, message: `converge ${converged} ${converged === 1 ? 'memory' : 'memories'} on their copies` };
  });
  return converged;
}

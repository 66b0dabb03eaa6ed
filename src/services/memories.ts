/** Finding, listing, editing and forgetting memories. Reads go through the index; writes go to the notes. */
import { AmbiguousIdError, NotFoundError, UsageError } from '../core/errors.ts';
import { formatId, type Memory, parseIdQuery, type Status } from '../core/memory.ts';
import type { NamespaceInfo } from '../core/namespaces.ts';
import { type KeyedDoc, keyOf, winner } from '../core/merge.ts';
import { type NoteDoc, parseNote, serializeMemory, serializeNote, serializeTombstone } from '../core/note-format.ts';
import { canonicalTime } from '../core/time.ts';
import { checkBody, checkStatus, checkSummary } from '../core/validate.ts';
import type { Deps } from './deps.ts';

/** What this file's services use. */
export type MemoriesDeps = Pick<Deps, 'index' | 'notes' | 'now' | 'settings' | 'termIndex'>;
import type { ListFilter } from '../stores/index/filter.ts';
import { sealMemory } from './capture.ts';

export async function findMemory(ctx: MemoriesDeps, idText: string): Promise<Memory> {
  const query = parseIdQuery(idText);
  if (!query) throw new UsageError(`'${idText}' is not a memory id; expected <namespace>:<commit>:<key> or a key prefix of 4+ hex digits`);
  const index = await ctx.index();
  const found = index.find(query);
  const keys = [...new Set(found.map((m) => m.key))];
  if (keys.length === 0) throw new NotFoundError(`no memory matches '${idText}'`, 'see git mem list');
  if (keys.length > 1) throw new AmbiguousIdError(idText, found.map(formatId));
  return found[0]!;
}

export async function listMemories(ctx: MemoriesDeps, filter: ListFilter): Promise<Memory[]> {
  return (await ctx.termIndex()).list(filter);
}

export async function namespaceCounts(ctx: MemoriesDeps): Promise<Array<NamespaceInfo & { count: number }>> {
  const counts = (await ctx.termIndex()).counts();
  const known = ctx.settings.namespaces.map((n) => ({ ...n, count: counts.get(n.name) ?? 0 }));
  // Namespaces found in notes but not configured here are still shown: nothing is hidden.
  for (const [name, count] of counts) {
    if (!known.some((n) => n.name === name)) known.push({ name, description: 'Not configured here', builtin: false, count });
  }
  return known;
}

export interface MemoryEdit {
  summary?: string;
  body?: string;
  tags?: string[];
  status?: string;
  forceTruncate?: boolean;
}

/**
 * Rewrites a memory on every copy (every commit its note was copied to), in
 * one notes commit: `replacement` gets the newest revision found among them
 * and returns the new document, which replaces the memory's document in each
 * note; other documents keep their exact bytes. Returns that newest revision.
 */
async function rewriteEverywhere(ctx: MemoriesDeps, target: Memory, replacement: (m: Memory) => string, message: string): Promise<Memory> {
  const copies = (await ctx.index()).copiesOf(target.namespace, target.key);
  const objects = copies.length ? copies : [target.object];
  let base: Memory | undefined;
  ctx.notes.update(target.namespace, objects, (current) => {
    const parsed = new Map<string, NoteDoc[]>();
    const revisions: KeyedDoc[] = [];
    for (const object of objects) {
      const text = current.get(object);
      if (!text) continue;
      const docs = parseNote(text, target.namespace, object).docs;
      parsed.set(object, docs);
      revisions.push(...docs.filter((d): d is KeyedDoc => d.kind !== 'other' && keyOf(d) === target.key));
    }
    const newest = revisions.length ? winner(revisions) : undefined;
    if (newest?.kind !== 'memory') throw new NotFoundError(`memory ${formatId(target)} was removed meanwhile`);
    base = newest.memory;
    const raw = replacement(newest.memory);
    const changes = new Map<string, string | null>();
    for (const [object, docs] of parsed) {
      const at = docs.findIndex((d) => d.kind !== 'other' && keyOf(d) === target.key);
      if (at < 0) continue;
      // One document for the memory per note, where its first revision stood.
      const kept = docs.filter((d, i) => i === at || d.kind === 'other' || keyOf(d) !== target.key);
      changes.set(object, serializeNote(kept.map((d) => (d === docs[at] ? { raw } : d))));
    }
    return { changes, message };
  });
  return base ?? target;
}

export async function editMemory(ctx: MemoriesDeps, idText: string, edit: MemoryEdit): Promise<Memory> {
  const target = await findMemory(ctx, idText);
  const summary = edit.summary !== undefined ? checkSummary(edit.summary, edit.forceTruncate) : undefined;
  const body = edit.body !== undefined ? checkBody(edit.body) : undefined;
  const tags = edit.tags;
  const status: Status | undefined = edit.status !== undefined ? checkStatus(edit.status) : undefined;
  if (summary === undefined && body === undefined && tags === undefined && status === undefined) {
    throw new UsageError('nothing to change; give --summary, --message, --tags or --status');
  }
  let result = target;
  await rewriteEverywhere(
    ctx,
    target,
    (m) => {
      result = sealMemory(ctx, {
        ...m,
        summary: summary ?? m.summary,
        body: body ?? m.body,
        tags: tags ?? m.tags,
        status: status ?? m.status,
        updated: canonicalTime(ctx.now()),
      }).memory;
      return serializeMemory(result);
    },
    `edit ${formatId(target)}`,
  );
  return { ...result, object: target.object };
}

export async function forgetMemory(ctx: MemoriesDeps, idText: string): Promise<Memory> {
  const target = await findMemory(ctx, idText);
  await rewriteEverywhere(
    ctx,
    target,
    (m) => serializeTombstone({ key: m.key, namespace: m.namespace, object: m.object, updated: canonicalTime(ctx.now()) }),
    `forget ${formatId(target)}`,
  );
  return target;
}

/** Finding, listing, editing and forgetting memories. Reads go through the index; writes go to the notes. */
import { AmbiguousIdError, NotFoundError, UsageError } from '../core/errors.ts';
import { formatId, type Memory, parseIdQuery, type Status } from '../core/memory.ts';
import type { NamespaceInfo } from '../core/namespaces.ts';
import { parseNote, serializeMemory, serializeNote, serializeTombstone } from '../core/note-format.ts';
import { canonicalTime } from '../core/time.ts';
import { checkBody, checkStatus, checkSummary } from '../core/validate.ts';
import type { AppContext } from '../context.ts';
import type { ListFilter } from '../stores/index/memory-index.ts';
import { cleaner } from './capture.ts';

export async function findMemory(ctx: AppContext, idText: string): Promise<Memory> {
  const query = parseIdQuery(idText);
  if (!query) throw new UsageError(`'${idText}' is not a memory id; expected <namespace>:<commit>:<key> or a key prefix of 4+ hex digits`);
  const index = await ctx.index();
  const found = index.find(query);
  const keys = [...new Set(found.map((m) => m.key))];
  if (keys.length === 0) throw new NotFoundError(`no memory matches '${idText}'`, 'see git mem list');
  if (keys.length > 1) throw new AmbiguousIdError(idText, found.map(formatId));
  return found[0]!;
}

export async function listMemories(ctx: AppContext, filter: ListFilter): Promise<Memory[]> {
  return (await ctx.termIndex()).list(filter);
}

export async function namespaceCounts(ctx: AppContext): Promise<Array<NamespaceInfo & { count: number }>> {
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

/** Rewrites the one document holding `target` in its note; other documents keep their exact bytes. */
function rewriteDocument(ctx: AppContext, target: Memory, replacement: (m: Memory) => string, message: string): void {
  ctx.notes.update(target.namespace, [target.object], (current) => {
    const text = current.get(target.object);
    const parsed = text ? parseNote(text, target.namespace, target.object) : null;
    const at = parsed?.docs.findIndex((d) => d.kind === 'memory' && d.memory.key === target.key) ?? -1;
    if (!parsed || at < 0) throw new NotFoundError(`memory ${formatId(target)} was removed meanwhile`);
    const doc = parsed.docs[at]!;
    if (doc.kind !== 'memory') return null;
    const docs = parsed.docs.slice();
    docs[at] = { raw: replacement(doc.memory) } as (typeof docs)[number];
    return { changes: new Map([[target.object, serializeNote(docs)]]), message };
  });
}

export async function editMemory(ctx: AppContext, idText: string, edit: MemoryEdit): Promise<Memory> {
  const target = await findMemory(ctx, idText);
  const clean = cleaner(ctx);
  const summary = edit.summary !== undefined ? clean(checkSummary(edit.summary, edit.forceTruncate)).text : undefined;
  const body = edit.body !== undefined ? clean(checkBody(edit.body)).text : undefined;
  const tags = edit.tags?.map((t) => clean(t).text);
  const status: Status | undefined = edit.status !== undefined ? checkStatus(edit.status) : undefined;
  if (summary === undefined && body === undefined && tags === undefined && status === undefined) {
    throw new UsageError('nothing to change; give --summary, --message, --tags or --status');
  }
  let result = target;
  rewriteDocument(
    ctx,
    target,
    (m) => {
      result = {
        ...m,
        summary: summary ?? m.summary,
        body: body ?? m.body,
        tags: tags ?? m.tags,
        status: status ?? m.status,
        updated: canonicalTime(ctx.now()),
      };
      return serializeMemory(result);
    },
    `edit ${formatId(target)}`,
  );
  return result;
}

export async function forgetMemory(ctx: AppContext, idText: string): Promise<Memory> {
  const target = await findMemory(ctx, idText);
  rewriteDocument(
    ctx,
    target,
    (m) => serializeTombstone({ key: m.key, namespace: m.namespace, object: m.object, updated: canonicalTime(ctx.now()) }),
    `forget ${formatId(target)}`,
  );
  return target;
}

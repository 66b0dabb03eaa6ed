/** Finding, listing, editing and forgetting memories. Reads go through the index; writes go to the notes. */
import { AmbiguousIdError, NotFoundError, UsageError } from '../core/errors.ts';
import { linkRef, retire, withLinks } from '../core/lifecycle/links.ts';
import { formatId, ID_FORMS, matchesKey, type Memory, parseIdQuery, PATHS_MAX, revisionTime, type Status } from '../core/memory.ts';
import { PLAIN_LEXICAL } from '../core/search/lexical.ts';
import { buildLexicalQuery } from '../core/search/query.ts';
import { holdsEveryWord } from '../core/search/similarity.ts';
import type { NamespaceInfo } from '../core/namespaces.ts';
import { type KeyedDoc, keyOf, winner } from '../core/merge.ts';
import { type NoteDoc, parseNote, serializeMemory, serializeNote, serializeTombstone } from '../core/note-format.ts';
import { canonicalTime } from '../core/time.ts';
import { checkBody, checkStatus, checkSummary, didYouMean } from '../core/validate.ts';
import type { Deps } from './deps.ts';
import type { ListFilter } from '../stores/index/filter.ts';
import { sealMemory } from './capture.ts';

/** What this file's services use. */
export type MemoriesDeps = Pick<Deps, 'index' | 'notes' | 'now' | 'settings'>;

/** The memory an id names; `option` (e.g. `--relates-to`) starts each error's message, for an id given to one. */
export async function findMemory(ctx: MemoriesDeps, idText: string, option?: string): Promise<Memory> {
  const named = (message: string) => (option ? `${option}: ${message}` : message);
  const query = parseIdQuery(idText);
  if (!query) throw new UsageError(named(`'${idText}' is not a memory id; expected ${ID_FORMS}`));
  const found = await ctx.index.find(query);
  // A memory is its namespace and key: the same key in two namespaces is two memories.
  const keys = [...new Set(found.map((m) => `${m.namespace}:${m.key}`))];
  if (keys.length === 0) {
    // The notes hold it but no current memory: only its tombstone is left.
    const gone = new Set((await ctx.index.documents()).filter((d) => (!query.namespace || d.namespace === query.namespace) && (!query.objectPrefix || d.object.startsWith(query.objectPrefix)) && matchesKey(query, d.key)).map((d) => `${d.namespace}:${d.key}`));
    if (gone.size === 1) throw new NotFoundError(named(`memory '${idText}' was forgotten (git mem forget): only its tombstone is left`), 'see git mem list');
    throw new NotFoundError(named(`no memory matches '${idText}'`), 'see git mem list');
  }
  if (keys.length > 1) throw new AmbiguousIdError(idText, found.map(formatId));
  return found[0]!;
}

export async function listMemories(ctx: MemoriesDeps, filter: ListFilter): Promise<Memory[]> {
  return (await ctx.index.current()).list(filter);
}

export async function namespaceCounts(ctx: MemoriesDeps): Promise<Array<NamespaceInfo & { count: number }>> {
  const counts = (await ctx.index.current()).counts();
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
  /** What the memory is about (core/history/scope.ts); empty: nothing in particular. */
  paths?: string[];
  status?: string;
  /** An older memory this one replaces: linked (supersedes, relates_to); markSuperseded archives it. */
  supersedes?: Memory;
  forceTruncate?: boolean;
}

/**
 * Rewrites a memory on every copy (every commit its note was copied to), in
 * one notes commit: `replacement` gets the newest revision found among them
 * and returns the new document, which replaces the memory's document in each
 * note; other documents keep their exact bytes. Returns that newest revision.
 */
async function rewriteEverywhere(ctx: MemoriesDeps, target: Memory, replacement: (m: Memory) => string, message: string): Promise<Memory> {
  const [base] = await rewriteMemories(ctx, target.namespace, [target], replacement, message);
  if (!base) throw new NotFoundError(`memory ${formatId(target)} was removed meanwhile`);
  return base;
}

/**
 * rewriteEverywhere for several memories of one namespace, in one notes commit
 * (one compare-and-swap), and `append` (new memories) in the same commit.
 * A target removed meanwhile (forgotten by another writer) is left out.
 * Returns the newest revision of each target rewritten.
 */
export async function rewriteMemories(
  ctx: MemoriesDeps,
  namespace: string,
  targets: readonly Memory[],
  replacement: (m: Memory) => string,
  message: string,
  append: readonly Memory[] = [],
): Promise<Memory[]> {
  const copies = new Map<string, string[]>();
  for (const t of targets) {
    const found = await ctx.index.copiesOf(namespace, t.key);
    copies.set(t.key, found.length ? found : [t.object]);
  }
  const objects = [...new Set([...[...copies.values()].flat(), ...append.map((m) => m.object)])];
  let bases: Memory[] = [];
  ctx.notes.update(namespace, objects, (current) => {
    const parsed = new Map<string, NoteDoc[]>();
    for (const object of objects) {
      const text = current.get(object);
      parsed.set(object, text ? parseNote(text, namespace, object).docs : []);
    }
    const raws = new Map<string, string>();
    bases = [];
    for (const t of targets) {
      const revisions = copies.get(t.key)!.flatMap((o) => (parsed.get(o) ?? []).filter((d): d is KeyedDoc => d.kind !== 'other' && keyOf(d) === t.key));
      const newest = revisions.length ? winner(revisions) : undefined;
      if (newest?.kind !== 'memory') continue;
      bases.push(newest.memory);
      raws.set(t.key, replacement(newest.memory));
    }
    const changes = new Map<string, string | null>();
    for (const [object, docs] of parsed) {
      let touched = false;
      const out: Array<NoteDoc | { raw: string }> = [];
      const done = new Set<string>();
      for (const d of docs) {
        const key = d.kind !== 'other' ? keyOf(d) : undefined;
        const raw = key !== undefined ? raws.get(key) : undefined;
        if (raw === undefined) {
          out.push(d);
          continue;
        }
        touched = true;
        // One document for the memory per note, where its first revision stood.
        if (!done.has(key!)) out.push({ raw });
        done.add(key!);
      }
      for (const m of append) {
        if (m.object !== object || docs.some((d) => d.kind !== 'other' && keyOf(d) === m.key)) continue;
        out.push({ raw: serializeMemory(m) });
        touched = true;
      }
      if (touched) changes.set(object, serializeNote(out));
    }
    return { changes, message };
  });
  return bases;
}

export async function editMemory(ctx: MemoriesDeps, idText: string, edit: MemoryEdit): Promise<Memory> {
  const target = await findMemory(ctx, idText);
  const summary = edit.summary !== undefined ? checkSummary(edit.summary, edit.forceTruncate) : undefined;
  const body = edit.body !== undefined ? checkBody(edit.body) : undefined;
  const tags = edit.tags;
  const paths = edit.paths;
  const status: Status | undefined = edit.status !== undefined ? checkStatus(edit.status) : undefined;
  const older = edit.supersedes ? linkRef(edit.supersedes) : undefined;
  if (summary === undefined && body === undefined && tags === undefined && paths === undefined && status === undefined && older === undefined) {
    throw new UsageError('nothing to change; give --summary, --message, --tags, --paths, --status or --supersedes');
  }
  if (edit.supersedes?.key === target.key) throw new UsageError('a memory cannot supersede itself');
  let result = target;
  await rewriteEverywhere(
    ctx,
    target,
    (m) => {
      const scoped = paths === undefined ? m : withPaths(m, paths);
      result = sealMemory(ctx, {
        ...scoped,
        summary: summary ?? m.summary,
        body: body ?? m.body,
        tags: tags ?? m.tags,
        status: status ?? m.status,
        ...(older ? withLinks({ relatesTo: m.relatesTo, supersedes: [...new Set([...(m.supersedes ?? []), older])] }, [older]) : {}),
        // A retired memory restored on purpose (--status active) keeps its consolidated_into / superseded_by:
        // the link shows the edit knew of the retirement, so a pull does not archive it again (core/lifecycle/links.ts retirementsDue).
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

export interface ForgetFilter {
  /** Created before this time (canonical UTC). */
  before?: string;
  namespaces?: string[];
  statuses?: Status[];
  /** Memories carrying every one of these tags. */
  tags?: string[];
  /** Memories holding every word of this text (stemmed): a strict match, since this deletes. */
  query?: string;
}

export interface BulkForget {
  forgotten: Memory[];
  dryRun: boolean;
}

/** The current memories a bulk forget takes: every filter must hold; with no filter at all, none (refused). */
export async function memoriesMatching(ctx: MemoriesDeps, filter: ForgetFilter): Promise<Memory[]> {
  const given = [filter.before, filter.namespaces?.length, filter.statuses?.length, filter.tags?.length, filter.query?.trim()].some(Boolean);
  if (!given) throw new UsageError('forget needs a memory id or at least one filter (--before, --namespace, --status, --tags, --query)');
  const index = await ctx.index.current();
  const known = new Set(ctx.settings.namespaces.map((n) => n.name));
  for (const ns of filter.namespaces ?? []) if (!known.has(ns) && !index.counts().has(ns)) throw new UsageError(`unknown namespace '${ns}'${didYouMean(ns, [...known])}; see git mem namespaces`);
  const base = { namespaces: filter.namespaces, statuses: filter.statuses, tags: filter.tags };
  let found: Memory[];
  if (filter.query?.trim()) {
    const query = buildLexicalQuery(filter.query, { prefixLast: false, synonyms: false });
    if (!query) throw new UsageError('--query has no words to search for');
    // Every memory that holds all the words, not only the best few, and not what ranking finds merely alike.
    found = index
      .search(query, base, PLAIN_LEXICAL)
      .map((h) => h.memory)
      .filter((m) => holdsEveryWord(m, filter.query!));
  } else {
    found = index.list(base);
  }
  // Strictly before: `--before 2026-01-01` keeps what was captured on that day.
  return filter.before ? found.filter((m) => revisionTime(m.created) < revisionTime(filter.before!)) : found;
}

/** Forgets every memory the filter takes: tombstones as `forget <id>` leaves, one notes commit per namespace. */
export async function forgetMatching(ctx: MemoriesDeps, filter: ForgetFilter, dryRun: boolean): Promise<BulkForget> {
  const found = await memoriesMatching(ctx, filter);
  if (dryRun || found.length === 0) return { forgotten: found, dryRun };
  const forgotten: Memory[] = [];
  const when = canonicalTime(ctx.now());
  for (const namespace of new Set(found.map((m) => m.namespace))) {
    const mine = found.filter((m) => m.namespace === namespace);
    const done = await rewriteMemories(ctx, namespace, mine, (m) => serializeTombstone({ key: m.key, namespace: m.namespace, object: m.object, updated: when }), `forget ${mine.length} memories`);
    const keys = new Set(done.map((m) => m.key));
    forgotten.push(...mine.filter((m) => keys.has(m.key)));
  }
  return { forgotten, dryRun };
}

/**
 * `newer` replaces `older`: the older is archived and names its successor
 * (superseded_by), and both link to each other (relates_to). The newer's own
 * `supersedes` is written where it is captured or edited.
 */
export async function markSuperseded(ctx: MemoriesDeps, older: Memory, newer: Memory): Promise<void> {
  if (older.key === newer.key) throw new UsageError('a memory cannot supersede itself');
  const by = linkRef(newer);
  await rewriteEverywhere(
    ctx,
    older,
    (m) => serializeMemory(retire(m, { supersededBy: by }, canonicalTime(ctx.now()))),
    `supersede ${formatId(older)} by ${formatId(newer)}`,
  );
}

/** The memory with its scope replaced; an empty one removes the field. */
function withPaths(m: Memory, paths: readonly string[]): Memory {
  const { paths: _old, ...rest } = m;
  return paths.length ? { ...rest, paths: paths.slice(0, PATHS_MAX) } : rest;
}

/**
 * Accepts memories a person reviewed: each is written again as it is, with
 * who accepted it and when (`reviewed`), by this clone, so its revision is
 * now local here (and signed, when signing is on, for teammates who trust
 * signed revisions). One notes commit per namespace.
 */
export async function acceptMemories(ctx: MemoriesDeps, targets: readonly Memory[]): Promise<Memory[]> {
  const out: Memory[] = [];
  const when = canonicalTime(ctx.now());
  for (const namespace of [...new Set(targets.map((t) => t.namespace))]) {
    const mine = targets.filter((t) => t.namespace === namespace);
    const accepted = await rewriteMemories(
      ctx,
      namespace,
      mine,
      (m) => serializeMemory(sealMemory(ctx, { ...m, extra: { ...m.extra, reviewed: `${ctx.settings.author} ${when}` }, updated: when }).memory),
      `review: accept ${mine.length === 1 ? formatId(mine[0]!) : `${mine.length} memories`}`,
    );
    out.push(...accepted);
  }
  return out;
}

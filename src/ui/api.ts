/**
 * What the pages of `git mem ui` show, as data: each view is one call to the
 * same services as the command line (recall, list, hydrate, staleness,
 * provenance, blame, log), returned as plain JSON. Text stays text: the page
 * puts it into the DOM as text nodes only (assets/app.js).
 */
import type { AppContext } from '../context.ts';
import { onHeadHistory, type Reach } from '../core/history/anchor.ts';
import { UsageError } from '../core/errors.ts';
import { outgoingRefs, refersTo } from '../core/lifecycle/links.ts';
import { formatId, type Memory, type Status } from '../core/memory.ts';
import { memoryJson } from '../core/memory-json.ts';
import { parseScope } from '../core/history/scope.ts';
import { describeStale, type Stale } from '../core/history/staleness.ts';
import { describeProvenance } from '../core/trust.ts';
import { canonicalTime, parseDateArg } from '../core/time.ts';
import { checkNamespace, checkPaths, checkStatus, parseTags } from '../core/validate.ts';
import { placementsOf } from '../services/history/anchors.ts';
import { blameMemories, branchLog } from '../services/code-memories.ts';
import { type Hydrated, hydrateMemory } from '../services/hydrate.ts';
import { editMemory, findMemory, forgetMemory, listMemories, namespaceCounts } from '../services/memories.ts';
import { recall } from '../services/search/recall.ts';
import { memoryRevisions, type Revision } from '../services/memory-revisions.ts';
import { restoreMemory } from '../services/restore.ts';
import { review } from '../services/trust/review.ts';
import { asShown } from '../services/shown.ts';
import { fileAt, scopeDiff, timelineRange } from '../services/file-views.ts';
import { type Moved, movesOf } from '../services/history/moves.ts';
import type { TrustView } from '../services/trust/trust.ts';
import { describeVia } from '../core/history/moves.ts';
import { placeCommits } from '../core/history/timeline.ts';

/** A memory in a list: what one row shows. */
export interface Row {
  id: string;
  namespace: string;
  summary: string;
  status: Status;
  created: string;
  updated: string;
  tags: string[];
  author: string | null;
  commit: string;
  paths: string[];
  stale: string | null;
  reach: Reach | null;
  score?: number;
  /** Whether the trust policy trusts it, and who brought it (services/trust/). */
  trusted: boolean;
  provenance: string;
  /** How it came onto its commit, when a reanchor moved it there (timeline and file views). */
  moved?: MovedRow;
}

export interface MovedRow {
  from: string[];
  via: string;
  /** e.g. moved from 1a2b3c4 “topic: cache” (squash merge) */
  text: string;
}

/** A memory's move as a row tells it: the commits it left, the subject its first commit had, how it was matched. */
function movedRow(m: Memory, move: Moved | undefined): MovedRow | undefined {
  if (!move) return undefined;
  const from = move.from.map((o) => o.slice(0, 7)).join(', ');
  const subject = m.commitSubject ? ` “${m.commitSubject}”` : '';
  return { from: move.from, via: move.via, text: `moved from ${from || 'another commit'}${subject} (${describeVia(move.via)})` };
}

export type Params = URLSearchParams;

const LIST_LIMIT = 100;
const MAX_LIMIT = 1000;
/** Graphs past this many memories are unreadable: the newest are drawn. */
const GRAPH_LIMIT = 150;
const TIMELINE_COMMITS = 200;
/** Memories shown on one commit of the timeline; the rest are counted. */
const TIMELINE_PER_COMMIT = 10;

export function rows(ctx: AppContext, memories: readonly Memory[], extra: { scores?: number[]; reach?: Array<Reach | undefined>; stale?: Map<string, Stale | null>; trust?: Map<string, TrustView | undefined>; moves?: boolean } = {}): Row[] {
  // Memories as every view shows them (services/shown.ts), unless the caller has the parts already.
  const shown = asShown(ctx, memories, { staleness: !extra.stale, reach: !extra.reach, trust: !extra.trust });
  const moves = extra.moves ? movesOf(ctx, memories) : null;
  return memories.map((m, i) => {
    const s = extra.stale ? extra.stale.get(m.key) : shown[i]!.stale;
    const t = extra.trust ? extra.trust.get(m.key) : shown[i]!.trust;
    const moved = movedRow(m, moves?.get(`${m.namespace}:${m.key}`));
    return {
      id: formatId(m),
      namespace: m.namespace,
      summary: m.summary,
      status: m.status,
      created: m.created,
      updated: m.updated,
      tags: m.tags,
      author: m.author ?? null,
      commit: m.object,
      paths: m.paths ?? [],
      stale: s ? describeStale(s) : null,
      reach: (extra.reach ? extra.reach[i] : shown[i]!.reach) ?? null,
      ...(extra.scores ? { score: Math.round(extra.scores[i]! * 1000) / 1000 } : {}),
      trusted: t?.trusted ?? false,
      provenance: trustText(t),
      ...(moved ? { moved } : {}),
    };
  });
}

/** Who brought a memory, in a few words: "written here by …", "from origin by …" (core/trust.ts). */
function trustText(t: TrustView | undefined): string {
  return t?.provenance ? describeProvenance(t.provenance) : t?.trusted ? 'trusted by policy' : 'provenance unknown';
}

/** Every current memory, read once per context (the context is new when a notes ref moves). */
const everything = new WeakMap<AppContext, Promise<Memory[]>>();
function allMemories(ctx: AppContext): Promise<Memory[]> {
  let all = everything.get(ctx);
  if (!all) {
    all = ctx.index.current().then((r) => r.list({}));
    everything.set(ctx, all);
  }
  return all;
}

function dateParam(p: Params, name: string, now: Date): string | undefined {
  const text = p.get(name)?.trim();
  if (!text) return undefined;
  const date = parseDateArg(text, now);
  if (!date) throw new UsageError(`${name} '${text}' is not a date; use 2026-01-31, an ISO time, or an age like 7d`);
  return canonicalTime(date);
}

function limitParam(p: Params): number {
  const n = Number(p.get('limit') ?? LIST_LIMIT);
  if (!Number.isInteger(n) || n < 1) throw new UsageError('limit must be a whole number of at least 1');
  return Math.min(n, MAX_LIMIT);
}

/** Search as you type (recall's ranking) or, with no words, the newest: with list's filters. */
export async function searchView(ctx: AppContext, p: Params) {
  const now = ctx.now();
  const query = (p.get('q') ?? '').trim();
  const namespaces = p.getAll('namespace').filter(Boolean).map((n) => checkNamespace(n, ctx.settings.namespaces));
  const statuses = p.getAll('status').filter(Boolean).map(checkStatus);
  const tags = parseTags(p.get('tags') ?? '');
  const since = dateParam(p, 'since', now);
  const until = dateParam(p, 'until', now);
  const branch = p.get('branch') === '1';
  const staleOnly = p.get('stale') === '1';
  const unreviewed = p.get('unreviewed') === '1';
  const limit = limitParam(p);
  // Filters that only a look at each memory answers take more candidates, then keep the first `limit`.
  const narrowed = staleOnly || unreviewed;
  const want = narrowed ? Math.min(limit * 20, 2000) : limit;
  let memories: Memory[];
  let scores: number[] | undefined;
  let reach: Array<Reach | undefined> | undefined;
  let notice: string | undefined;
  if (query) {
    const r = await recall(ctx, {
      query,
      namespaces: namespaces.length ? namespaces : undefined,
      statuses: statuses.length ? statuses : undefined,
      tags: tags.length ? tags : undefined,
      since,
      until,
      limit: want,
      branch,
      // Typing must not wait for a model: recall's lexical ranking (BM25F), as `git mem recall --mode lexical`.
      mode: 'lexical',
      download: false,
    });
    memories = r.hits.map((h) => h.memory);
    scores = r.hits.map((h) => h.score);
    reach = r.hits.map((h) => h.reach);
    notice = r.notice;
  } else {
    const listed = await listMemories(ctx, {
      namespaces: namespaces.length ? namespaces : undefined,
      statuses: statuses.length ? statuses : undefined,
      since,
      until,
      limit: tags.length || branch ? undefined : want,
    });
    memories = tags.length ? listed.filter((m) => tags.every((t) => m.tags.includes(t))) : listed;
    if (branch) {
      const placed = placementsOf(ctx.repo, memories.map((m) => m.object));
      memories = memories.filter((m) => onHeadHistory(placed.get(m.object)?.reach ?? 'missing'));
    }
    memories = memories.slice(0, want);
  }
  // Trust on every row, not only under the unreviewed filter.
  const shown = asShown(ctx, memories, { staleness: true, trust: true });
  const stale = new Map(shown.map((s) => [s.memory.key, s.stale ?? null]));
  const trust = new Map(shown.map((s) => [s.memory.key, s.trust]));
  let out = rows(ctx, memories, { scores, reach, stale, trust });
  if (staleOnly) out = out.filter((r) => r.stale);
  if (unreviewed) out = out.filter((r) => r.trusted === false);
  return { query, rows: out.slice(0, limit), ...(notice ? { notice } : {}) };
}

export async function namespacesView(ctx: AppContext) {
  return { namespaces: (await namespaceCounts(ctx)).map((n) => ({ name: n.name, count: n.count })) };
}

/** A link as written, and the memory it names when there is one. */
async function resolveLink(ctx: AppContext, ref: string, kind: string) {
  try {
    const m = await findMemory(ctx, ref);
    return { kind, ref, id: formatId(m), summary: m.summary, status: m.status };
  } catch {
    return { kind, ref, id: null, summary: null, status: null };
  }
}

/** One memory: text, facts, links, its commit and files, the diff of its scope. */
export async function memoryView(ctx: AppContext, p: Params) {
  const id = p.get('id');
  if (!id) throw new UsageError('id is required');
  const m = await findMemory(ctx, id);
  const [shown] = asShown(ctx, [m], { staleness: true, reach: true, trust: true });
  const stale = shown!.stale ?? null;
  const reach = shown!.reach ?? 'missing';
  const trust = shown!.trust;
  const links = [
    ...(await Promise.all(m.relatesTo.map((r) => resolveLink(ctx, r, 'related')))),
    ...(await Promise.all((m.consolidates ?? []).map((r) => resolveLink(ctx, r, 'consolidates')))),
    ...(m.consolidatedInto ? [await resolveLink(ctx, m.consolidatedInto, 'consolidated into')] : []),
    ...(await Promise.all((m.supersedes ?? []).map((r) => resolveLink(ctx, r, 'supersedes')))),
    ...(m.supersededBy ? [await resolveLink(ctx, m.supersededBy, 'superseded by')] : []),
  ];
  // And the memories that link to this one.
  const seen = new Set(links.map((l) => l.id));
  const incoming = (await allMemories(ctx))
    .filter((o) => o.key !== m.key && !seen.has(formatId(o)) && outgoingRefs(o).some((r) => refersTo(r, m)))
    .slice(0, 50)
    .map((o) => ({ kind: 'linked from', ref: formatId(o), id: formatId(o), summary: o.summary, status: o.status }));
  links.push(...incoming);
  const move = movesOf(ctx, [m]).get(`${m.namespace}:${m.key}`);
  const moved = movedRow(m, move);
  return {
    memory: memoryJson(m),
    moved: moved ?? null,
    stale: stale ? { text: describeStale(stale), ...stale } : null,
    reach,
    trusted: trust?.trusted ?? null,
    provenance: trust?.provenance ? { ...trust.provenance, text: describeProvenance(trust.provenance) } : null,
    links,
    // Its revisions from before a move too, from the notes of the commits it left.
    ...memoryDetails(ctx, m, memoryRevisions(ctx, m, 30, move?.from ?? [])),
  };
}

/** What a memory's page shows of its history and code: its revisions, its commit with the files it changed, the diff of its scope. */
export function memoryDetails(ctx: AppContext, m: Memory, revisions?: Revision[], commits?: Map<string, Hydrated>) {
  // Memories on one commit share what it changed (an export asks for many).
  const hydrated = commits?.get(m.object) ?? hydrateMemory(ctx, m, { level: 'files', maxFiles: 100, maxBytes: 0 });
  commits?.set(m.object, hydrated);
  return {
    revisions: revisions ?? memoryRevisions(ctx, m),
    commit: hydrated.commit,
    notice: hydrated.notice ?? null,
    files: hydrated.files?.shown.map((f) => ({ path: f.path, status: f.status, kind: f.kind })) ?? [],
    filesOmitted: hydrated.files?.omitted ?? 0,
    diff: hydrated.commit ? scopeDiff(ctx.repo, m, hydrated.files?.base ?? null, hydrated.files?.shown ?? []) : [],
  };
}

/** A file: its text at HEAD beside the memories about it (git mem blame's, and those whose scope names it). */
export async function fileView(ctx: AppContext, p: Params) {
  const path = (p.get('path') ?? '').trim().replace(/^\.\//, '');
  if (!path) throw new UsageError('path is required');
  const blamed = await blameMemories(ctx, path);
  const { lines, note } = fileAt(ctx.repo, 'HEAD', path);
  const scoped = (await allMemories(ctx)).filter((m) => (m.paths ?? []).some((e) => parseScope(e).path === path));
  const byKey = new Map<string, { memory: Memory; ranges: Array<[number, number]>; why: string[] }>();
  for (const e of blamed.entries) byKey.set(`${e.memory.namespace}:${e.memory.key}`, { memory: e.memory, ranges: e.ranges, why: ['blame'] });
  for (const m of scoped) {
    const own = (m.paths ?? []).map(parseScope).filter((s) => s.path === path);
    // What the memory says it is about wins over the lines its commit happened to write.
    const ranges = own.filter((s) => s.start !== undefined).map((s) => [s.start!, s.end ?? s.start!] as [number, number]);
    const k = `${m.namespace}:${m.key}`;
    byKey.set(k, { memory: m, ranges, why: byKey.has(k) ? ['scope', 'blame'] : ['scope'] });
  }
  const scopedFirst = (e: { why: string[] }) => (e.why.includes('scope') ? 0 : 1);
  const entries = [...byKey.values()].sort((a, b) => scopedFirst(a) - scopedFirst(b) || b.memory.created.localeCompare(a.memory.created));
  const r = rows(ctx, entries.map((e) => e.memory), { moves: true });
  return { path, lines, note, memories: entries.map((e, i) => ({ ...r[i]!, ranges: e.ranges, why: e.why })) };
}

/** Memories by commit along the branch (git mem log's), merges and moves marked, and the newest by time. */
export async function timelineView(ctx: AppContext, p: Params) {
  // The branch's own commits, else (on the default branch) the newest of its history.
  const range = timelineRange(ctx.repo, TIMELINE_COMMITS);
  let commits: Array<{ commit: string; subject: string; parents: string[]; memories: Memory[] }>;
  try {
    commits = (await branchLog(ctx, range)).commits;
  } catch {
    commits = []; // no commits yet
  }
  // Newest first; a few memories a commit (with how many more), their facts read once for all of them.
  const byCommit = new Map(commits.map((c) => [c.commit, c.memories]));
  const shown = placeCommits(commits.slice(-TIMELINE_COMMITS)).map((c) => {
    const memories = byCommit.get(c.commit) ?? [];
    return { ...c, more: Math.max(0, memories.length - TIMELINE_PER_COMMIT), memories: memories.slice(0, TIMELINE_PER_COMMIT) };
  });
  const recent = await listMemories(ctx, { limit: limitParam(p) });
  const all = [...shown.flatMap((c) => c.memories), ...recent];
  const facts = rows(ctx, all, { moves: true });
  let at = 0;
  return {
    range,
    commits: shown.map((c) => ({ ...c, memories: c.memories.map(() => facts[at++]!) })),
    recent: facts.slice(at),
  };
}

/** Memories and the links between them: related, consolidated, superseded. */
export async function graphView(ctx: AppContext, p: Params) {
  const query = (p.get('q') ?? '').trim();
  const namespaces = p.getAll('namespace').filter(Boolean).map((n) => checkNamespace(n, ctx.settings.namespaces));
  const ns = namespaces.length ? namespaces : undefined;
  const memories = query ? (await recall(ctx, { query, namespaces: ns, limit: GRAPH_LIMIT, mode: 'lexical', download: false })).hits.map((h) => h.memory) : await listMemories(ctx, { namespaces: ns, limit: GRAPH_LIMIT });
  // One step out: what the shown memories link to, though the filter left it out.
  const nodes = [...memories];
  for (const m of memories) {
    for (const ref of outgoingRefs(m)) {
      if (nodes.length >= GRAPH_LIMIT * 2 || nodes.some((n) => refersTo(ref, n))) continue;
      const found = await findMemory(ctx, ref).catch(() => null);
      if (found) nodes.push(found);
    }
  }
  const edges: Array<{ from: number; to: number; kind: string }> = [];
  nodes.forEach((m, i) => {
    const add = (refs: readonly string[], kind: string) => {
      for (const ref of refs) {
        const j = nodes.findIndex((n) => refersTo(ref, n));
        if (j >= 0 && j !== i && !edges.some((e) => (e.from === j && e.to === i) || (e.from === i && e.to === j))) edges.push({ from: i, to: j, kind });
      }
    };
    add(m.consolidates ?? [], 'consolidates');
    add(m.supersedes ?? [], 'supersedes');
    add([...(m.consolidatedInto ? [m.consolidatedInto] : []), ...(m.supersededBy ? [m.supersededBy] : [])], 'retired by');
    add(m.relatesTo, 'related');
  });
  return { query, nodes: nodes.map((m) => ({ id: formatId(m), namespace: m.namespace, summary: m.summary, status: m.status })), edges };
}

function bodyOf(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw new UsageError('expected a JSON object');
  return body as Record<string, unknown>;
}

function optionalText(b: Record<string, unknown>, name: string): string | undefined {
  const v = b[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new UsageError(`${name} must be a string`);
  return v;
}

function requiredId(b: Record<string, unknown>): string {
  const id = optionalText(b, 'id');
  if (!id) throw new UsageError('id is required');
  return id;
}

/** Memories forgotten from this page, by id: what undo restores (as long as the server runs). */
export type Forgotten = Map<string, Memory>;

/** The writes: through the same services as `git mem edit`, `resolve`, `forget` and `review` (redaction, compare-and-swap). */
export async function writeAction(ctx: AppContext, action: string, body: unknown, forgotten: Forgotten) {
  const b = bodyOf(body);
  const id = requiredId(b);
  switch (action) {
    case 'edit': {
      const tags = optionalText(b, 'tags');
      const paths = optionalText(b, 'paths');
      const m = await editMemory(ctx, id, {
        summary: optionalText(b, 'summary'),
        body: optionalText(b, 'body'),
        tags: tags !== undefined ? parseTags(tags) : undefined,
        paths: paths !== undefined ? checkPaths(paths) : undefined,
        status: optionalText(b, 'status'),
      });
      return { id: formatId(m) };
    }
    case 'resolve':
      return { id: formatId(await editMemory(ctx, id, { status: 'resolved' })) };
    case 'forget': {
      const m = await forgetMemory(ctx, id);
      forgotten.set(formatId(m), m);
      return { id: formatId(m), forgotten: true };
    }
    case 'restore': {
      const m = forgotten.get(id);
      if (!m) throw new UsageError(`${id} was not forgotten from this page; nothing to undo`);
      const restored = await restoreMemory(ctx, m);
      forgotten.delete(id);
      return { id: formatId(restored), restored: true };
    }
    case 'accept': {
      const r = await review(ctx, { accept: [id], reject: [], all: false });
      return { id, accepted: r.accepted.length };
    }
    default:
      throw new UsageError(`unknown action '${action}'`);
  }
}

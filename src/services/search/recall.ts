/**
 * Recall: ranked search over the memories. Lexical search is BM25F over the
 * term index (summary and tags weighted above the body, Porter stemming, stop
 * words dropped, terms OR-ed, the last also as a prefix).
 * Semantic search ranks by cosine similarity of sentence embeddings
 * (services/search/semantic.ts); hybrid fuses both rankings by reciprocal rank fusion.
 * Without a model, semantic and hybrid run lexical, with a one-line notice.
 */
import { errorMessage, UsageError } from '../../core/errors.ts';
import { maxFusedScore, reciprocalRankFusion, RRF_K } from '../../core/search/fusion.ts';
import { type Explanation, explanationLines } from '../../core/search/explain.ts';
import { DEFAULT_LEXICAL } from '../../core/search/lexical.ts';
import { formatId, type Memory, type Status } from '../../core/memory.ts';
import { parseQueryTime, type QueryTime } from '../../core/search/query-time.ts';
import { buildLexicalQuery } from '../../core/search/query.ts';
import { floorScore } from '../../core/search/floor.ts';
import { queryTerms, STOP_WORDS } from '../../core/search/analyzer.ts';
import { onHeadHistory, type Reach, reachWeight } from '../../core/history/anchor.ts';
import type { Deps } from '../deps.ts';
import type { ModelDeps } from './model.ts';
import { placementsOf } from '../history/anchors.ts';
import type { RecallMode } from '../settings.ts';
import { tracePhase, traceLine } from '../../io/trace.ts';
import type { SearchFilter } from '../../stores/index/filter.ts';

export { RECALL_MODES, type RecallMode } from '../settings.ts';

/** What this file's services use. */
export type RecallDeps = Pick<Deps, 'index' | 'repo' | 'settings' | 'now'> & ModelDeps;
export const DEFAULT_RECALL_LIMIT = 10;
/** What recall searches unless told a status: archived memories have a successor (a consolidation, a newer memory) or aged out. */
export const CURRENT_STATUSES: Status[] = ['active', 'resolved'];
/** Hybrid fuses this many of each ranking's best (at least; more when the limit is larger). */
export const FUSION_DEPTH = 50;

export interface RecallOptions {
  query: string;
  namespaces?: string[];
  /** Memories carrying every one of these tags. */
  tags?: string[];
  spec?: string;
  statuses?: Status[];
  /** Created at or after / at or before (canonical UTC). */
  since?: string;
  until?: string;
  limit?: number;
  mode?: RecallMode;
  /**
   * May fetch a missing embedding model (on first semantic use, where a
   * network exists). The command line passes true; hooks never do.
   */
  download?: boolean;
  /** Longest time spent embedding memories that have no vector yet (default semantic.ts EMBED_BUDGET_MS). */
  embedBudgetMs?: number;
  /** Only memories on HEAD's history. */
  branch?: boolean;
  /** Each hit says why it ranked where it did (`explanation`). */
  explain?: boolean;
  /** Read a time the query asks about ("last week", "in March": core/search/query-time.ts); default true. */
  time?: boolean;
}

export interface RecallHit {
  memory: Memory;
  /**
   * Higher is better; comparable only within one result list. Lexical: BM25;
   * semantic: cosine similarity; hybrid: the RRF score divided by its maximum
   * (1 = ranked first by both).
   */
  score: number;
  /** Where the memory's commit stands (set by recall). */
  reach?: Reach;
  /** Why, when asked (RecallOptions.explain). */
  explanation?: Explanation;
}

export interface RecallResult {
  hits: RecallHit[];
  /** The mode that actually ran. */
  mode: RecallMode;
  /** The query terms searched for (stop words removed). */
  terms: string[];
  /** One line for stderr when the mode asked for could not run as such, or ran on part of the memories. */
  notice?: string;
}

/**
 * Ranked search, then where each memory's commit stands: HEAD's history ranks
 * a little above the same match on another branch, and above commits no
 * branch holds (core/history/anchor.ts reachWeight); `branch` keeps HEAD's history only.
 */
export async function recall(ctx: RecallDeps, options: RecallOptions): Promise<RecallResult> {
  const limit = options.limit ?? DEFAULT_RECALL_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number of at least 1');
  const time = options.time === false ? null : queryTime(options.query, ctx.now());
  // The words asking about time are not searched for, unless nothing else would be.
  const searched = time ? { ...options, query: time.query } : options;
  // A few more than asked, so that a match on HEAD's history just below the cut can move up; more when a time can move one up.
  const candidates = options.branch ? limit * 5 : time ? Math.max(limit * 3, TIME_CANDIDATES) : limit + 3;
  const result = time && !time.topic ? await inTime(ctx, options, time, candidates) : await rank(ctx, searched, candidates);
  const placed = placementsOf(ctx.repo, result.hits.map((h) => h.memory.object));
  const timeWeight = (m: Memory) => (time && inWindow(m, time) ? TIME_WEIGHT : 1);
  const hits = result.hits
    .map((h) => ({ ...h, reach: placed.get(h.memory.object)?.reach ?? 'missing' }))
    .filter((h) => !options.branch || onHeadHistory(h.reach))
    .map((h, i) => ({ h, i, weighted: h.score * reachWeight(h.reach) * timeWeight(h.memory) }))
    .sort((a, b) => b.weighted - a.weighted || a.i - b.i)
    .slice(0, limit)
    .map(({ h, weighted }) => {
      if (!h.explanation) return h;
      const placement = { reach: h.reach, weight: reachWeight(h.reach) };
      return { ...h, explanation: { ...h.explanation, placement, ...(time ? { time: { asked: time.phrase, weight: timeWeight(h.memory) } } : {}), score: weighted } };
    });
  // The hooks recall lexically: the floor is theirs only on lexical scores.
  if (options.explain && result.mode === 'lexical') explainFloor(hits, ctx.settings.relevanceFloor);
  return { ...result, hits };
}

/**
 * What a memory created in the window the query asks about ("last week") is weighed by: enough to
 * put it above a slightly better match from another time, not above a clearly better one. Not
 * tuned: the ranking fixture's creation times carry no signal (docs/search.md, "Time in the query").
 */
export const TIME_WEIGHT = 1.5;
/** Candidates weighed when the query asks about a time (at least; three times the limit when more). */
export const TIME_CANDIDATES = 30;

/**
 * Words that, beside a time, ask for everything of that time ("what happened last week?", "remind
 * me what we worked on yesterday"): no topic. Only here; as stop words everywhere they were no
 * better on the fixture (docs/search.md).
 */
const TIME_FILLER: ReadonlySet<string> = new Set(['happen', 'happened', 'happening', 'going', 'went', 'anything', 'something', 'everything', 'new', 'remind', 'tell', 'show', 'list', 'worked', 'work', 'working', 'changed', 'change', 'changes']);

/** The time `text` asks about, with the query to search (the text without the time phrase) and whether that names a topic (a word not a stop word). */
function queryTime(text: string, now: Date): (QueryTime & { query: string; topic: boolean }) | null {
  const time = parseQueryTime(text, now);
  if (!time) return null;
  const topic = queryTerms(time.rest).some((t) => !STOP_WORDS.has(t) && !TIME_FILLER.has(t));
  return { ...time, query: topic ? time.rest : text, topic };
}

/**
 * A query that asks about a time and names no topic ("what happened yesterday?"): the memories
 * created in the window that pass the filter, newest first, each scoring 1.
 */
async function inTime(ctx: RecallDeps, options: RecallOptions, time: QueryTime, limit: number): Promise<RecallResult> {
  const from = new Date(time.from).toISOString();
  const to = new Date(time.to - 1).toISOString();
  const since = options.since && Date.parse(options.since) > time.from ? options.since : from;
  const until = options.until && Date.parse(options.until) < time.to - 1 ? options.until : to;
  const filter: SearchFilter = { namespaces: options.namespaces, tags: options.tags, spec: options.spec, statuses: options.statuses ?? CURRENT_STATUSES, since, until, limit };
  const memories = (await ctx.index.current()).list(filter);
  const hits = memories.map((memory): RecallHit => (options.explain ? { memory, score: 1, explanation: { lexical: 0, matches: [], byTime: true, score: 1 } } : { memory, score: 1 }));
  return { hits, mode: 'lexical', terms: [] };
}

function inWindow(m: Memory, time: QueryTime): boolean {
  const created = Date.parse(m.created);
  return created >= time.from && created < time.to;
}

/**
 * Sets each explained hit's `floor`: whether the hooks' relevance floor (the share `share` of the
 * best score, core/search/floor.ts floorScore, over these hits as given) keeps it.
 */
export function explainFloor(hits: readonly RecallHit[], share: number): void {
  const min = floorScore(hits, () => share);
  for (const h of hits) if (h.explanation) h.explanation.floor = { share, min, kept: h.score >= min };
}

async function rank(ctx: RecallDeps, options: RecallOptions, limit: number): Promise<RecallResult> {
  const query = buildLexicalQuery(options.query);
  if (!query) throw new UsageError('the query has no words to search for');
  const requested = options.mode ?? ctx.settings.recallMode;

  // The model loads while the term index is read (each has I/O to wait on).
  // Semantic search takes its candidates from the SQLite index: sql.js compiles meanwhile too, once there is a model to load.
  const pending =
    requested === 'lexical'
      ? undefined
      : import('./model.ts').then((m) => {
          // With the static query table the model is loaded only if a memory lacks a vector, and the SQLite index read only then too.
          if (ctx.settings.queryEmbedding === 'model' && m.locateModel(ctx).state.complete) ctx.index.prepare();
          return m.openSearchEmbedders(ctx, { download: options.download, threads: 1 });
        });
  // Awaited below; if opening the index fails first, its rejection must not surface as unhandled.
  pending?.catch(() => {});
  // Archived memories (consolidated, superseded, aged out) are found only when asked for by status.
  const filter: SearchFilter = { namespaces: options.namespaces, tags: options.tags, spec: options.spec, statuses: options.statuses ?? CURRENT_STATUSES, since: options.since, until: options.until };
  const terms = await ctx.index.current();
  const lexical = (n: number) => {
    const hits: RecallHit[] = terms.search(query, { ...filter, limit: n }, DEFAULT_LEXICAL, options.explain).map(({ memory, score, matches }) =>
      matches ? { memory, score, explanation: { lexical: score, matches, score } } : { memory, score },
    );
    tracePhase('lexical search done');
    return hits;
  };
  const lexicalOnly = (notice?: string): RecallResult => ({ hits: lexical(limit), mode: 'lexical', terms: query.terms, ...(notice ? { notice } : {}) });
  if (!pending) return lexicalOnly();

  const opened = await pending;
  const fallback = `${requested} recall falls back to lexical search`;
  if (!('query' in opened)) {
    // Asked for by name, it is said every time; by default, once per repository (git mem model status says it on demand).
    const say = options.mode !== undefined || ctx.repo.mem.firstTime('model-missing');
    return lexicalOnly(say ? `${opened.notice}; ${fallback} (set mem.recall.mode lexical to stop looking for a model)` : undefined);
  }
  const { semanticRank, memoriesOf } = await import('./semantic.ts');
  const depth = Math.max(FUSION_DEPTH, limit);
  let ranking;
  try {
    ranking = await semanticRank(ctx, opened, options.query, filter, { limit: requested === 'semantic' ? limit : depth, budgetMs: options.embedBudgetMs });
  } catch (err) {
    return lexicalOnly(`embedding failed (${errorMessage(err).split('\n')[0]}); ${fallback}`);
  }
  const { report } = ranking;
  const notice =
    report.covered < report.total
      ? `semantic search covered ${report.covered} of ${report.total} memories; the rest are embedded by later recalls, or now by git mem model embed`
      : undefined;

  if (requested === 'semantic') return { hits: await memoriesOf(ctx, ranking.ranked), mode: 'semantic', terms: query.terms, ...(notice ? { notice } : {}) };

  const lexicalHits = lexical(depth);
  const fused = reciprocalRankFusion<{ key: string; id?: number }>(
    [lexicalHits.map((h) => ({ key: h.memory.key })), ranking.ranked.map((r) => ({ key: r.item.key, id: r.item.id }))],
    (x) => x.key,
    RRF_K,
  ).slice(0, limit);
  // Memories the lexical ranking did not return are read by row id.
  const byKey = new Map(lexicalHits.map((h) => [h.memory.key, h.memory]));
  // Read from the term index already when the stored vectors cover every memory (services/search/semantic.ts).
  for (const r of ranking.ranked) if (r.item.memory && !byKey.has(r.item.key)) byKey.set(r.item.key, r.item.memory);
  const needed = fused.filter((f) => !byKey.has(f.item.key) && f.item.id !== undefined).map((f) => f.item.id!);
  if (needed.length) for (const m of await ctx.index.byIds(needed)) byKey.set(m.key, m);
  const explained = new Map(lexicalHits.map((h) => [h.memory.key, h.explanation]));
  const top = maxFusedScore(2, RRF_K);
  const hits = fused.flatMap((f): RecallHit[] => {
    const memory = byKey.get(f.item.key);
    if (!memory) return [];
    const score = f.score / top;
    if (!options.explain) return [{ memory, score }];
    const lexicalPart = explained.get(f.item.key);
    const fusedRanks = { lexical: f.ranks[0] ?? null, semantic: f.ranks[1] ?? null };
    return [{ memory, score, explanation: { lexical: lexicalPart?.lexical ?? 0, matches: lexicalPart?.matches ?? [], fused: fusedRanks, score } }];
  });
  return { hits, mode: 'hybrid', terms: query.terms, ...(notice ? { notice } : {}) };
}

/**
 * Under GIT_MEM_TRACE, a line on stderr per hit a hook's recall found (`hits`, explained): injected
 * or not, and why: held back by the trust policy (`held`), or kept or dropped by the relevance
 * floor (the share `share` of the best hit not held back), with the matches that scored it.
 */
export function traceInjection(label: string, query: string, hits: readonly RecallHit[], share: number, held: (m: Memory) => boolean = () => false): void {
  const given = hits.filter((h) => !held(h.memory));
  explainFloor(given, share);
  const asked = query.replace(/\s+/g, ' ').trim();
  traceLine(`${label} "${asked.length > 80 ? `${asked.slice(0, 79)}…` : asked}": ${hits.length} hit${hits.length === 1 ? '' : 's'}`);
  for (const h of hits) {
    const e = h.explanation;
    const verdict = held(h.memory) ? 'held back by the trust policy' : e?.floor?.kept ? 'injected' : 'dropped by the relevance floor';
    const why = e ? explanationLines(e).join('; ') : `score ${h.score}`;
    traceLine(`${label}: ${formatId(h.memory)} ${verdict}: ${why}`);
  }
}

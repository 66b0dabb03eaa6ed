/**
 * Semantic search: cosine similarity between the query's vector and the
 * memories' stored vectors. Vectors are computed lazily: a search first embeds
 * the memories it may return that have no vector for the current text and
 * model (in batches, within a time budget), and stores them for next time.
 */
import type { Deps } from '../deps.ts';
import { embeddingHash, embeddingText, type Ranked } from '../../core/search/embedding.ts';
import type { Memory } from '../../core/memory.ts';
import type { Embedder } from '../../stores/embed/embedder.ts';
import { VECTORS_VERSION, VectorStore, type StoredVectors } from '../../stores/index/vectors/vector-store.ts';
import type { SearchFilter } from '../../stores/index/filter.ts';
import { tracePhase } from '../../io/trace.ts';
import fs from 'node:fs';
import { sha1Hex } from '../../core/hash.ts';
import { JsonFile } from '../../stores/cache/json-file.ts';

/** What this file's services use. */
export type SemanticDeps = Pick<Deps, 'repo' | 'index' | 'notes'>;

/** A recall spends at most this long embedding memories that have no vector yet; the rest wait for the next one. */
export const EMBED_BUDGET_MS = 5000;
/** Memories read and embedded per step (texts read from the index, then embedded and queued). */
const STEP = 64;

export function vectorsFile(ctx: Pick<Deps, 'repo'>): string {
  return ctx.repo.mem.file('vectors');
}

export interface BackfillReport {
  /** Memories the search could use (matching the filter). */
  total: number;
  /** Of those, how many have a vector now. */
  covered: number;
  /** Embedded by this call. */
  embedded: number;
  embedMs: number;
}

type Candidate = { id: number; key: string; hash: string };
/** A memory of a semantic ranking: a candidate of the SQLite index (by row id), or a memory read from the term index. */
export type SemanticItem = { key: string; id?: number; memory?: Memory };

/**
 * Which memories the stored vectors were last found to cover, all of them at
 * these notes tips: every memory (`all`, after git mem model embed) or the
 * current ones (`current`: active and resolved, after a recall that found all
 * of them embedded), while vectors.bin is the file it was measured on. While
 * it holds, a search needs no candidate list from the SQLite index: nothing
 * lacks a vector.
 */
interface Coverage {
  model: string;
  tips: string;
  scope: 'all' | 'current';
  size: number;
  mtimeMs: number;
}

/**
 * The record's version follows vectors.bin's: a record made over a file of
 * another version (which now reads as empty) does not hold for this one.
 */
function coverageFile(ctx: Pick<Deps, 'repo'>): JsonFile<Coverage> {
  return new JsonFile<Coverage>(ctx.repo.mem, 'vectorsCovered', Number(VECTORS_VERSION), (v) => typeof v.model === 'string' && typeof v.tips === 'string' && (v.scope === 'all' || v.scope === 'current'));
}

function vectorsStamp(ctx: Pick<Deps, 'repo'>): { size: number; mtimeMs: number } | null {
  try {
    const st = fs.statSync(vectorsFile(ctx));
    return { size: st.size, mtimeMs: st.mtimeMs };
  } catch {
    return null;
  }
}

/** The notes refs and their tips, as one string. */
export function tipsDigest(ctx: Pick<Deps, 'notes'>): string {
  return sha1Hex([...ctx.notes.tips()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([ref, oid]) => `${ref} ${oid}`).join('\n'));
}

const CURRENT_ONLY = new Set(['active', 'resolved']);

/** What coverage a filter's candidates measure: all memories, the current ones, or something narrower (null). */
function scopeOf(filter: SearchFilter): Coverage['scope'] | null {
  if (filter.namespaces?.length || filter.tags?.length || filter.spec || filter.since || filter.until) return null;
  const statuses = filter.statuses;
  if (!statuses || ['active', 'resolved', 'archived'].every((s) => statuses.includes(s as never))) return 'all';
  return statuses.length === 2 && statuses.every((s) => CURRENT_ONLY.has(s)) ? 'current' : null;
}

function covered(ctx: Pick<Deps, 'repo'>, model: string, tips: string, filter: SearchFilter): boolean {
  const c = coverageFile(ctx).read();
  const stamp = vectorsStamp(ctx);
  if (!c || !stamp || c.model !== model || c.tips !== tips || c.size !== stamp.size || c.mtimeMs !== stamp.mtimeMs) return false;
  return c.scope === 'all' || (filter.statuses !== undefined && filter.statuses.every((s) => CURRENT_ONLY.has(s)));
}

function markCovered(ctx: Pick<Deps, 'repo'>, model: string, tips: string, scope: Coverage['scope']): void {
  const stamp = vectorsStamp(ctx);
  if (stamp) coverageFile(ctx).write({ model, tips, scope, ...stamp });
}

/**
 * Embeds the candidates lacking a vector (within `budgetMs`, if given) and
 * persists them; returns the vectors by candidate and what was done. Given
 * `vectors` (already read), the file is not read again; without an
 * `embedder`, nothing is embedded (the hooks: what has no vector is left out).
 */
export async function backfill(
  ctx: SemanticDeps,
  embedder: Embedder | (() => Promise<Embedder | null>),
  candidates: Candidate[],
  options: {
    budgetMs?: number;
    complete?: boolean;
    progress?: (done: number, total: number) => void;
    modelId?: string;
    vectors?: StoredVectors;
    /** The notes tips read before the candidates (every memory, all statuses): recorded as covered when all have a vector. */
    coveredTips?: string;
  } = {},
): Promise<{ vectors: StoredVectors; report: BackfillReport }> {
  const modelId = typeof embedder === 'function' ? options.modelId! : embedder.modelId;
  const store = new VectorStore(vectorsFile(ctx));
  const vectors = options.vectors ?? (await store.vectors(modelId));
  const has = (c: Candidate) => vectors.has(c.key, c.hash);
  const missing = candidates.filter((c) => !has(c));
  const started = performance.now();
  let embedded = 0;
  // The model is loaded only when something lacks a vector (a static query needs none of it otherwise).
  const model = missing.length === 0 || options.budgetMs === 0 ? null : typeof embedder === 'function' ? await embedder() : embedder;
  for (let i = 0; model && i < missing.length; i += STEP) {
    if (options.budgetMs !== undefined && performance.now() - started > options.budgetMs) break;
    const step = missing.slice(i, i + STEP);
    const hashOf = new Map(step.map((c) => [c.key, c.hash]));
    const memories = await ctx.index.byIds(step.map((c) => c.id));
    const got = await model.embed(memories.map(embeddingText));
    const rows = memories.map((m, n) => ({ key: m.key, hash: hashOf.get(m.key) ?? '', vec: got[n]! }));
    store.add(modelId, rows);
    for (const r of rows) vectors.set(r.key, r.hash, r.vec);
    embedded += rows.length;
    options.progress?.(embedded, missing.length);
  }
  const embedMs = performance.now() - started;
  // `complete`: the candidates are every current memory, so vectors of anything else are stale.
  // Without a writable cache folder the vectors serve this search only.
  if ((embedded > 0 || options.complete) && ctx.repo.mem.writable()) await store.persist(modelId, options.complete ? new Map(candidates.map((c) => [c.key, c.hash])) : undefined);
  const count = candidates.filter(has).length;
  if (options.coveredTips && count === candidates.length && ctx.repo.mem.writable()) markCovered(ctx, modelId, options.coveredTips, 'all');
  return { vectors, report: { total: candidates.length, covered: count, embedded, embedMs } };
}

export interface SemanticRanking {
  ranked: Array<Ranked<SemanticItem>>;
  report: BackfillReport;
}

/**
 * What a search embeds with: the query (the full model, or the static table)
 * and the memories lacking a vector (the full model, loaded only if some
 * lack one; null: none are embedded, as in the hooks).
 */
export interface SearchEmbedders {
  query: Embedder;
  documents: () => Promise<Embedder | null>;
}

/** Candidates most similar to the query, best first, at most `limit`. */
export async function semanticRank(
  ctx: SemanticDeps,
  embedders: SearchEmbedders,
  query: string,
  filter: SearchFilter,
  options: { limit: number; budgetMs?: number; progress?: (done: number, total: number) => void },
): Promise<SemanticRanking> {
  // The query first: if the model cannot embed, nothing else is spent.
  const [queryVector] = await embedders.query.embed([query]);
  // Read before the candidates: a memory captured meanwhile is among them, so coverage measured below holds for these tips.
  const tips = tipsDigest(ctx);
  if (covered(ctx, embedders.query.modelId, tips, filter)) {
    // Every memory has its vector: the term index gives the memories, the SQLite index is not opened.
    const found = await storedSemanticRank(ctx, queryVector!, embedders.query.modelId, filter, options.limit);
    tracePhase('semantic scan done (vectors cover every memory)');
    return { ranked: found.map((f) => ({ item: { key: f.memory.key, memory: f.memory }, score: f.score })), report: { total: found.length, covered: found.length, embedded: 0, embedMs: 0 } };
  }
  const candidates = await ctx.index.candidates(filter);
  tracePhase('semantic candidates read');
  const { vectors, report } = await backfill(ctx, embedders.documents, candidates, {
    budgetMs: options.budgetMs ?? EMBED_BUDGET_MS,
    complete: false,
    progress: options.progress,
    modelId: embedders.query.modelId,
  });
  const ranked = vectors.rank(queryVector!, candidates, options.limit);
  tracePhase('semantic scan done');
  const scope = scopeOf(filter);
  if (scope && report.covered === report.total && ctx.repo.mem.writable()) markCovered(ctx, embedders.query.modelId, tips, scope);
  return { ranked, report };
}

export async function memoriesOf(ctx: SemanticDeps, ranked: Array<Ranked<SemanticItem>>): Promise<Array<{ memory: Memory; score: number }>> {
  const ids = ranked.flatMap((r) => (r.item.memory || r.item.id === undefined ? [] : [r.item.id]));
  const memories = ids.length ? await ctx.index.byIds(ids) : [];
  const byKey = new Map(memories.map((m) => [m.key, m]));
  return ranked.flatMap((r) => {
    const memory = r.item.memory ?? byKey.get(r.item.key);
    return memory ? [{ memory, score: r.score }] : [];
  });
}

/**
 * Semantic ranking over the stored vectors alone, for the hooks: no model, no
 * SQLite index. The best stored vectors are taken first, then the current
 * memories with those keys that pass the filter are read from the term index,
 * and a vector counts only while its memory's text is the one it was computed
 * from. Memories without a vector are not found (none is computed here).
 */
export async function storedSemanticRank(
  ctx: Pick<Deps, 'repo' | 'index'>,
  queryVector: Float32Array,
  modelId: string,
  filter: SearchFilter,
  limit: number,
  options: { exactMax?: number } = {},
): Promise<Array<{ memory: Memory; score: number }>> {
  const vectors = await new VectorStore(vectorsFile(ctx)).vectors(modelId);
  if (vectors.size === 0) return [];
  const reader = await ctx.index.current();
  // Some of the best may be stale or filtered out: a few more than asked, and more again while that leaves too few.
  for (let pool = limit * 2 + 8; ; pool *= 8) {
    const top = vectors.rankStored(queryVector, pool, options.exactMax);
    const scores = new Map(top.map((t) => [t.key, t]));
    // A vector counts only while its memory's text is the one it was computed from.
    const memories = reader.firstWithKeys(top.map((t) => t.key), filter, limit, (m) => embeddingHash(m) === scores.get(m.key)?.hash);
    if (memories.length >= limit || top.length < pool) {
      tracePhase('stored vectors scanned');
      return memories.map((memory) => ({ memory, score: scores.get(memory.key)!.score }));
    }
  }
}

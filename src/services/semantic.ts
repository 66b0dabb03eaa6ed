/**
 * Semantic search: cosine similarity between the query's vector and the
 * memories' stored vectors. Vectors are computed lazily: a search first embeds
 * the memories it may return that have no vector for the current text and
 * model (in batches, within a time budget), and stores them for next time.
 */
import type { Deps } from './deps.ts';
import { embeddingHash, embeddingText, type Ranked } from '../core/search/embedding.ts';
import type { Memory } from '../core/memory.ts';
import type { Embedder } from '../stores/embed/embedder.ts';
import { VectorStore, type StoredVectors } from '../stores/index/vectors/vector-store.ts';
import type { SearchFilter } from '../stores/index/filter.ts';
import { tracePhase } from '../io/trace.ts';

/** What this file's services use. */
export type SemanticDeps = Pick<Deps, 'repo' | 'index'>;

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
  options: { budgetMs?: number; complete?: boolean; progress?: (done: number, total: number) => void; modelId?: string; vectors?: StoredVectors } = {},
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
  const covered = candidates.filter(has).length;
  return { vectors, report: { total: candidates.length, covered, embedded, embedMs } };
}

export interface SemanticRanking {
  ranked: Array<Ranked<Candidate>>;
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
  return { ranked, report };
}

export async function memoriesOf(ctx: SemanticDeps, ranked: Array<Ranked<Candidate>>): Promise<Array<{ memory: Memory; score: number }>> {
  const memories = await ctx.index.byIds(ranked.map((r) => r.item.id));
  const byKey = new Map(memories.map((m) => [m.key, m]));
  return ranked.flatMap((r) => {
    const memory = byKey.get(r.item.key);
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
  ctx: SemanticDeps,
  query: Embedder,
  text: string,
  filter: SearchFilter,
  limit: number,
): Promise<Array<{ memory: Memory; score: number }>> {
  const [queryVector] = await query.embed([text]);
  const vectors = await new VectorStore(vectorsFile(ctx)).vectors(query.modelId);
  if (vectors.size === 0) return [];
  // Some of the best may be stale or filtered out: a few more than asked.
  const top = vectors.rankStored(queryVector!, limit * 4 + 16);
  tracePhase('stored vectors scanned');
  const byKey = new Map((await ctx.index.current()).withKeys(top.map((t) => t.key), filter).map((m) => [m.key, m]));
  const out: Array<{ memory: Memory; score: number }> = [];
  for (const t of top) {
    const memory = byKey.get(t.key);
    if (memory && embeddingHash(memory) === t.hash) out.push({ memory, score: t.score });
    if (out.length >= limit) break;
  }
  return out;
}

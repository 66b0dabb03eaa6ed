/**
 * Semantic search: cosine similarity between the query's vector and the
 * memories' stored vectors. Vectors are computed lazily: a search first embeds
 * the memories it may return that have no vector for the current text and
 * model (in batches, within a time budget), and stores them for next time.
 */
import type { Deps } from './deps.ts';
import { embeddingText, type Ranked } from '../core/search/embedding.ts';
import type { Memory } from '../core/memory.ts';
import type { Embedder } from '../stores/embed/embedder.ts';
import { VectorStore, type StoredVectors } from '../stores/index/vectors/vector-store.ts';
import type { SearchFilter } from '../stores/index/filter.ts';

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
 * persists them; returns the vectors by candidate and what was done.
 */
export async function backfill(
  ctx: SemanticDeps,
  embedder: Embedder,
  candidates: Candidate[],
  options: { budgetMs?: number; complete?: boolean; progress?: (done: number, total: number) => void } = {},
): Promise<{ vectors: StoredVectors; report: BackfillReport }> {
  const store = new VectorStore(vectorsFile(ctx));
  const vectors = await store.vectors(embedder.modelId);
  const has = (c: Candidate) => vectors.has(c.key, c.hash);
  const missing = candidates.filter((c) => !has(c));
  const started = performance.now();
  let embedded = 0;
  for (let i = 0; i < missing.length; i += STEP) {
    if (options.budgetMs !== undefined && performance.now() - started > options.budgetMs) break;
    const step = missing.slice(i, i + STEP);
    const hashOf = new Map(step.map((c) => [c.key, c.hash]));
    const memories = await ctx.index.byIds(step.map((c) => c.id));
    const got = await embedder.embed(memories.map(embeddingText));
    const rows = memories.map((m, n) => ({ key: m.key, hash: hashOf.get(m.key) ?? '', vec: got[n]! }));
    store.add(embedder.modelId, rows);
    for (const r of rows) vectors.set(r.key, r.hash, r.vec);
    embedded += rows.length;
    options.progress?.(embedded, missing.length);
  }
  const embedMs = performance.now() - started;
  // `complete`: the candidates are every current memory, so vectors of anything else are stale.
  // Without a writable cache folder the vectors serve this search only.
  if ((embedded > 0 || options.complete) && ctx.repo.mem.writable()) await store.persist(embedder.modelId, options.complete ? new Map(candidates.map((c) => [c.key, c.hash])) : undefined);
  const covered = candidates.filter(has).length;
  return { vectors, report: { total: candidates.length, covered, embedded, embedMs } };
}

export interface SemanticRanking {
  ranked: Array<Ranked<Candidate>>;
  report: BackfillReport;
}

/** Candidates most similar to the query, best first, at most `limit`. */
export async function semanticRank(
  ctx: SemanticDeps,
  embedder: Embedder,
  query: string,
  filter: SearchFilter,
  options: { limit: number; budgetMs?: number; progress?: (done: number, total: number) => void },
): Promise<SemanticRanking> {
  // The query first: if the model cannot embed, nothing else is spent.
  const [queryVector] = await embedder.embed([query]);
  const candidates = await ctx.index.candidates(filter);
  const { vectors, report } = await backfill(ctx, embedder, candidates, { budgetMs: options.budgetMs ?? EMBED_BUDGET_MS, complete: false, progress: options.progress });
  const ranked = vectors.rank(queryVector!, candidates, options.limit);
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

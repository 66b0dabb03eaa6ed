/**
 * The prompt hook's recall (UserPromptSubmit, when the prompt asks to
 * recall): lexical search as ever, plus semantic context where it is cheap.
 * With the static query table and stored vectors there (git mem model embed
 * makes both), the query's static vector is compared with the stored vectors
 * (services/search/semantic.ts storedSemanticRank: no model, no SQLite), and up to
 * SEMANTIC_ADDITIONS memories the lexical search did not return are added
 * when their cosine is within the relevance floor's share of the best
 * cosine. Above 2,000 stored vectors the scan compares sign bits first
 * (core/search/quantized.ts), a few milliseconds at 10,000. Without the table or vectors, or with mem.hooks.semantic false or
 * mem.recall.mode lexical, it is lexical alone, as before.
 */
import { HOOK_EXACT_SCAN_MAX } from '../../core/search/quantized.ts';
import { traceLine } from '../../io/trace.ts';
import { CURRENT_STATUSES, type RecallDeps, type RecallHit, recall } from '../search/recall.ts';

/** Memories semantic search may add to a prompt's lexical hits. */
export const SEMANTIC_ADDITIONS = 2;
/** Lexical hits a prompt's recall returns (as before issue 36). */
const LEXICAL_LIMIT = 5;

export async function promptRecall(ctx: RecallDeps, query: string, options: { explain?: boolean } = {}): Promise<{ hits: RecallHit[] }> {
  // A prompt of stop words alone has nothing to search lexically; semantic search may still find something.
  const { hits } = await recall(ctx, { query, limit: LEXICAL_LIMIT, mode: 'lexical', explain: options.explain }).catch(() => ({ hits: [] as RecallHit[] }));
  if (!ctx.settings.hooksSemantic || ctx.settings.recallMode === 'lexical') return { hits };
  try {
    const { openSearchEmbedders } = await import('../search/model.ts');
    const opened = await openSearchEmbedders(ctx, { model: false });
    if (!('query' in opened)) return { hits };
    const { storedSemanticRank } = await import('../search/semantic.ts');
    const [vector] = await opened.query.embed([query]);
    const ranked = await storedSemanticRank(ctx, vector!, opened.query.modelId, { statuses: CURRENT_STATUSES }, LEXICAL_LIMIT, { exactMax: HOOK_EXACT_SCAN_MAX });
    const best = ranked[0]?.score ?? 0;
    if (best <= 0) return { hits };
    const shown = new Set(hits.map((h) => h.memory.key));
    const min = best * ctx.settings.relevanceFloor;
    // Scored as the best lexical hit, so that the hook's relative floor keeps them; after the lexical hits.
    const score = hits[0]?.score ?? 1;
    const added = ranked.filter((r) => r.score >= min && !shown.has(r.memory.key)).slice(0, SEMANTIC_ADDITIONS);
    for (const a of added) traceLine(`prompt recall: semantic adds ${a.memory.namespace}:${a.memory.key.slice(0, 10)} (cosine ${a.score.toFixed(3)}, best ${best.toFixed(3)})`);
    const explained = (a: (typeof added)[number]): RecallHit =>
      options.explain ? { memory: a.memory, score, explanation: { lexical: 0, matches: [], fused: { lexical: null, semantic: ranked.indexOf(a) + 1 }, score } } : { memory: a.memory, score };
    return { hits: [...hits, ...added.map(explained)] };
  } catch {
    // Hooks never fail for semantic context: the lexical hits stand.
    return { hits };
  }
}

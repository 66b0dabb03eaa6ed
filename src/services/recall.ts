/**
 * Recall: ranked search over the memories. Lexical search is BM25F over the
 * index's FTS4 table (summary and tags weighted above the body, porter
 * stemming, stop words dropped, terms OR-ed, the last also as a prefix).
 */
import { UsageError } from '../core/errors.ts';
import type { Memory, Status } from '../core/memory.ts';
import { bm25, buildLexicalQuery, decodeMatchinfo, DEFAULT_WEIGHTS } from '../core/rank.ts';
import type { AppContext } from '../context.ts';

export const RECALL_MODES = ['hybrid', 'lexical', 'semantic'] as const;
export type RecallMode = (typeof RECALL_MODES)[number];
export const DEFAULT_RECALL_LIMIT = 10;

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
}

export interface RecallHit {
  memory: Memory;
  /** Higher is better; comparable only within one result list. */
  score: number;
}

export interface RecallResult {
  hits: RecallHit[];
  /** The mode that actually ran. */
  mode: RecallMode;
  /** The query terms searched for (stop words removed). */
  terms: string[];
  /** One line for stderr when the mode asked for could not run as such. */
  notice?: string;
}

export async function recall(ctx: AppContext, options: RecallOptions): Promise<RecallResult> {
  const query = buildLexicalQuery(options.query);
  if (!query) throw new UsageError('the query has no words to search for');
  const limit = options.limit ?? DEFAULT_RECALL_LIMIT;
  if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit must be a whole number of at least 1');
  const requested = options.mode ?? 'hybrid';
  const notice = requested === 'lexical' ? undefined : `no embedding model is available; ${requested} recall falls back to lexical search`;

  const index = await ctx.index();
  const hits = index.search(
    query.match,
    { namespaces: options.namespaces, tags: options.tags, spec: options.spec, statuses: options.statuses, since: options.since, until: options.until, limit },
    (info) => bm25(decodeMatchinfo(info), { weights: DEFAULT_WEIGHTS }, query.groups),
  );
  return { hits, mode: 'lexical', terms: query.terms, ...(notice ? { notice } : {}) };
}

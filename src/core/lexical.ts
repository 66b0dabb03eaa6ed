/**
 * The lexical ranking pipeline, pure: BM25F over the query's term groups
 * (core/rank.ts: stop words out, stems, synonyms, the last word as a prefix),
 * then, when asked, pseudo-relevance feedback (core/feedback.ts). The term
 * index (stores/index/term-index.ts) supplies postings and texts; the stages
 * and what each was worth on the labeled fixture are in docs/search.md.
 */
import { DEFAULT_FEEDBACK, type FeedbackOptions, feedbackTerms } from './feedback.ts';
import { type Bm25Options, bm25fScorer, type LexicalQuery, type PostingsSource } from './rank.ts';

export interface LexicalSource extends PostingsSource {
  /** Memories holding the term in any field (its postings count), without reading the postings. */
  docFrequency(term: string): number;
  /** A document's searched text: summary, tags joined by spaces, body. */
  fieldTexts(doc: number): readonly string[];
}

export interface LexicalOptions extends Bm25Options {
  /** Pseudo-relevance feedback; off when absent or false. */
  feedback?: FeedbackOptions | false;
}

/** The ranking recall uses (every path: the command, the hooks, MCP): BM25F at rank.ts's defaults, then feedback. */
export const DEFAULT_LEXICAL: LexicalOptions = { feedback: DEFAULT_FEEDBACK };

/**
 * BM25F alone: for callers that compare the words themselves after the search
 * (links at capture, forget --query), where feedback would only cost time.
 */
export const PLAIN_LEXICAL: LexicalOptions = {};

/**
 * Scores of every document (0: no match). `accept` says which documents the
 * caller's filter keeps: feedback learns only from those.
 */
export function lexicalScores(source: LexicalSource, query: LexicalQuery, accept: (doc: number) => boolean, options: LexicalOptions = {}): Float64Array {
  const score = bm25fScorer(source, options);
  const scores = score(query.groups);
  const feedback = options.feedback;
  if (!feedback) return scores;
  const top = bestDocuments(scores, score.matched(), accept, feedback.docs);
  if (!top.length) return scores;
  const own = query.groups.flatMap((g) => [g.term, ...(g.synonyms ?? [])]);
  const expansion = feedbackTerms(own, top.map((d) => ({ score: scores[d]!, fields: source.fieldTexts(d) })), (t) => source.docFrequency(t), source.memoryCount ?? source.docCount, feedback);
  if (!expansion.length) return scores;
  // Feedback reorders the memories matching the query and brings in none: a
  // result always holds a word of the query (or a synonym), which is what a
  // person reading it, or the hooks' relevance floor, expects. (Letting it
  // bring in others was no better on the fixture: checking recall@10 0.501 vs 0.504.)
  // So only their postings entries are scored, into the same array.
  return score(expansion, scores, true);
}

/**
 * The `count` best-scoring accepted documents, best first, among `docs` (the
 * matches, in any order) or, when null, every document. In document order:
 * equal scores list the later document first, and at the cut the earlier
 * one stays (choosing by newest first throughout was worse on the fixture:
 * checking recall@10 0.492 against 0.501).
 */
function bestDocuments(scores: Float64Array, docs: Int32Array | null, accept: (doc: number) => boolean, count: number): number[] {
  const out: number[] = [];
  const ordered = docs ? docs.slice().sort() : null;
  const end = ordered ? ordered.length : scores.length;
  // The score to beat: above 0, then, once `count` are held, above the last of them.
  let floor = 0;
  for (let k = 0; k < end; k++) {
    const d = ordered ? ordered[k]! : k;
    const s = scores[d]!;
    if (s <= floor || !accept(d)) continue;
    let i = out.length;
    while (i > 0 && scores[out[i - 1]!]! <= s) i--;
    out.splice(i, 0, d);
    if (out.length > count) out.pop();
    if (out.length === count) floor = scores[out[count - 1]!]!;
  }
  return out;
}

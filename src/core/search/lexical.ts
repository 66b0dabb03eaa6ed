/**
 * The lexical ranking pipeline, pure: BM25F over the query's term groups
 * (core/search/analyzer.ts and query.ts: stop words out, stems, synonyms, the last word as a prefix),
 * then, when asked, pseudo-relevance feedback (core/search/feedback.ts). The term
 * index (stores/index/terms/reader.ts) supplies postings and texts; the stages
 * and what each was worth on the labeled fixture are in docs/search.md.
 */
import { DEFAULT_FEEDBACK, type FeedbackOptions, feedbackTerms } from './feedback.ts';
import { type Bm25Options, bm25fScorer, FIELDS, type PostingsSource } from './bm25f.ts';
import { phraseCount, phraseTerms } from './phrases.ts';
import type { LexicalQuery } from './query.ts';

export interface LexicalSource extends PostingsSource {
  /**
   * Creation order of two documents (creation time, then key), which a
   * rebuild's document order follows: feedback settles equal scores by it.
   */
  compareCreation?(a: number, b: number): number;
  /** Memories holding the term in any field (its postings count), without reading the postings. */
  docFrequency(term: string): number;
  /** A document's searched text: summary, tags joined by spaces, body. */
  fieldTexts(doc: number): readonly string[];
}

export interface LexicalOptions extends Bm25Options {
  /** Pseudo-relevance feedback; off when absent or false. */
  feedback?: FeedbackOptions | false;
}

/** The ranking recall uses (every path: the command, the hooks, MCP): BM25F at bm25f.ts's defaults, then feedback. */
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
  const scores = withFeedback(score, scoreCommonLast(score, source, query.groups), source, query, accept, options);
  return query.phrases?.length ? withPhrases(scores, score.matched(), source, query, accept, options) : scores;
}

/** The memories to check for a quoted phrase: the best this many by score (the phrase's words are among the query's, so its memories score high). */
export const PHRASE_CANDIDATES = 50;

/**
 * Quoted phrases (core/search/phrases.ts): among the PHRASE_CANDIDATES best matches, a memory
 * holding a phrase (in any field) gains the best match's score once for each phrase it holds, so
 * it ranks above every memory that holds the words apart, and memories holding more of the
 * phrases above those holding fewer; the order within each stays the words' scores. A boost, not
 * a filter: a memory saying it in other words is still found.
 */
function withPhrases(scores: Float64Array, matched: Int32Array | null, source: LexicalSource, query: LexicalQuery, accept: (doc: number) => boolean, options: LexicalOptions): Float64Array {
  const candidates = bestDocuments(scores, matched, accept, PHRASE_CANDIDATES, source.compareCreation?.bind(source));
  if (!candidates.length) return scores;
  const best = scores[candidates[0]!]!;
  for (const d of candidates) {
    const fields = source.fieldTexts(d).map(phraseTerms);
    for (const phrase of query.phrases!) {
      const frequencies = FIELDS.map((_, i) => phraseCount(fields[i] ?? [], phrase)) as [number, number, number];
      if (frequencies.every((f) => f === 0)) continue;
      scores[d]! += best;
      if (options.explain?.wants(d)) options.explain.record(d, { word: phrase.text, kind: 'phrase', terms: phrase.terms, frequencies, fields: [0, 0, 0], idf: 0, weight: 1, score: best });
    }
  }
  return scores;
}

/** Pseudo-relevance feedback over the first pass's scores, when asked. */
function withFeedback(
  score: ReturnType<typeof bm25fScorer>,
  scores: Float64Array,
  source: LexicalSource,
  query: LexicalQuery,
  accept: (doc: number) => boolean,
  options: LexicalOptions,
): Float64Array {
  const feedback = options.feedback;
  if (!feedback) return scores;
  const top = bestDocuments(scores, score.matched(), accept, feedback.docs, source.compareCreation?.bind(source));
  if (!top.length) return scores;
  // A related word (query.ts) may come back as a feedback word: found in the best results too, it
  // is evidence twice over (keeping related words out of feedback was worse: checking recall@10
  // 0.539 against 0.558, docs/search.md).
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

/** A query word in more than this share of the memories is common: it orders the matches of the others and brings in none. */
export const COMMON_SHARE = 0.5;
/**
 * ... in a collection of at least this many: below it, scoring every memory for a word costs
 * little, and a word in half of a few memories still tells them apart (its IDF is far from 0).
 */
export const COMMON_MIN_MEMORIES = 1000;

/**
 * The query's groups scored, a common word's (in more than COMMON_SHARE of
 * COMMON_MIN_MEMORIES or more: "chose" where most memories are "We chose X because ...")
 * only over the memories the other words matched: it says little about
 * which memory is meant (its IDF is near 0) and, at 100,000 memories,
 * scoring every memory for it cost a prompt's recall 40 ms and returned
 * memories matched by it alone at near-zero scores, which the relative floor
 * keeps. When the other words match nothing (a word no memory holds: "why
 * did we choose sqlite" where none is about sqlite), nothing is found: the
 * memories that merely say "chose" are not what was asked. A query of
 * common words alone is scored as any.
 */
function scoreCommonLast(score: ReturnType<typeof bm25fScorer>, source: LexicalSource, groups: LexicalQuery['groups']): Float64Array {
  const total = source.memoryCount ?? source.docCount;
  if (total < COMMON_MIN_MEMORIES) return score(groups);
  const common = groups.filter((g) => !g.joined && source.docFrequency(g.term) > COMMON_SHARE * total);
  // Only a typed word that is not common decides: a joined one ("rebase hook": rebasehook) is no word of the query's.
  if (common.length === 0 || !groups.some((g) => !g.joined && !common.includes(g))) return score(groups);
  return score(common, score(groups.filter((g) => !common.includes(g))), true);
}

/**
 * The `count` best-scoring accepted documents, best first, among `docs` (the
 * matches, in any order) or, when null, every document. Equal scores are
 * settled by creation order (source.compareCreation, else document order),
 * never by where an update put a document, so an index brought up to date by
 * the change learns from the same documents as one rebuilt: at the cut the
 * earlier one stays, and in the list the later one comes first (choosing by
 * newest first throughout was worse on the fixture: checking recall@10 0.492
 * against 0.501).
 */
function bestDocuments(scores: Float64Array, docs: Int32Array | null, accept: (doc: number) => boolean, count: number, compareCreation?: (a: number, b: number) => number): number[] {
  const earlier = compareCreation ? (a: number, b: number) => compareCreation(a, b) < 0 : (a: number, b: number) => a < b;
  // Whether x is kept before y: a higher score, or the same score and created earlier.
  const outranks = (x: number, y: number) => scores[x]! > scores[y]! || (scores[x] === scores[y] && earlier(x, y));
  const out: number[] = [];
  const end = docs ? docs.length : scores.length;
  for (let k = 0; k < end; k++) {
    const d = docs ? docs[k]! : k;
    if (!(scores[d]! > 0)) continue;
    if (out.length === count && !outranks(d, out[count - 1]!)) continue;
    if (!accept(d)) continue;
    let i = out.length;
    while (i > 0 && outranks(d, out[i - 1]!)) i--;
    out.splice(i, 0, d);
    if (out.length > count) out.pop();
  }
  // Listed best first, the later of equal scores first.
  return out.sort((x, y) => scores[y]! - scores[x]! || (earlier(x, y) ? 1 : earlier(y, x) ? -1 : 0));
}

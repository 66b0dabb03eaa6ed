/**
 * Pseudo-relevance feedback, RM3-style (Lavrenko and Croft's relevance model,
 * as Anserini's RM3 applies it to BM25): the best few results of a first pass
 * are taken as relevant, the words they share are added to the query with a
 * weight below the query's own, and the memories matching the query are
 * scored again (core/search/lexical.ts): one that also says what the best hits say
 * moves up. Pure.
 */
import { analyzeText, STOP_WORDS, termOf } from './analyzer.ts';
import type { TermGroup } from './query.ts';

export interface FeedbackOptions {
  /** Results of the first pass taken as relevant. */
  docs: number;
  /** Words added at most. */
  terms: number;
  /** Weight of the best added word, relative to a query word (1); the others are scaled by their share. */
  weight: number;
  /** Words in more than this share of the memories are not added: they say nothing about the topic. */
  maxDocShare: number;
}

const NUMBER = /^\d+$/;

export const DEFAULT_FEEDBACK: FeedbackOptions = { docs: 10, terms: 10, weight: 0.2, maxDocShare: 0.1 };

export interface FeedbackDocument {
  /** The first pass's score. */
  score: number;
  /** The searched text (summary, tags, body). */
  fields: readonly string[];
}

/**
 * The expansion terms for a query from the best results of a first pass:
 * each word's weight is the sum over those results of its share of the
 * result's words times the result's share of their scores (P(w|R) of the
 * relevance model); the query's own terms, stop words, numbers and words
 * found in only one memory (nothing new to find) or in too many are left out.
 */
export function feedbackTerms(
  queryTerms: readonly string[],
  top: readonly FeedbackDocument[],
  docFrequency: (term: string) => number,
  docCount: number,
  options: FeedbackOptions = DEFAULT_FEEDBACK,
): TermGroup[] {
  const docs = top.slice(0, options.docs).filter((d) => d.score > 0);
  const total = docs.reduce((sum, d) => sum + d.score, 0);
  if (!total || options.terms < 1) return [];
  const own = new Set(queryTerms);
  // Each distinct word is judged and stemmed once (the results share many): its term, or null when it cannot be added.
  const judged = new Map<string, string | null>();
  const weights = new Map<string, number>();
  const terms: string[] = [];
  for (const doc of docs) {
    terms.length = 0;
    for (const text of doc.fields) {
      for (const token of analyzeText(text)) {
        let term = judged.get(token);
        if (term === undefined) {
          term = token.length > 1 && !STOP_WORDS.has(token) && !NUMBER.test(token) ? termOf(token) : null;
          judged.set(token, term);
        }
        if (term !== null) terms.push(term);
      }
    }
    if (!terms.length) continue;
    const share = doc.score / total / terms.length;
    for (const term of terms) if (!own.has(term)) weights.set(term, (weights.get(term) ?? 0) + share);
  }
  const maxDf = Math.max(2, options.maxDocShare * docCount);
  const ranked = [...weights].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  // Frequencies are looked up best first (each is a dictionary search), and only so far.
  const chosen: Array<[string, number]> = [];
  for (let i = 0; i < ranked.length && chosen.length < options.terms && i < 4 * options.terms; i++) {
    const df = docFrequency(ranked[i]![0]);
    if (df >= 2 && df <= maxDf) chosen.push(ranked[i]!);
  }
  const best = chosen[0]?.[1] ?? 0;
  return chosen.map(([term, w]) => ({ term, weight: (options.weight * w) / best, feedback: true }));
}

/**
 * Lexical similarity of memories, pure: how close two memories are in words
 * (their stemmed content terms), and every pair of one namespace above a
 * threshold (a similarity join through an inverted list of terms). The
 * lifecycle (links at capture, `related`, consolidation, aging) decides with it
 * when no embedding model is at hand.
 */
import type { Memory } from '../memory.ts';
import { withLinks } from '../lifecycle/links.ts';
import { analyzeText, queryTerms, STOP_WORDS, termOf } from './analyzer.ts';

/** The body counts up to this many characters: the start says what it is about; a long body would dilute every overlap. */
const BODY_CHARS = 600;

/** The distinct stemmed content words of a memory's summary, tags and the start of its body. */
export function contentTerms(m: Pick<Memory, 'summary' | 'tags' | 'body'>): Set<string> {
  // Analysed as the index analyses text: identifiers count as their parts and whole.
  const words = analyzeText(`${m.summary} ${m.tags.join(' ')} ${m.body.slice(0, BODY_CHARS)}`);
  const terms = new Set<string>();
  for (const w of words) {
    if (w.length < 2 || STOP_WORDS.has(w) || /^\d+$/.test(w)) continue;
    terms.add(termOf(w));
  }
  return terms;
}

/** Cosine of the two term sets (as 0/1 vectors): shared terms over the geometric mean of the sizes, 0 to 1. */
export function setCosine(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const t of small) if (large.has(t)) shared++;
  return shared / Math.sqrt(a.size * b.size);
}

export interface SimilarPair {
  a: number;
  b: number;
  similarity: number;
}

/**
 * Every pair of documents whose similarity is at least `threshold`, a < b.
 * Candidates share at least one term held by few documents (a term in more
 * than `maxShare` of them, at least 50, is no evidence of kinship and would
 * make the join quadratic). The rare terms shared are counted first; the exact
 * similarity is computed only where that count, plus every common term the
 * smaller document has, could reach the threshold.
 */
export function similarPairs(docs: ReadonlyArray<ReadonlySet<string>>, threshold: number, maxShare = 0.01): SimilarPair[] {
  const postings = new Map<string, number[]>();
  docs.forEach((terms, d) => {
    for (const t of terms) {
      const list = postings.get(t);
      if (list) list.push(d);
      else postings.set(t, [d]);
    }
  });
  const cap = Math.max(50, Math.floor(docs.length * maxShare));
  const common = docs.map((terms) => {
    let n = 0;
    for (const t of terms) if (postings.get(t)!.length > cap) n++;
    return n;
  });
  const pairs: SimilarPair[] = [];
  const shared = new Int32Array(docs.length);
  const touched: number[] = [];
  docs.forEach((terms, d) => {
    for (const t of terms) {
      const list = postings.get(t)!;
      if (list.length > cap) continue;
      for (const other of list) {
        if (other <= d) continue;
        if (shared[other] === 0) touched.push(other);
        shared[other] = shared[other]! + 1;
      }
    }
    for (const other of touched) {
      const bound = shared[other]! + Math.min(common[d]!, common[other]!);
      shared[other] = 0;
      if (bound < threshold * Math.sqrt(terms.size * docs[other]!.size)) continue;
      const similarity = setCosine(terms, docs[other]!);
      if (similarity >= threshold) pairs.push({ a: d, b: other, similarity });
    }
    touched.length = 0;
  });
  return pairs.sort((x, y) => x.a - y.a || x.b - y.b);
}

/**
 * `m` with links (relates_to, as `refOf` writes them) to the closest of
 * `others` of its namespace at or above the threshold, at most `max` in all.
 */
export function linkToSimilar<M extends Pick<Memory, 'key' | 'namespace' | 'summary' | 'tags' | 'body' | 'relatesTo'>>(
  m: M,
  others: readonly M[],
  threshold: number,
  refOf: (o: M) => string,
  max: number,
): M {
  if (threshold >= 1 || m.relatesTo.length >= max) return m;
  const mine = contentTerms(m);
  const close = others
    .filter((o) => o.key !== m.key && o.namespace === m.namespace)
    .map((o) => ({ ref: refOf(o), similarity: setCosine(mine, contentTerms(o)) }))
    .filter((o) => o.similarity >= threshold && !m.relatesTo.includes(o.ref))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, max - m.relatesTo.length);
  return withLinks(m, close.map((c) => c.ref));
}

/**
 * Whether the memory holds every content word of `query` (stemmed), in its
 * summary, tags or body: the strict match a destructive filter needs, where
 * ranking would also bring what merely resembles the words.
 */
export function holdsEveryWord(m: Pick<Memory, 'summary' | 'tags' | 'body'>, query: string): boolean {
  const wanted = queryTerms(query).map(termOf);
  if (wanted.length === 0) return false;
  const held = new Set(analyzeText(`${m.summary} ${m.tags.join(' ')} ${m.body}`).map(termOf));
  return wanted.every((t) => held.has(t));
}

/**
 * BM25F (field-weighted BM25) over the postings of a term index
 * (stores/index/terms/reader.ts), pure, with the record of what matched
 * when an explanation is asked for. Kept free of I/O so that the formula is
 * tested without any file.
 */
import { SYNONYM_WEIGHT, type TermGroup } from './query.ts';

/** The fields of a memory that are searched, in order; weights and lengths are given in this order. */
export const FIELDS = ['summary', 'tags', 'body'] as const;

/**
 * The BM25F parameters recall uses, chosen by a sweep on the tuning half of
 * the ranking fixture (docs/search.md). Summary and tags say what a memory is
 * about, the body mostly how: weights 2, 2, 1. k1 1.2 (0.6 before related
 * words, issue 35: with weak expansion matches in the sum, a word the memory
 * repeats is worth a little more again). b 0.3: lengths vary less in meaning
 * than in words.
 */
export const DEFAULT_WEIGHTS: readonly number[] = [2, 2, 1];
export const DEFAULT_K1 = 1.2;
export const DEFAULT_B = 0.3;

/**
 * Related words (core/search/query.ts) found in more than this share of the memories are not
 * scored: they say little (a low IDF) and are the costliest lists (no change on the fixture's tuning
 * half at 0.1 or 0.2; docs/search.md, speed of related words).
 */
export const RELATED_MAX_SHARE = 0.1;

export interface Bm25Options {
  /** One weight per field (FIELDS order). */
  weights?: readonly number[];
  /** Term-frequency saturation. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b?: number;
  /** What a synonym's match is worth against the word's own. */
  synonymWeight?: number;
  /** Related words in more than this share of the memories are not scored (RELATED_MAX_SHARE). */
  relatedMaxShare?: number;
  /** Records, for the documents it asks about, each group's part of their score as it is computed (recall --explain). */
  explain?: ScoreExplanations;
}

/** How a query group matched a document. */
export type MatchKind = 'term' | 'prefix' | 'synonym' | 'related' | 'feedback' | 'phrase';

/**
 * One group's part of one document's BM25F score, recorded by the scorer as it scores (so it is
 * the score, not a second computation of it): the part that counted, the best of the group's term,
 * prefix and synonyms.
 */
export interface TermMatch {
  /** The query word's index term (a feedback word's term for feedback). */
  word: string;
  kind: MatchKind;
  /** The index terms that matched: the word's own, a synonym, or the terms the prefix starts. */
  terms: string[];
  /** How often the terms occur in each field (FIELDS order). */
  frequencies: [number, number, number];
  /** Each field's part of the pseudo-frequency: the frequency, weighted and length-normalised (FIELDS order). */
  fields: [number, number, number];
  idf: number;
  /** The group's weight (an identifier's part, a feedback word), times the synonym weight for a synonym. */
  weight: number;
  /** What the match added to the score: idf × (k1 + 1) × weight × pseudo / (pseudo + k1). */
  score: number;
}

/** Collects TermMatches for a few documents (the hits to explain) while bm25fScorer scores every document. */
export class ScoreExplanations {
  private readonly wanted: Set<number>;
  private readonly matches = new Map<number, TermMatch[]>();
  constructor(docs: Iterable<number>) {
    this.wanted = new Set(docs);
  }
  wants(doc: number): boolean {
    return this.wanted.has(doc);
  }
  docs(): Iterable<number> {
    return this.wanted;
  }
  record(doc: number, match: TermMatch): void {
    const list = this.matches.get(doc);
    if (list) list.push(match);
    else this.matches.set(doc, [match]);
  }
  /** The document's matches, in the order they were scored (the query's words, then feedback words). */
  of(doc: number): TermMatch[] {
    return this.matches.get(doc) ?? [];
  }
}

/**
 * A posting is two numbers: the document, then its field frequencies packed
 * as summary (8 bits), tags (8 bits), body (16 bits), each capped.
 */
export function packFrequencies(summary: number, tags: number, body: number): number {
  return ((Math.min(summary, 0xff) << 24) | (Math.min(tags, 0xff) << 16) | Math.min(body, 0xffff)) >>> 0;
}

/** What BM25F needs from a term index. */
export interface PostingsSource {
  /** Document numbers run from 0 to docCount - 1. */
  readonly docCount: number;
  /** Documents that count for IDF (docCount less any removed since, whose postings are gone): docCount when absent. */
  readonly memoryCount?: number;
  /** Average length (tokens) of each field over all documents. */
  readonly averageLengths: readonly number[];
  /** Each document's field lengths: docCount × FIELDS.length. */
  readonly lengths: Uint32Array;
  /** [doc, packed, doc, packed, ...] in document order, or undefined for an unknown term. */
  postings(term: string): Uint32Array | undefined;
  /** The index terms starting with `prefix`. */
  termsWithPrefix(prefix: string): string[];
}

/** Robertson/Lucene IDF: always positive, so a term in most documents still counts a little. */
export function idf(totalDocs: number, docsWithTerm: number): number {
  return Math.log(1 + (totalDocs - docsWithTerm + 0.5) / (docsWithTerm + 0.5));
}

/**
 * BM25F scores of every document for a query: an array indexed by document,
 * 0 where nothing matched.
 *
 * For each term, the field frequencies are length-normalised per field,
 * weighted and summed into one pseudo-frequency, saturated once with k1, and
 * multiplied by the term's IDF. Saturating once (rather than per field) keeps
 * a term repeated in every field from outscoring two different terms. A
 * prefix counts every index term it starts as one term (frequencies summed,
 * documents counted once).
 */
export function bm25f(source: PostingsSource, groups: readonly TermGroup[], options: Bm25Options = {}): Float64Array {
  return bm25fScorer(source, options)(groups);
}

export interface Bm25fScorer {
  /**
   * Adds the groups' scores to `total` (a new array when not given) and
   * returns it. With `matchedOnly`, only the documents whose `total` is
   * already above 0 gain (a term's IDF still counts all its documents): a
   * pass that reorders an earlier one's matches skips the rest of the postings.
   */
  (groups: readonly TermGroup[], total?: Float64Array, matchedOnly?: boolean): Float64Array;
  /**
   * The documents the calls so far brought above 0, in no set order; null
   * when they are more than a quarter of the collection (read the scores then):
   * a selective query's best are found without a pass over every document.
   */
  matched(): Int32Array | null;
}

/**
 * BM25F as a function of the term groups, for scoring in passes (feedback).
 * Plain indexed loops over typed arrays: in a fresh process this code runs
 * interpreted at first, and a broad query passes here tens of thousands of
 * times. Most groups are one postings list (a word without synonyms or a
 * prefix, every feedback word): those are scored straight into `total`; the
 * arrays for the others (a word's best of several, a prefix's lists summed)
 * are made only when one comes, since allocating them for every search cost
 * more than scoring (a collection of the young heap, a few ms, at 10,000).
 */
export function bm25fScorer(source: PostingsSource, options: Bm25Options = {}): Bm25fScorer {
  const weights = options.weights ?? DEFAULT_WEIGHTS;
  const k1 = options.k1 ?? DEFAULT_K1;
  const b = options.b ?? DEFAULT_B;
  const synonymWeight = options.synonymWeight ?? SYNONYM_WEIGHT;
  const relatedMaxDocs = Math.max(2, (options.relatedMaxShare ?? RELATED_MAX_SHARE) * (source.memoryCount ?? source.docCount));
  const n = source.docCount;
  const counted = source.memoryCount ?? n;
  const lengths = source.lengths;
  const norms = source.averageLengths.map((avg) => (avg > 1 ? avg : 1));
  const w0 = weights[0] ?? 1;
  const w1 = weights[1] ?? 1;
  const w2 = weights[2] ?? 1;
  const [n0, n1, n2] = norms as [number, number, number];
  // A word's best score per document, over its term, prefix and synonyms, and the documents holding one.
  let group: Float64Array | undefined;
  let groupDocs: Int32Array | undefined;
  let groupCount = 0;
  // A prefix's field frequencies per document (whole numbers, at most 8, 8 and 16 bits each), summed over its terms.
  let tf: Uint32Array | undefined;
  let seen: Uint8Array | undefined;
  let termDocs: Int32Array | undefined;
  // The documents brought above 0, while they are few.
  const cap = n >>> 2;
  let listing = true;
  let matched: Int32Array | undefined;
  let matchedCount = 0;
  const keepListing = (more: number): boolean => {
    listing &&= matchedCount + more <= cap;
    if (listing) matched ??= new Int32Array(cap);
    return listing;
  };

  // BM25F of one document from its field frequencies: each field length-normalised and weighted, summed, saturated once.
  const saturate = (at: number, f0: number, f1: number, f2: number, top: number): number => {
    const pseudo = f0 * (w0 / (1 - b + (b * lengths[at]!) / n0)) + f1 * (w1 / (1 - b + (b * lengths[at + 1]!) / n1)) + f2 * (w2 / (1 - b + (b * lengths[at + 2]!) / n2));
    return (top * pseudo) / (pseudo + k1);
  };

  // The explanation of a match (only for the documents `explain` asks about): the parts of the score just computed.
  const explain = options.explain ?? null;
  const matchOf = (at: number, f0: number, f1: number, f2: number, score: number, as: Omit<TermMatch, 'frequencies' | 'fields' | 'score'>): TermMatch => {
    const fields: [number, number, number] = [
      f0 * (w0 / (1 - b + (b * lengths[at]!) / n0)),
      f1 * (w1 / (1 - b + (b * lengths[at + 1]!) / n1)),
      f2 * (w2 / (1 - b + (b * lengths[at + 2]!) / n2)),
    ];
    return { ...as, frequencies: [f0, f1, f2], fields, score };
  };
  // The best match of the current group per explained document, until the group is added.
  const groupBest = new Map<number, TermMatch>();

  // The explained documents a postings list holds (lists are in document order), each with its entry's index.
  const explainedIn = (list: Uint32Array): number[] => {
    const found: number[] = [];
    for (const d of explain!.docs()) {
      let lo = 0;
      let hi = (list.length >>> 1) - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const at = list[mid * 2]!;
        if (at === d) {
          found.push(mid * 2);
          break;
        }
        if (at < d) lo = mid + 1;
        else hi = mid - 1;
      }
    }
    return found;
  };

  // One postings list (each document once): added to `total` (listing the documents it brings above 0 when `record`), or kept as the better score in `group` when `best`.
  const scoreList = (list: Uint32Array, factor: number, only: Float64Array | null, total: Float64Array, best: boolean, record = false, as: Omit<TermMatch, 'frequencies' | 'fields' | 'score' | 'idf'> | null = null): void => {
    const top = idf(counted, list.length >>> 1) * (k1 + 1) * factor;
    for (let i = 0; i < list.length; i += 2) {
      const d = list[i]!;
      if (only !== null && only[d] === 0) continue;
      const packed = list[i + 1]!;
      const score = saturate(d * 3, packed >>> 24, (packed >>> 16) & 0xff, packed & 0xffff, top);
      if (!best) {
        const was = total[d]!;
        total[d] = was + score;
        if (record && was === 0 && score > 0) matched![matchedCount++] = d;
      } else if (score > group![d]!) {
        if (group![d] === 0) groupDocs![groupCount++] = d;
        group![d] = score;
      }
    }
    if (explain === null || as === null) return;
    // The explained documents' entries again, through the same saturate, kept out of the loop above (which a fresh process interprets).
    for (const i of explainedIn(list)) {
      const d = list[i]!;
      if (only !== null && only[d] === 0) continue;
      const packed = list[i + 1]!;
      const [f0, f1, f2] = [packed >>> 24, (packed >>> 16) & 0xff, packed & 0xffff];
      const score = saturate(d * 3, f0, f1, f2, top);
      const match = matchOf(d * 3, f0, f1, f2, score, { ...as, idf: idf(counted, list.length >>> 1) });
      // In a group, the list that set the document's best score (the first to reach it) is the match.
      if (!best) explain.record(d, match);
      else if (score === group![d]! && !((groupBest.get(d)?.score ?? -1) >= score)) groupBest.set(d, match);
    }
  };

  // Several lists taken as one term (a prefix): frequencies summed per document, documents counted once; into `group`.
  const scoreLists = (lists: readonly Uint32Array[], factor: number, as: Omit<TermMatch, 'frequencies' | 'fields' | 'score' | 'idf'> | null = null): void => {
    tf ??= new Uint32Array(n * 3);
    seen ??= new Uint8Array(n);
    termDocs ??= new Int32Array(n);
    let count = 0;
    for (let l = 0; l < lists.length; l++) {
      const list = lists[l]!;
      for (let i = 0; i < list.length; i += 2) {
        const d = list[i]!;
        const packed = list[i + 1]!;
        if (seen[d] === 0) {
          seen[d] = 1;
          termDocs[count++] = d;
        }
        const at = d * 3;
        tf[at] = tf[at]! + (packed >>> 24);
        tf[at + 1] = tf[at + 1]! + ((packed >>> 16) & 0xff);
        tf[at + 2] = tf[at + 2]! + (packed & 0xffff);
      }
    }
    const termIdf = idf(counted, count);
    const top = termIdf * (k1 + 1) * factor;
    for (let j = 0; j < count; j++) {
      const d = termDocs[j]!;
      const at = d * 3;
      const score = saturate(at, tf[at]!, tf[at + 1]!, tf[at + 2]!, top);
      if (explain !== null && as !== null && score > group![d]! && explain.wants(d)) groupBest.set(d, matchOf(at, tf[at]!, tf[at + 1]!, tf[at + 2]!, score, { ...as, idf: termIdf }));
      tf[at] = 0;
      tf[at + 1] = 0;
      tf[at + 2] = 0;
      seen[d] = 0;
      if (score > group![d]!) {
        if (group![d] === 0) groupDocs![groupCount++] = d;
        group![d] = score;
      }
    }
  };

  const score = (groups: readonly TermGroup[], total: Float64Array = new Float64Array(n), matchedOnly = false): Float64Array => {
    const only = matchedOnly ? total : null;
    for (const g of groups) {
      const weight = g.weight ?? 1;
      const exact = source.postings(g.term);
      // Without an explanation to record, the terms behind each list are not kept.
      const as = (kind: MatchKind, terms: string[], w = weight) => (explain === null ? null : { word: g.term, kind: g.feedback ? 'feedback' : kind, terms, weight: w });
      const prefixTerms = g.prefix ? source.termsWithPrefix(g.prefix) : [];
      const prefixed: Uint32Array[] = [];
      const prefixedTerms: string[] = [];
      for (const t of prefixTerms) {
        const list = source.postings(t);
        if (list) prefixed.push(list), prefixedTerms.push(t);
      }
      const synonyms: Uint32Array[] = [];
      const synonymTerms: string[] = [];
      for (const t of g.synonyms ?? []) {
        const list = source.postings(t);
        if (list) synonyms.push(list), synonymTerms.push(t);
      }
      const related: Uint32Array[] = [];
      const relatedTerms: Array<[string, number]> = [];
      for (const r of g.related ?? []) {
        const list = source.postings(r[0]);
        // A related word in too many memories says little (its IDF is low) and costs the most to score.
        if (list && list.length >>> 1 <= relatedMaxDocs) related.push(list), relatedTerms.push(r);
      }
      if (!prefixed.length && !synonyms.length && !related.length) {
        if (exact) scoreList(exact, weight, only, total, false, only === null && keepListing(exact.length >>> 1), as('term', [g.term]));
        continue;
      }
      group ??= new Float64Array(n);
      groupDocs ??= new Int32Array(n);
      if (exact) scoreList(exact, weight, only, total, true, false, as('term', [g.term]));
      if (prefixed.length === 1) scoreList(prefixed[0]!, weight, only, total, true, false, as('prefix', prefixedTerms));
      else if (prefixed.length) scoreLists(prefixed, weight, as('prefix', prefixedTerms));
      synonyms.forEach((list, s) => scoreList(list, weight * synonymWeight, only, total, true, false, as('synonym', [synonymTerms[s]!], weight * synonymWeight)));
      related.forEach((list, r) => scoreList(list, weight * relatedTerms[r]![1], only, total, true, false, as('related', [relatedTerms[r]![0]], weight * relatedTerms[r]![1])));
      const record = only === null && keepListing(groupCount);
      for (let j = 0; j < groupCount; j++) {
        const d = groupDocs[j]!;
        const was = total[d]!;
        if (only === null || was > 0) {
          total[d] = was + group[d]!;
          const best = explain === null ? undefined : groupBest.get(d);
          if (best) explain!.record(d, best);
        }
        if (record && was === 0) matched![matchedCount++] = d;
        group[d] = 0;
      }
      groupCount = 0;
      groupBest.clear();
    }
    return total;
  };
  return Object.assign(score, { matched: () => (listing ? (matched?.subarray(0, matchedCount) ?? new Int32Array(0)) : null) });
}

/**
 * Lexical ranking, pure: how text becomes index terms (words, Porter-stemmed),
 * how a query becomes term groups, and BM25F (field-weighted BM25) over the
 * postings of a term index (stores/index/terms/reader.ts). Kept free of I/O so
 * that the formula is tested without any file.
 */
import { porterStem } from './stem.ts';
import { synonymTable } from './synonyms.ts';

/** The fields of a memory that are searched, in order; weights and lengths are given in this order. */
export const FIELDS = ['summary', 'tags', 'body'] as const;

/**
 * The BM25F parameters recall uses, chosen by a sweep on the tuning half of
 * the ranking fixture (docs/search.md). Summary and tags say what a memory is
 * about, the body mostly how: weights 2, 2, 1. k1 0.6: memories are short, so
 * a word's second occurrence says little and a memory matching more of the
 * query's words should win. b 0.3: lengths vary less in meaning than in words.
 */
export const DEFAULT_WEIGHTS: readonly number[] = [2, 2, 1];
export const DEFAULT_K1 = 0.6;
export const DEFAULT_B = 0.3;

export interface Bm25Options {
  /** One weight per field (FIELDS order). */
  weights?: readonly number[];
  /** Term-frequency saturation. */
  k1?: number;
  /** Length normalisation, 0 (none) to 1 (full). */
  b?: number;
  /** What a synonym's match is worth against the word's own. */
  synonymWeight?: number;
  /** Records, for the documents it asks about, each group's part of their score as it is computed (recall --explain). */
  explain?: ScoreExplanations;
}

/** How a query group matched a document. */
export type MatchKind = 'term' | 'prefix' | 'synonym' | 'feedback';

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

/** A synonym's match counts a little below the word's own: the word the user chose is the better evidence. */
export const SYNONYM_WEIGHT = 0.8;

/**
 * English function words plus the filler of questions people ask a memory
 * ("why did we ...", "how do I ..."): they carry no topic and, OR-ed, would
 * match nearly every memory.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below between both but by
can cannot could did do does doing don done down during each else etc ever every few for from further get gets got had has have having he her here hers
herself him himself his how i if in into is isn it its itself just let like made make makes many may me might more most much must my myself no nor not
now of off on once one only or other ought our ours ourselves out over own per please re same shall she should so some such than that the their theirs them
themselves then there these they this those though through thus to too under until up upon us use used using very via was we were what whatever when where
whether which while who whom whose why will with within without would yet you your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);

/** Bump when analyzeText, tokenize or termOf changes what text becomes: a term index written otherwise is rebuilt. */
export const ANALYZER_VERSION = 2;

/** Terms beyond this many are dropped: a pasted paragraph is not a better query. */
export const MAX_TERMS = 32;
/** The last term also matches as a prefix (typing ahead) when it has at least this many characters. */
export const MIN_PREFIX = 3;
/** Longer tokens (hashes, encoded blobs) are not words anyone searches for: not indexed, not queried. */
export const MAX_TOKEN_LENGTH = 64;

/**
 * Words: runs of ASCII letters and digits and of non-ASCII characters; ASCII
 * is lowercased, other scripts are kept as written.
 */
export function tokenize(text: string): string[] {
  return text
    // A lone surrogate would sort one way here and another once stored as UTF-8.
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .split(/[^a-z0-9\u0080-\uffff]+/)
    .filter((w) => w.length > 0 && w.length <= MAX_TOKEN_LENGTH);
}

/**
 * The words of a text as the index and queries see them: tokenize's words,
 * and identifiers also as their parts and whole: `getUserById` gives get,
 * user, by, id and getuserbyid; `created_at` gives created, at and
 * created_at. So a memory naming an identifier is found by the identifier
 * and by its words. Parts come before the whole: the last word of a query,
 * matched as a prefix, is then the identifier as typed.
 */
export function analyzeText(text: string): string[] {
  if (!NOT_PLAIN.test(text)) return plainWords(text);
  const out: string[] = [];
  const push = (w: string) => {
    if (w.length > 0 && w.length <= MAX_TOKEN_LENGTH) out.push(w);
  };
  for (const run of text.replace(LONE_SURROGATE, '\uFFFD').split(/[^A-Za-z0-9_\u0080-\uffff]+/)) {
    if (!run) continue;
    const pieces = run.includes('_') ? run.split('_').filter(Boolean) : [run];
    for (const piece of pieces) {
      if (CAMEL_HUMP.test(piece)) for (const part of piece.split(CAMEL_SPLIT)) push(lowerAscii(part));
      push(lowerAscii(piece));
    }
    if (pieces.length > 1) push(lowerAscii(pieces.join('_')));
  }
  return out;
}

/**
 * Text this matches may hold identifiers or other scripts. Text it does not
 * (plain ASCII prose, most memories) has neither underscores nor camel humps
 * (a lowercase letter or digit, then a capital): its words are its runs of
 * letters and digits, lowercased, which plainWords gives in two native passes.
 */
const NOT_PLAIN = /[_\u0080-\uffff]|[a-z0-9][A-Z]/;

function plainWords(text: string): string[] {
  const words = text.toLowerCase().split(/[^a-z0-9]+/);
  let kept = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.length > 0 && w.length <= MAX_TOKEN_LENGTH) words[kept++] = w;
  }
  words.length = kept;
  return words;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * camelCase as code writes it: two lowercase letters or more, then a capital.
 * PascalCase is left whole: it is as often a name (GitHub, JavaScript,
 * PostgreSQL) whose parts would match unrelated words.
 */
const CAMEL_HUMP = /^[a-z]{2,}[a-z0-9]*[A-Z]/;
/** Before a capital that follows a lowercase letter or digit, and before the last capital of a run followed by a lowercase letter (parseHTTPRequest: parse, HTTP, Request). */
const CAMEL_SPLIT = /(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/;
const lowerAscii = (w: string) => w.replace(/[A-Z]/g, (c) => c.toLowerCase());

const stems = new Map<string, string>();

/** The index term of one token: plain English words are stemmed; words with digits or other scripts are kept as they are. */
export function termOf(token: string): string {
  let s = stems.get(token);
  if (s === undefined) {
    s = /^[a-z]+$/.test(token) ? porterStem(token) : token;
    // Vocabularies are small; the cache only bounds a pathological input.
    if (stems.size < 200_000) stems.set(token, s);
  }
  return s;
}

/** The query's distinct words, stop words removed; if nothing but stop words remains, they are kept. */
export function queryTerms(text: string): string[] {
  const words = [...new Set(analyzeText(text))];
  const content = words.filter((w) => !STOP_WORDS.has(w) && !STOP_WORDS.has(w.replace(/'.*$/, '')));
  return (content.length ? content : words).slice(0, MAX_TERMS);
}

/**
 * One query word: matched as its index term, for the last word also as a
 * prefix of index terms, and as its synonyms (core/synonyms.ts); it scores as
 * the best of these, times `weight` (1 unless said: expansion terms, and the parts of an identifier
 * typed whole, weigh less).
 */
export interface TermGroup {
  term: string;
  prefix?: string;
  /** Index terms meaning the same (already analysed), each scored at SYNONYM_WEIGHT of its own BM25F. */
  synonyms?: string[];
  weight?: number;
  /** A word added by pseudo-relevance feedback (core/feedback.ts), not typed: said so by an explanation. */
  feedback?: boolean;
}

export interface LexicalQuery {
  /** The words searched for (stop words removed), as typed. */
  terms: string[];
  groups: TermGroup[];
}

let synonyms: Map<string, string[]> | undefined;

/** The index terms of the words meaning the same as `word` (as typed, lowercase; core/synonyms.ts), `word`'s own term excluded. */
export function synonymsOf(word: string): string[] {
  synonyms ??= synonymTable();
  const own = termOf(word);
  return [...new Set((synonyms.get(word) ?? []).map(termOf))].filter((t) => t !== own);
}

/**
 * Query words that were typed only inside a longer identifier (`commonJSWhitelist` gives common,
 * js and whitelist), each with the weight its group gets: 1 / (the identifier's part count + 1), so
 * all of an identifier's parts together count less than one word, and a memory holding the
 * identifier itself outranks one that only says its parts (issue 38). A word also typed on its own
 * keeps weight 1.
 */
export function identifierPartWeights(text: string): Map<string, number> {
  const own = new Set<string>();
  const parts = new Map<string, number>();
  for (const run of text.split(/[^A-Za-z0-9_\u0080-\uffff]+/)) {
    const tokens = analyzeText(run);
    if (tokens.length < 2) {
      for (const t of tokens) own.add(t);
      continue;
    }
    // The whole identifier is the run's last token (analyzeText: parts before the whole).
    own.add(tokens[tokens.length - 1]!);
    const mine = new Set(tokens.slice(0, -1).filter((t) => !STOP_WORDS.has(t)));
    for (const t of mine) parts.set(t, Math.min(parts.get(t) ?? 1, 1 / (mine.size + 1)));
  }
  for (const t of own) parts.delete(t);
  return parts;
}

/**
 * The query, or null when the text has no words at all. Each word is a group:
 * its index term, its synonyms (unless `synonyms` is false), and for the last
 * word the word as typed as a prefix (unless `prefixLast` is false).
 */
export function buildLexicalQuery(text: string, options: { prefixLast?: boolean; synonyms?: boolean } = {}): LexicalQuery | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  const own = new Set(terms.map(termOf));
  const partWeights = identifierPartWeights(text);
  const groups = terms.map((word, i): TermGroup => {
    const last = i === terms.length - 1;
    const term = termOf(word);
    // A synonym the query also holds as a word of its own is counted there, once.
    const synonyms = options.synonyms === false ? [] : synonymsOf(word).filter((t) => !own.has(t));
    // The prefix is the word as typed: a half-typed word has no meaningful stem.
    const group: TermGroup = last && options.prefixLast !== false && word.length >= MIN_PREFIX ? { term, prefix: word } : { term };
    const weight = partWeights.get(word);
    if (weight !== undefined) group.weight = weight;
    return synonyms.length ? { ...group, synonyms } : group;
  });
  return { terms, groups };
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
      if (!prefixed.length && !synonyms.length) {
        if (exact) scoreList(exact, weight, only, total, false, only === null && keepListing(exact.length >>> 1), as('term', [g.term]));
        continue;
      }
      group ??= new Float64Array(n);
      groupDocs ??= new Int32Array(n);
      if (exact) scoreList(exact, weight, only, total, true, false, as('term', [g.term]));
      if (prefixed.length === 1) scoreList(prefixed[0]!, weight, only, total, true, false, as('prefix', prefixedTerms));
      else if (prefixed.length) scoreLists(prefixed, weight, as('prefix', prefixedTerms));
      synonyms.forEach((list, s) => scoreList(list, weight * synonymWeight, only, total, true, false, as('synonym', [synonymTerms[s]!], weight * synonymWeight)));
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

/**
 * The lowest score a hit needs to be injected unasked: `floor` times the best (hits come best
 * first). Lexical scores have no absolute scale, so the floor is relative; nothing beats noise.
 * A single hit needs only to match. `floor` is asked only when there are two hits or more
 * (reading it may cost a git process).
 */
export function floorScore(hits: readonly { score: number }[], floor: () => number): number {
  if (hits.length < 2) return Number.MIN_VALUE;
  const best = hits[0]!.score;
  return best > 0 ? best * floor() : Infinity;
}

/** The hits worth injecting unasked: those scoring at least floorScore. */
export function aboveFloor<T extends { score: number }>(hits: readonly T[], floor: () => number): T[] {
  const min = floorScore(hits, floor);
  return hits.filter((h) => h.score >= min);
}

/**
 * How a query becomes term groups, pure: each word its index term, its
 * synonyms (core/search/synonyms.ts), its related words (core/search/related-words.ts:
 * neighbours in developer text, then general-English synonyms; core/search/everyday-words.ts:
 * the developer words general English uses alike) and, for the last word, a prefix;
 * identifier parts weigh less than words typed on their own, names more; two
 * adjacent words also as the word written together.
 */
import { analyzeText, MAX_TERMS, MIN_PREFIX, queryTerms, STOP_WORDS, termOf } from './analyzer.ts';
import { EVERYDAY_WORDS } from './everyday-words.ts';
import { type Phrase, quotedPhrases } from './phrases.ts';
import { RELATED_WORDS } from './related-words.ts';
import { synonymTable } from './synonyms.ts';

/** A synonym's match counts a little below the word's own: the word the user chose is the better evidence. */
export const SYNONYM_WEIGHT = 0.8;

/**
 * Related words (core/search/related-words.ts, built from public developer text) are weak
 * evidence: a match counts RELATED_WEIGHT times the pair's similarity (a cosine, 0.17 to about
 * 0.6) of the word's own, so about 0.25 to 0.9, below a synonym's for all but the closest pairs;
 * at most RELATED_COUNT neighbours per word (the table lists up to 7), then its general-English
 * synonyms (GENERAL_SIMILARITY). Chosen on the fixture's tuning half (docs/search.md).
 */
export const RELATED_WEIGHT = 1.5;
export const RELATED_COUNT = 8;

/**
 * The similarity a general-English synonym in the related-words table (WordNet's, listed after a term's
 * neighbours without a similarity of its own) counts as: its match weighs RELATED_WEIGHT times this.
 * They are not counted in RELATED_COUNT. Chosen on the fixture's tuning half (docs/search.md).
 */
export const GENERAL_SIMILARITY = 0.35;

/**
 * Everyday neighbours (core/search/everyday-words.ts: developer terms that general English text uses
 * alike, by the cosine of their GloVe vectors, 0.65 to about 0.9) are weaker evidence again, for the
 * loose paraphrase a question makes (phones: mobile, refuses: denied): a match weighs
 * EVERYDAY_WEIGHT times the cosine, so about 0.33 to 0.45 of the word's own; at most EVERYDAY_COUNT
 * a word, after its related words. Chosen on the fixture's tuning half (docs/search.md).
 */
export const EVERYDAY_WEIGHT = 0.5;
export const EVERYDAY_COUNT = 4;

/**
 * A word the query capitalises where no sentence starts (a person, a product, a place: "what did
 * Nora do", "blank on Safari") weighs this much more than the others: the memory asked about is one
 * that names it, however many memories do (its IDF is then low). Chosen on the fixture's tuning half
 * (1.25-3; docs/search.md).
 */
export const NAME_WEIGHT = 2;

/** How related words expand a query: off with `false`. */
export interface RelatedOptions {
  /** A match weighs this × the similarity. */
  weight: number;
  /** At most this many neighbours (general-English synonyms are not counted). */
  count: number;
  /** The similarity of a general-English synonym (GENERAL_SIMILARITY unless given; 0 or less: none). */
  general?: number;
  /** Everyday neighbours: a match weighs `weight` × the cosine, at most `count` a word (EVERYDAY_WEIGHT, EVERYDAY_COUNT unless given; weight 0: none). */
  everyday?: { weight: number; count: number };
}

/**
 * One query word: matched as its index term, for the last word also as a
 * prefix of index terms, and as its synonyms (core/search/synonyms.ts); it scores as
 * the best of these, times `weight` (1 unless said: expansion terms, and the parts of an identifier
 * typed whole, weigh less).
 */
export interface TermGroup {
  term: string;
  prefix?: string;
  /** Index terms meaning the same (already analysed), each scored at SYNONYM_WEIGHT of its own BM25F. */
  synonyms?: string[];
  /** Index terms related to the word (core/search/related-words.ts), each with its weight against the word's own. */
  related?: Array<[string, number]>;
  weight?: number;
  /** A word added by pseudo-relevance feedback (core/search/feedback.ts), not typed: said so by an explanation. */
  feedback?: boolean;
  /** Two adjacent typed words joined (compounds: "lock file" → lockfile), not typed itself. */
  joined?: boolean;
}

export interface LexicalQuery {
  /** The words searched for (stop words removed), as typed. */
  terms: string[];
  groups: TermGroup[];
  /** Quoted phrases (core/search/phrases.ts): memories holding one rank above those holding its words apart. */
  phrases?: Phrase[];
}

let synonyms: Map<string, string[]> | undefined;

/** The index terms of the words meaning the same as `word` (as typed, lowercase; core/search/synonyms.ts), `word`'s own term excluded. */
export function synonymsOf(word: string): string[] {
  synonyms ??= synonymTable();
  const own = termOf(word);
  return [...new Set((synonyms.get(word) ?? []).map(termOf))].filter((t) => t !== own);
}

/**
 * The index terms related to `term` (an index term) in core/search/related-words.ts: its
 * `neighbours` in developer text, strongest first, each with its similarity (the cosine of their
 * context vectors, 0-1), and its `general` English synonyms (WordNet's, listed after them without a
 * similarity). A search in the table's text, no parse: a cold process pays only for the words it asks about.
 */
export function relatedTerms(term: string): { neighbours: Array<[string, number]>; general: string[] } {
  const neighbours: Array<[string, number]> = [];
  const general: string[] = [];
  for (const entry of tableEntries(RELATED_WORDS, term)) {
    const colon = entry.indexOf(':');
    if (colon < 0) general.push(entry);
    else neighbours.push([entry.slice(0, colon), Number(entry.slice(colon + 1)) / 100]);
  }
  return { neighbours, general };
}

/**
 * The developer terms general English uses alike to `term` (core/search/everyday-words.ts), strongest
 * first, each with the cosine of their word vectors (0-1). None of them is among `term`'s related words.
 */
export function everydayTerms(term: string): Array<[string, number]> {
  return tableEntries(EVERYDAY_WORDS, term).map((entry) => {
    const colon = entry.indexOf(':');
    return [entry.slice(0, colon), Number(entry.slice(colon + 1)) / 100];
  });
}

/** The entries of `term`'s line in a generated table ("\n<term>|entry entry..."), none when it has no line. */
function tableEntries(table: string, term: string): string[] {
  const at = table.indexOf(`\n${term}|`);
  if (at < 0) return [];
  return table.slice(at + term.length + 2, table.indexOf('\n', at + 1)).split(' ');
}

/**
 * Where a related word of `term` comes from: its neighbours in developer text, the general-English
 * synonyms (WordNet) listed after them, or its everyday neighbours (GloVe). Null if it is none of them.
 */
export function relatedSource(term: string, related: string): 'developer' | 'general' | 'everyday' | null {
  const table = relatedTerms(term);
  if (table.neighbours.some(([t]) => t === related)) return 'developer';
  if (table.general.includes(related)) return 'general';
  return everydayTerms(term).some(([t]) => t === related) ? 'everyday' : null;
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
 * word the word as typed as a prefix (unless `prefixLast` is false); a name the
 * query capitalises weighs NAME_WEIGHT; then each pair of adjacent words written
 * apart, joined, is a group of its own (unless `compounds` or `synonyms` is false).
 */
export function buildLexicalQuery(
  text: string,
  options: { prefixLast?: boolean; synonyms?: boolean; related?: RelatedOptions | false; compounds?: CompoundOptions | false; nameWeight?: number } = {},
): LexicalQuery | null {
  const terms = queryTerms(text);
  if (terms.length === 0) return null;
  const own = new Set(terms.map(termOf));
  const partWeights = identifierPartWeights(text);
  // Names weigh more (NAME_WEIGHT), except for callers that compare the words themselves.
  const nameWeight = options.nameWeight ?? (options.synonyms === false ? 1 : NAME_WEIGHT);
  const names = nameWeight !== 1 ? namedWords(text) : new Set<string>();
  // Related words go with synonyms: a caller that compares the words themselves wants neither.
  const related = options.synonyms === false || options.related === false ? null : (options.related ?? { weight: RELATED_WEIGHT, count: RELATED_COUNT });
  const groups = terms.map((word, i): TermGroup => {
    const last = i === terms.length - 1;
    const term = termOf(word);
    // A synonym the query also holds as a word of its own is counted there, once.
    const synonyms = options.synonyms === false ? [] : synonymsOf(word).filter((t) => !own.has(t));
    // A word negated by un- also means its base, as a synonym: untranslated strings are about translation.
    if (options.synonyms !== false) {
      const base = unprefixed(word);
      if (base !== null && !own.has(termOf(base)) && !synonyms.includes(termOf(base))) synonyms.push(termOf(base));
    }
    // The prefix is the word as typed: a half-typed word has no meaningful stem.
    const group: TermGroup = last && options.prefixLast !== false && word.length >= MIN_PREFIX ? { term, prefix: word } : { term };
    const weight = partWeights.get(word);
    if (weight !== undefined) group.weight = weight;
    if (names.has(word)) group.weight = (group.weight ?? 1) * nameWeight;
    if (synonyms.length) group.synonyms = synonyms;
    if (related) {
      const taken = new Set([...own, ...synonyms]);
      // The neighbours, at most `count`, then the general-English synonyms.
      const table = relatedTerms(term);
      const similarity = related.general ?? GENERAL_SIMILARITY;
      const neighbours = table.neighbours.filter(([t]) => !taken.has(t)).slice(0, related.count);
      const general = similarity > 0 ? table.general.filter((t) => !taken.has(t)).map((t): [string, number] => [t, similarity]) : [];
      const list = [...neighbours, ...general].map(([t, strength]): [string, number] => [t, related.weight * strength]);
      // Then the everyday neighbours, at their own weight (the table already leaves out the term's related words).
      const everyday = related.everyday ?? { weight: EVERYDAY_WEIGHT, count: EVERYDAY_COUNT };
      if (everyday.weight > 0) {
        for (const [t, cos] of everydayTerms(term).filter(([t]) => !taken.has(t)).slice(0, everyday.count)) list.push([t, everyday.weight * cos]);
      }
      if (list.length) group.related = list;
    }
    return group;
  });
  const compounds = options.synonyms === false || options.compounds === false ? null : (options.compounds ?? DEFAULT_COMPOUNDS);
  if (compounds) {
    const taken = new Set(groups.flatMap((g) => [g.term, ...(g.synonyms ?? [])]));
    // As the words, at most MAX_TERMS pairs: a pasted paragraph is not a better query.
    for (const [first, second] of compoundWords(text, compounds.hyphenOnly).slice(0, MAX_TERMS)) {
      const word = first + second;
      const term = termOf(word);
      if (taken.has(term)) continue;
      taken.add(term);
      const synonyms = synonymsOf(word).filter((t) => !taken.has(t));
      const group: TermGroup = { term, joined: true };
      if (compounds.weight !== 1) group.weight = compounds.weight;
      if (synonyms.length) group.synonyms = synonyms;
      groups.push(group);
    }
  }
  // Quoted phrases, for callers that search (not those comparing the words themselves).
  const phrases = options.synonyms === false ? [] : quotedPhrases(text);
  return phrases.length ? { terms, groups, phrases } : { terms, groups };
}

/**
 * How two adjacent query words written apart also match the word written together ("lock file":
 * lockfile, "sign-in": signin, "log in": login): as a query word of its own, with its synonyms. (As a
 * synonym of the first word instead, or at half weight, was worse on the fixture's tuning half:
 * docs/search.md.)
 */
export interface CompoundOptions {
  /** The joined word's weight against a word typed. */
  weight: number;
  /** Join only words written with a hyphen between them ("sign-in"), or any two adjacent words. */
  hyphenOnly: boolean;
}

export const DEFAULT_COMPOUNDS: CompoundOptions = { weight: 1, hyphenOnly: false };

/**
 * Pairs of adjacent plain words of a query that may be one word elsewhere: "lock file" (lockfile),
 * "log in" (login), "sign-in" (signin), "time out" (timeout), "pre-prod" (preprod). Only lowercase
 * letters (as tokenize gives), each part 2 letters or more, the joined word 5 or more and no stop word.
 */
export function compoundWords(text: string, hyphenOnly = false): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const re = /[A-Za-z0-9_\u0080-\uffff]+/g;
  let previous: { word: string; end: number } | null = null;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const word = m[0].toLowerCase();
    const plain = /^[a-z]+$/.test(word);
    if (previous && plain) {
      const between = text.slice(previous.end, m.index);
      const joinable = hyphenOnly ? between === '-' : between === '-' || /^ +$/.test(between);
      const joined = previous.word + word;
      if (joinable && previous.word.length >= 2 && word.length >= 2 && joined.length >= 5 && !STOP_WORDS.has(joined)) out.push([previous.word, word]);
    }
    previous = plain ? { word, end: m.index + m[0].length } : null;
  }
  return out;
}

/**
 * Words a query writes capitalised where a sentence does not start (Jonas, Safari, Kubernetes): names
 * of people, products and places, lowercased as tokenize gives them.
 */
export function namedWords(text: string): Set<string> {
  const out = new Set<string>();
  const re = /[A-Za-z0-9_\u0080-\uffff]+/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const before = text.slice(0, m.index).trimEnd();
    const starts = before === '' || /[.!?:;]$/.test(before);
    if (!starts && /^[A-Z][a-z]+$/.test(m[0])) out.add(m[0].toLowerCase());
  }
  return out;
}

/**
 * A word negated by un- (untranslated, unresponsive, unhandled) without it, or null: a memory about
 * the base word is about the same thing. Not the words in which un is no prefix (under, unique,
 * unit, universal, unless, until...), nor short ones (undo, unset: the base alone says too little).
 */
export function unprefixed(word: string): string | null {
  return /^un[a-z]{5,}$/.test(word) && !/^(under|uni|unanim|uncle|unless|until|unto)/.test(word) ? word.slice(2) : null;
}

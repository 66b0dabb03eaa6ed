/**
 * How text becomes index terms, pure: words (ASCII lowercased, identifiers
 * split into their parts and kept whole), stop words, Porter stems. The term
 * index and every query use this one analyzer.
 */
import { englishForm } from './english.ts';
import { porterStem } from './stem.ts';

/**
 * English function words plus the filler of questions people ask a memory
 * ("why did we ...", "how do I ..."): they carry no topic and, OR-ed, would
 * match nearly every memory. Also s, the end of a possessive or of it's
 * (Jonas's, Apple's): t (doesn't, can't) stays, as a negation says something.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all also am an and any are aren't as at be because been before being below between both but by
can cannot could did do does doing don done down during each else etc ever every few for from further get gets got had has have having he her here hers
herself him himself his how i if in into is isn it its itself just let like made make makes many may me might more most much must my myself no nor not
now of off on once one only or other ought our ours ourselves out over own per please re s same shall she should so some such than that the their theirs them
themselves then there these they this those though through thus to too under until up upon us use used using very via was we were what whatever when where
whether which while who whom whose why will with within without would yet you your yours yourself yourselves`
    .split(/\s+/)
    .filter(Boolean),
);

/** Bump when analyzeText, tokenize or termOf changes what text becomes: a term index written otherwise is rebuilt. */
export const ANALYZER_VERSION = 4;

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

/**
 * The index term of one token: plain English words are stemmed, after the spellings and forms the
 * stemmer leaves apart are brought together (core/search/english.ts); words with digits or other
 * scripts are kept as they are.
 */
export function termOf(token: string): string {
  let s = stems.get(token);
  if (s === undefined) {
    s = /^[a-z]+$/.test(token) ? porterStem(englishForm(token)) : token;
    // Vocabularies are small; the cache only bounds a pathological input.
    if (stems.size < 200_000) stems.set(token, s);
  }
  return s;
}

/** The query's distinct words, stop words removed; if nothing but stop words remains, they are kept. */
export function queryTerms(text: string): string[] {
  const words = [...new Set(analyzeText(text.replace(HOW_MUCH, '$1')))];
  const content = words.filter((w) => !STOP_WORDS.has(w) && !STOP_WORDS.has(w.replace(/'.*$/, '')));
  return (content.length ? content : words).slice(0, MAX_TERMS);
}

/** "how long", "how often", "how far", "how soon" ask for a quantity: the second word names no topic. */
const HOW_MUCH = /\b(how)\s+(?:long|often|far|soon)\b/gi;

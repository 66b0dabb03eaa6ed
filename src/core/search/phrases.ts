/**
 * Quoted phrases, pure: a query may put words in double quotes ("connection pool") to say they
 * belong together. The ranking then lists the memories holding the phrase (its words adjacent and
 * in order, in one field) above those that hold the words apart. Word order is read only where the
 * query asks for it: scoring proximity for every query did not help on the fixture, whose queries
 * paraphrase their memories (docs/search.md, "Proximity").
 */
import { termOf, tokenize } from './analyzer.ts';

export interface Phrase {
  /** The words as the query quoted them (lowercase, one space apart). */
  text: string;
  /** Their index terms in order; stop words are kept, since they are part of the phrase. */
  terms: string[];
}

/** At most this many phrases a query: a pasted paragraph of quotes is not a better query. */
export const MAX_PHRASES = 8;

/** Text between double quotes, straight or curly; a quote left open reaches the end of the query. */
const QUOTED = /["“”]([^"“”]*)(?:["“”]|$)/g;

/** The query's quoted phrases of two words or more, each once. */
export function quotedPhrases(text: string): Phrase[] {
  const out: Phrase[] = [];
  const seen = new Set<string>();
  for (const [, inner] of text.matchAll(QUOTED)) {
    const words = tokenize(inner!);
    if (words.length < 2) continue;
    const terms = words.map(termOf);
    const key = terms.join(' ');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ text: words.join(' '), terms });
    if (out.length === MAX_PHRASES) break;
  }
  return out;
}

/** A text's words as index terms, in order: what phraseCount reads (computed once per text, for all the phrases). */
export function phraseTerms(text: string): string[] {
  return tokenize(text).map(termOf);
}

/** How often `phrase` occurs in a text given as its phraseTerms: its terms adjacent and in order. */
export function phraseCount(terms: readonly string[], phrase: Phrase): number {
  const n = phrase.terms.length;
  let count = 0;
  for (let i = 0; i + n <= terms.length; i++) {
    let k = 0;
    while (k < n && terms[i + k] === phrase.terms[k]) k++;
    if (k === n) count++;
  }
  return count;
}

/**
 * Proximity, as a re-rank of the best candidates (the term index keeps no
 * positions): a memory where two of the query's words stand close together
 * gains a bonus, BM25TP-style (Rasolofo and Savoy, "Term proximity scoring
 * for keyword-based retrieval systems", 2003): each pair of occurrences of two
 * different query words at most `window` words apart, in the same field,
 * adds 1 / distance² to both words' accumulators; each word then adds
 * min(1, IDF) × (k1 + 1) × acc / (k1 + acc), the whole times `weight`. Pure.
 */
import { analyzeText, DEFAULT_K1, type TermGroup, termOf } from './rank.ts';

export interface ProximityOptions {
  /** The best this many results (after BM25F and feedback) are re-ranked. */
  candidates: number;
  /** Two query words at most this many words apart are close. */
  window: number;
  /** The bonus's weight (1: BM25TP's own scale, below one query word's BM25F). */
  weight: number;
}

export const DEFAULT_PROXIMITY: ProximityOptions = { candidates: 30, window: 5, weight: 1 };

/**
 * Which query word a text's word is (its index in `groups`), or -1: its term
 * is the word's term or a synonym, or, for a word with a prefix, starts with
 * it. Each distinct word is judged once; only words that can stem to a query
 * term are stemmed (a word starts with its stem less the stem's last letter:
 * Porter only rewrites the end).
 */
export function queryWordOf(groups: readonly TermGroup[]): (token: string) => number {
  const targets: Array<{ group: number; term?: string; prefix?: string; key: string }> = [];
  groups.forEach((g, group) => {
    for (const term of [g.term, ...(g.synonyms ?? [])]) targets.push({ group, term, key: term.slice(0, -1) });
    if (g.prefix) targets.push({ group, prefix: g.prefix, key: g.prefix.slice(0, -1) });
  });
  const judged = new Map<string, number>();
  return (token) => {
    let found = judged.get(token);
    if (found !== undefined) return found;
    found = -1;
    let term: string | undefined;
    for (const t of targets) {
      if (!token.startsWith(t.key)) continue;
      term ??= termOf(token);
      if (t.term !== undefined ? term === t.term : term.startsWith(t.prefix!)) {
        found = t.group;
        break;
      }
    }
    judged.set(token, found);
    return found;
  };
}

/**
 * The proximity bonus of one memory: `fields` its searched texts, `wordOf`
 * from queryWordOf, `idfs` each query word's IDF. 0 when no two different
 * query words are close.
 */
export function proximityBonus(fields: readonly string[], wordOf: (token: string) => number, idfs: readonly number[], options: ProximityOptions = DEFAULT_PROXIMITY): number {
  const acc = new Float64Array(idfs.length);
  let any = false;
  for (const text of fields) {
    const tokens = analyzeText(text);
    // The last few occurrences of query words in this field: [position, word].
    const recent: number[] = [];
    for (let p = 0; p < tokens.length; p++) {
      const w = wordOf(tokens[p]!);
      if (w < 0) continue;
      for (let i = recent.length - 2; i >= 0; i -= 2) {
        const d = p - recent[i]!;
        if (d > options.window) break;
        const other = recent[i + 1]!;
        if (other === w) continue;
        const tp = 1 / (d * d);
        acc[w] = acc[w]! + tp;
        acc[other] = acc[other]! + tp;
        any = true;
      }
      recent.push(p, w);
    }
  }
  if (!any) return 0;
  let bonus = 0;
  for (let w = 0; w < acc.length; w++) {
    const a = acc[w]!;
    if (a > 0) bonus += (Math.min(1, idfs[w]!) * (DEFAULT_K1 + 1) * a) / (DEFAULT_K1 + a);
  }
  return options.weight * bonus;
}

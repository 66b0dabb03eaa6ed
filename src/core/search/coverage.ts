/**
 * Coverage of the query's words, pure: the share of the query's words (their groups' weights) a
 * memory holds, as the word itself, a prefix or a synonym (in full) or a related word (at
 * `relatedCredit`). Read by the lexical ranking's second pass (core/search/lexical.ts), which
 * weighs the best results' scores by it: a memory that speaks of more of what was asked moves above
 * one that repeats one word of it.
 */
import type { PostingsSource } from './bm25f.ts';
import type { TermGroup } from './query.ts';

/** Whether a postings list ([doc, packed, ...], documents ascending) holds `doc`. */
function holds(list: Uint32Array, doc: number): boolean {
  let lo = 0;
  let hi = (list.length >>> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const d = list[mid * 2]!;
    if (d === doc) return true;
    if (d < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** Each of `docs`' coverage of the groups (feedback words left out), 0 to 1, in the order of `docs`. */
export function queryCoverage(source: PostingsSource, groups: readonly TermGroup[], docs: readonly number[], relatedCredit: number): Float64Array {
  const out = new Float64Array(docs.length);
  let total = 0;
  for (const g of groups) {
    if (g.feedback) continue;
    const weight = g.weight ?? 1;
    total += weight;
    const strong: Uint32Array[] = [];
    for (const t of [g.term, ...(g.synonyms ?? []), ...(g.prefix ? source.termsWithPrefix(g.prefix) : [])]) {
      const list = source.postings(t);
      if (list) strong.push(list);
    }
    const weak: Uint32Array[] = [];
    if (relatedCredit > 0) {
      for (const [t] of g.related ?? []) {
        const list = source.postings(t);
        if (list) weak.push(list);
      }
    }
    docs.forEach((d, i) => {
      if (strong.some((l) => holds(l, d))) out[i]! += weight;
      else if (weak.some((l) => holds(l, d))) out[i]! += weight * relatedCredit;
    });
  }
  if (total > 0) for (let i = 0; i < out.length; i++) out[i]! /= total;
  return out;
}

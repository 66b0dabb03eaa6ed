// Builds src/core/search/related-words.ts, the table of related developer words recall's query
// expansion reads (core/search/query.ts), from public text only: the repositories and commits in
// tools/associations/sources.json (commit messages, Markdown and AsciiDoc files). Deterministic: the
// same sources give the same file, byte for byte.
//
//   bun tools/associations/build.ts --git-dirs DIR [--check] [--cache FILE]
//
// DIR holds a git directory per source, as <owner>+<name>/repo or <owner>+<name>.git (a bare clone
// is enough: nothing is checked out). --check compares with the committed file instead of writing.
//
// Method: distributional similarity (words used in the same contexts: crash and panic, slow and
// latency), not mere co-occurrence (which gives collocations: fast and forward). The text is cut
// into sentences, each analysed as recall analyses text (core/search/analyzer.ts: words, Porter
// stems, web addresses left out); plain words of 3+ letters that are not stop words are kept, and
// only terms seen in MIN_SOURCES of the repositories (one project's jargon and names say nothing of
// the others). Targets: the TARGETS most
// frequent terms seen in at least MIN_DF sentences; contexts: the CONTEXTS most frequent. Each
// target's context vector counts the contexts at most WINDOW kept words away, weighted by positive
// PMI with context-distribution smoothing (alpha 0.75; Levy, Goldberg and Dagan 2015), cut to its
// TOP_CONTEXTS strongest entries and normalised. Two targets are similar by the cosine of their
// vectors; each keeps its PER_TERM most similar targets with cosine >= MIN_COSINE.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeText, STOP_WORDS, termOf } from '../../src/core/search/analyzer.ts';
import { gitDir, texts } from './public-text.ts';

const WINDOW = 4;
const MIN_DF = 20;
const TARGETS = 12_000;
const CONTEXTS = 4_000;
const TOP_CONTEXTS = 150;
const MIN_COSINE = 0.17;
const PER_TERM = 8;
const ALPHA = 0.75;
const MIN_SOURCES = 3;

const here = import.meta.dirname;
const out = path.resolve(here, '../../src/core/search/related-words.ts');
const { values: opts } = parseArgs({ options: { 'git-dirs': { type: 'string' }, check: { type: 'boolean', default: false }, cache: { type: 'string' } } });
if (!opts['git-dirs'] && !opts.cache) {
  console.error('build.ts: --git-dirs DIR is required (a git directory per source: DIR/<owner>+<name>/repo or DIR/<owner>+<name>.git)');
  process.exit(2);
}
const sources = JSON.parse(fs.readFileSync(path.join(here, 'sources.json'), 'utf8')) as { repositories: Array<{ repo: string; commit: string }> };

const PLAIN = /^[a-z]{3,}$/;
const termIds = new Map<string, number>();
const termNames: string[] = [];
const judged = new Map<string, number>();
/** A kept word's term id, or -1. */
function idOf(token: string): number {
  let id = judged.get(token);
  if (id !== undefined) return id;
  id = -1;
  if (PLAIN.test(token) && !STOP_WORDS.has(token)) {
    const term = termOf(token);
    if (term.length >= 3 && !STOP_WORDS.has(term)) {
      id = termIds.get(term) ?? -1;
      if (id < 0) {
        id = termNames.length;
        termIds.set(term, id);
        termNames.push(term);
      }
    }
  }
  judged.set(token, id);
  return id;
}

// Sentences as term-id arrays, and the sources each term is seen in (a bit per source).
const sentences: Int32Array[] = [];
const seenIn: number[] = [];
const cacheFile = opts.cache;
if (cacheFile && fs.existsSync(cacheFile)) {
  // A cache of this step (--cache, for trying settings): terms, then a sentence of term ids per line.
  const [names, sources, ...rest] = fs.readFileSync(cacheFile, 'utf8').split('\n');
  for (const t of names!.split(' ')) termIds.set(t, termNames.push(t) - 1);
  for (const x of sources!.split(' ')) seenIn.push(Number(x));
  for (const line of rest) if (line) sentences.push(Int32Array.from(line.split(' ').map(Number)));
} else {
  sources.repositories.forEach(({ repo, commit }, n) => {
    let count = 0;
    for (const text of texts(gitDir(opts['git-dirs']!, repo), commit)) {
      for (const sentence of text.replace(/\bhttps?:\/\/\S+/g, ' ').split(/[.!?;:]\s+|\n\s*\n|\n[-*#>|]/)) {
        const ids = analyzeText(sentence).map(idOf).filter((id) => id >= 0);
        if (ids.length < 2) continue;
        sentences.push(Int32Array.from(ids));
        for (const id of ids) seenIn[id] = (seenIn[id] ?? 0) | (1 << n);
        count++;
      }
    }
    console.error(`${repo}: ${count} sentences`);
  });
  if (cacheFile) fs.writeFileSync(cacheFile, `${termNames.join(' ')}\n${termNames.map((_, i) => seenIn[i] ?? 0).join(' ')}\n${sentences.map((s) => s.join(' ')).join('\n')}\n`);
}
const sourceCount = (id: number) => {
  let bits = seenIn[id] ?? 0;
  let n = 0;
  for (; bits; bits &= bits - 1) n++;
  return n;
};

const df = new Uint32Array(termNames.length);
for (const s of sentences) for (const id of new Set(s)) df[id]!++;
const byDf = [...df.keys()].filter((id) => df[id]! >= MIN_DF && sourceCount(id) >= MIN_SOURCES).sort((a, b) => df[b]! - df[a]! || (termNames[a]! < termNames[b]! ? -1 : 1));
const targetOf = new Int32Array(termNames.length).fill(-1);
const contextOf = new Int32Array(termNames.length).fill(-1);
const targets = byDf.slice(0, TARGETS);
targets.forEach((id, i) => (targetOf[id] = i));
byDf.slice(0, CONTEXTS).forEach((id, i) => (contextOf[id] = i));
const T = targets.length;
const C = Math.min(CONTEXTS, byDf.length);

// Target × context counts within the window, both directions.
const counts = new Uint32Array(T * C);
for (const s of sentences) {
  for (let i = 0; i < s.length; i++) {
    const t = targetOf[s[i]!]!;
    if (t < 0) continue;
    for (let j = Math.max(0, i - WINDOW); j < s.length && j <= i + WINDOW; j++) {
      const c = contextOf[s[j]!]!;
      if (j !== i && c >= 0 && s[j] !== s[i]) counts[t * C + c]!++;
    }
  }
}
const rowSum = new Float64Array(T);
const colSum = new Float64Array(C);
let total = 0;
for (let t = 0; t < T; t++) {
  for (let c = 0; c < C; c++) {
    const n = counts[t * C + c]!;
    rowSum[t]! += n;
    colSum[c]! += n;
    total += n;
  }
}
let smoothed = 0;
for (let c = 0; c < C; c++) smoothed += colSum[c]! ** ALPHA;

// Each target's strongest contexts by PPMI, normalised to length 1.
const vectors: Array<Array<[number, number]>> = [];
for (let t = 0; t < T; t++) {
  const entries: Array<[number, number]> = [];
  for (let c = 0; c < C; c++) {
    const n = counts[t * C + c]!;
    if (n < 2) continue;
    const pmi = Math.log((n * smoothed) / (rowSum[t]! * colSum[c]! ** ALPHA));
    if (pmi > 0) entries.push([c, pmi]);
  }
  entries.sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  const top = entries.slice(0, TOP_CONTEXTS);
  const norm = Math.sqrt(top.reduce((s, e) => s + e[1] * e[1], 0)) || 1;
  vectors.push(top.map(([c, v]) => [c, v / norm]));
}
// Cosines through an inverted index from context to targets.
const byContext: Array<Array<[number, number]>> = Array.from({ length: C }, () => []);
vectors.forEach((v, t) => {
  for (const [c, x] of v) byContext[c]!.push([t, x]);
});
const lines: string[] = [];
const dot = new Float64Array(T);
const touched: number[] = [];
for (let t = 0; t < T; t++) {
  for (const [c, x] of vectors[t]!) {
    for (const [u, y] of byContext[c]!) {
      if (u === t) continue;
      if (dot[u] === 0) touched.push(u);
      dot[u]! += x * y;
    }
  }
  const best = touched
    .filter((u) => dot[u]! >= MIN_COSINE)
    .map((u): [number, number] => [u, dot[u]!])
    .sort((p, q) => q[1] - p[1] || p[0] - q[0])
    .slice(0, PER_TERM);
  for (const u of touched) dot[u] = 0;
  touched.length = 0;
  if (best.length) lines.push(`${termNames[targets[t]!]}|${best.map(([u, cos]) => `${termNames[targets[u]!]}:${Math.round(cos * 100)}`).join(' ')}`);
}
// By term (a bar sorts after letters, so whole lines would not be).
lines.sort((a, b) => {
  const [x, y] = [a.slice(0, a.indexOf('|')), b.slice(0, b.indexOf('|'))];
  return x < y ? -1 : x > y ? 1 : 0;
});
const positions = total;

const file = `// Generated by tools/associations/build.ts from the public sources in tools/associations/sources.json: do not edit.
/**
 * Related developer words, one line per index term (Porter stem): the term and a bar, then up to ${PER_TERM} terms
 * used in the same contexts in public commit messages and documentation, each with the cosine of
 * their context vectors ×100 (${MIN_COSINE * 100}-100). Weak evidence, read by core/search/query.ts as a low-weight expansion.
 * ${lines.length} terms. Lines are sorted, and a lookup is a search for "\\n<term>|" (a bar, not a space: the
 * secret redactor reads "password <word>" as a password).
 */
export const RELATED_WORDS = \`
${lines.join('\n')}
\`;
`;
if (opts.check) {
  const same = fs.existsSync(out) && fs.readFileSync(out, 'utf8') === file;
  console.error(same ? 'related-words.ts is up to date' : 'related-words.ts differs from what the sources give');
  process.exit(same ? 0 : 1);
}
fs.writeFileSync(out, file);
console.error(`${lines.length} terms, ${file.length} bytes, from ${sentences.length} sentences (${positions} context counts)`);

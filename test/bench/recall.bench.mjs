// Issue 3 speed targets for lexical recall: whole-process wall time of the compiled binary, medians.
//
//   node test/bench/recall.bench.mjs [--sizes 1000,10000,100000] [--runs 15] [--against OTHER_BIN] [--related-words | --everyday-words]
//
// --against times another build (e.g. the commit before a ranking change) on a copy of each
// repository, its runs interleaved with this build's, so both see the same machine load.
//
// The memories draw their words from a 5,000-word Zipf vocabulary, as prose does: a few words are
// in most memories, most in few. Two queries per size: a selective one (three mid-frequency words,
// what people usually ask) and a broad one (the four most common words, so that thousands of
// memories match and must be scored); and a quoted phrase of the two commonest words.
// --related-words: the vocabulary's words are instead the terms of the related-words table
// (src/core/search/related-words.ts), in a fixed shuffled order, so that every query word brings
// up to 8 related words, and about half of them up to 4 everyday neighbours
// (src/core/search/everyday-words.ts), whose postings are scored too (the made-up words have none).
// --everyday-words: the same with the terms of the everyday-neighbours table, keys and values, so
// that query words have everyday neighbours (and most related words too) that memories hold.
//
// Baselines, timed in the same run: the naive reader of earlier tools (`git notes list`, then one
// `git notes show` per note and a substring match) at 1,000 memories, and `git grep` over the notes
// ref (unranked substring match, one process) at 10,000. Also timed: the incremental update after
// 100 new notes, and a full rebuild, at 10,000.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { addMemories, BIN, benchEnv, makeMemoryRepo, report, sh, timeRuns, tmpRoot, zipfVocabulary } from './lib.mjs';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: process.env.BENCH_RUNS ?? '15' },
    against: { type: 'string' },
    'related-words': { type: 'boolean', default: false },
    'everyday-words': { type: 'boolean', default: false },
  },
});
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const RUNS = Number(opts.runs);
const sizes = opts.sizes.split(',').map(Number);
const root = tmpRoot('recall');
const env = benchEnv(root);
const vocabulary = zipfVocabulary(5000);
if (opts['related-words'] || opts['everyday-words']) {
  const file = opts['everyday-words'] ? 'everyday-words' : 'related-words';
  const table = fs.readFileSync(path.resolve(import.meta.dirname, `../../src/core/search/${file}.ts`), 'utf8');
  const lines = table.match(/_WORDS = `([^`]*)`/)[1].split('\n').filter(Boolean);
  // The table's terms: for the everyday table its values too, the words its neighbours are.
  const heads = [...new Set(lines.flatMap((l) => [l.split('|')[0], ...(opts['everyday-words'] ? l.split('|')[1].split(' ').map((e) => e.split(':')[0]) : [])]))];
  // A fixed shuffle (an FNV-1a hash of each word), so the common words are not all early in the alphabet.
  const hash = (w) => [...w].reduce((h, c) => Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0, 2166136261);
  const real = heads.sort((a, b) => hash(a) - hash(b) || (a < b ? -1 : 1));
  for (let i = 0; i < vocabulary.words.length; i++) vocabulary.words[i] = real[i % real.length] + (i < real.length ? '' : `x${Math.floor(i / real.length)}`);
}
const selective = [vocabulary.words[400], vocabulary.words[900], vocabulary.words[1500]];
const broad = vocabulary.words.slice(0, 4);
// A quoted phrase of the two most common words: every memory matches, and the 50 best are read to
// look for it (core/search/lexical.ts PHRASE_CANDIDATES). An older build reads the same two words unquoted.
const phrase = [`"${broad[0]} ${broad[1]}"`];
const TARGETS = { 10_000: 60, 100_000: 250 };

const rows = [];
const figures = [];
const recall = (repo, words) => sh(repo, env, BIN, ['recall', '--mode', 'lexical', ...words]);
const matches = (repo, words) => JSON.parse(sh(repo, env, BIN, ['recall', '--mode', 'lexical', '--json', '--limit', '1000000', ...words])).length;

for (const size of sizes) {
  const repo = path.join(root, `r${size}`);
  let t0 = performance.now();
  makeMemoryRepo(repo, env, { commits: size, vocabulary });
  const importMs = performance.now() - t0;
  t0 = performance.now();
  sh(repo, env, BIN, ['index']);
  const indexMs = performance.now() - t0;
  // The match counts are taken after the timings: listing every match fills the anchors and
  // staleness caches with thousands of commits, which each later recall reads (about 10 ms at
  // 10,000), and the copy timed with --against would not have them.
  const describe = () =>
    figures.push(`${size} memories: generated in ${(importMs / 1000).toFixed(1)} s, first index build ${(indexMs / 1000).toFixed(2)} s; ` +
      `selective query matches ${matches(repo, selective)}, broad query ${matches(repo, broad)}; ` +
      `index.sqlite ${(fs.statSync(path.join(repo, '.git/mem/index.sqlite')).size / 1e6).toFixed(1)} MB, terms.idx ${(fs.statSync(path.join(repo, '.git/mem/terms.idx')).size / 1e6).toFixed(1)} MB`);
  const target = TARGETS[size];

  let naive;
  if (size === 1000) {
    // One process per note, as the earlier tools read them: a few runs are enough.
    naive = timeRuns(3, () => {
      const notes = sh(repo, env, 'git', ['notes', '--ref=refs/notes/mem/decisions', 'list']).trim().split('\n');
      let found = 0;
      for (const line of notes) {
        const text = sh(repo, env, 'git', ['notes', '--ref=refs/notes/mem/decisions', 'show', line.split(' ')[1]]).toLowerCase();
        if (selective.some((w) => text.includes(w))) found++;
      }
      if (found === 0) throw new Error('the naive reader found nothing');
    });
    rows.push({ name: `naive reader @${size} (baseline)`, ...naive });
  }
  let grep;
  if (size >= 10_000) {
    const grepOnce = (words) => {
      const r = spawnSync('git', ['grep', '-c', '-i', '-F', ...words.flatMap((w) => ['-e', w]), 'refs/notes/mem/decisions'], { cwd: repo, env, encoding: 'utf8', maxBuffer: 1 << 28 });
      if (r.status !== 0) throw new Error(`git grep: ${r.stderr}`);
    };
    grep = timeRuns(RUNS, () => grepOnce(selective));
    rows.push({ name: `git grep notes ref @${size} (baseline)`, ...grep });
  }
  const baseline = naive ? { name: 'naive reader', ...naive } : grep ? { name: 'git grep', ...grep } : undefined;
  const other = `${repo}-against`;
  if (opts.against) {
    fs.cpSync(repo, other, { recursive: true });
    fs.rmSync(path.join(other, '.git/mem'), { recursive: true, force: true });
    sh(other, env, opts.against, ['index']);
    for (const [label, words] of [['selective', selective], ['broad', broad], ['phrase', phrase]]) {
      const mine = [];
      const theirs = [];
      for (let i = 0; i < RUNS; i++) {
        let t = performance.now();
        sh(other, env, opts.against, ['recall', '--mode', 'lexical', ...words]);
        theirs.push(performance.now() - t);
        t = performance.now();
        recall(repo, words);
        mine.push(performance.now() - t);
      }
      const stats = (times) => {
        times.sort((a, b) => a - b);
        return { median: times[times.length >> 1], p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))], runs: RUNS };
      };
      const before = { name: 'the other build', ...stats(theirs) };
      rows.push({ ...before, name: `recall lexical @${size} (${label}), other build` });
      rows.push({ name: `recall lexical @${size} (${label})`, ...stats(mine), target, baseline: before });
    }
  } else {
    for (const [label, words] of [['selective', selective], ['broad', broad], ['phrase', phrase]]) {
      const timing = timeRuns(RUNS, () => recall(repo, words));
      rows.push({ name: `recall lexical @${size} (${label})`, ...timing, target, baseline });
    }
  }
  describe();

  if (size === 10_000) {
    // Each run adds 100 notes through git (untimed), then times the update that catches up with them.
    // With --against, the other build updates its copy of the repository, given the same notes, in
    // the same runs (its update first, then this build's).
    let start = 1_000_000;
    const incremental = [];
    const theirs = [];
    for (let i = 0; i < Math.min(RUNS, 9); i++) {
      addMemories(repo, env, { count: 100, start });
      if (opts.against) {
        addMemories(other, env, { count: 100, start });
        const t = performance.now();
        sh(other, env, opts.against, ['index']);
        theirs.push(performance.now() - t);
      }
      start += 100;
      const t = performance.now();
      sh(repo, env, BIN, ['index']);
      incremental.push(performance.now() - t);
    }
    const median = (times) => times.sort((a, b) => a - b)[times.length >> 1];
    const before = opts.against ? { name: 'the other build', median: median(theirs), p95: theirs.at(-1), runs: theirs.length } : undefined;
    if (before) rows.push({ ...before, name: `index update after 100 notes @${size}, other build` });
    rows.push({ name: `index update after 100 notes @${size}`, median: median(incremental), p95: incremental.at(-1), target: 200, ...(before ? { baseline: before } : {}) });
    const rebuild = timeRuns(3, () => sh(repo, env, BIN, ['index', '--rebuild']));
    rows.push({ name: `full rebuild @${size}`, ...rebuild, target: 5000 });
  }
}

console.log(`recall benchmark: ${RUNS} runs each; selective query "${selective.join(' ')}", broad query "${broad.join(' ')}"\n`);
for (const f of figures) console.log(f);
console.log('');
const ok = report(rows);
console.log('\nratio: median of the row over median of its baseline (below 1: faster than the baseline)');
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

// Capture speed (issue 36), whole process, this build against a previous one in the same run:
//
// - `git mem capture` with the embedding model present (the random-weight MiniLM-shaped
//   model of test/helpers/tiny-model.mjs, kind minilm: the published model's size and graph),
//   10,000 memories, into a small note. A capture links by words only: it must not load the model.
// - `git mem capture` into a note that already holds 10,000 memories (what an import
//   without commits leaves on HEAD): appending costs the memory appended, not the note. The
//   same memories as the first repository, so only the note differs; with and without the model;
//   and right after `git mem import` of 10,000 (the index on disk not caught up with them yet).
// Figures: medians and p95 of alternating runs, then the fastest run of each (the steadier
// comparison when other work shares the machine). The previous build is GIT_MEM_BASE_BIN.
//
//   GIT_MEM_BASE_BIN=/tmp/gm-base node test/bench/capture-speed.bench.mjs [--runs 9]
// Targets: both <= 80 ms (median). Without GIT_MEM_BASE_BIN only this build is timed.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, benchEnv, makeMemoryRepo, report, sh, tmpRoot, benchModel } from './lib.mjs';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: process.env.BENCH_RUNS ?? '9' } } });
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const BASE = process.env.GIT_MEM_BASE_BIN;
if (BASE && !fs.existsSync(BASE)) throw new Error(`no binary at GIT_MEM_BASE_BIN=${BASE}`);
const RUNS = Number(opts.runs);
const N = 10_000;
const root = tmpRoot('capture-speed');
process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
const baseEnv = benchEnv(root);

const modelDir = benchModel(root);
const withModel = { ...baseEnv, GIT_MEM_MODEL_PATH: modelDir, XDG_CACHE_HOME: path.join(root, 'cache') };
const noModel = { ...baseEnv, GIT_MEM_MODEL_PATH: path.join(root, 'no-model'), XDG_CACHE_HOME: path.join(root, 'cache') };

/** Median and p95 of alternating runs of each binary (the same repository; every run adds a memory). */
function timeBoth(repo, env, args) {
  const bins = BASE ? { new: BIN, base: BASE } : { new: BIN };
  const times = Object.fromEntries(Object.keys(bins).map((k) => [k, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [k, bin] of Object.entries(bins)) {
      const t0 = performance.now();
      sh(repo, env, bin, args(i, k));
      times[k].push(performance.now() - t0);
    }
  }
  const stat = (t) => {
    t.sort((a, b) => a - b);
    return { median: t[Math.floor(t.length / 2)], p95: t[Math.min(t.length - 1, Math.floor(t.length * 0.95))], min: t[0], runs: t.length };
  };
  return Object.fromEntries(Object.entries(times).map(([k, t]) => [k, stat(t)]));
}

const rows = [];
const add = (name, r, target) => {
  if (r.base) rows.push({ name: `${name} (previous)`, ...r.base });
  rows.push({ name, ...r.new, target, ...(r.base ? { baseline: { name: 'previous', ...r.base } } : {}) });
};

// 1. A small note, 10,000 memories in the repository, the model present (no vectors stored: the previous build
//    still loads the model to embed the new memory; with vectors stored it would also read them).
const repoA = path.join(root, 'repo-model');
makeMemoryRepo(repoA, withModel, { commits: N });
sh(repoA, withModel, BIN, ['index']);
const status = sh(repoA, withModel, BIN, ['model', 'status']);
if (!/ready|present|complete|found/i.test(status)) console.log(`note: model status says: ${status.trim().split('\n')[0]}`);
const capture = (i, k) => ['capture', 'decisions', `why we chose the lexical ranking ${k} ${i}`, '-m', 'The merge of the notes keeps every memory; the ranking stays lexical.'];
add(`capture, model, ${N / 1000}k memories`, timeBoth(repoA, withModel, capture), 80);
add(`capture, no model, ${N / 1000}k memories`, timeBoth(repoA, noModel, capture));

// 2. One note holding 10,000 memories on HEAD (as an import without commits leaves it): the same memories as in 1,
//    word for word (makeMemoryRepo, one commit), so that only the note differs and the search costs the same.
const repoB = path.join(root, 'repo-big-note');
makeMemoryRepo(repoB, noModel, { commits: 1, perCommit: N });
sh(repoB, noModel, BIN, ['index']);
const noteBytes = Buffer.byteLength(sh(repoB, noModel, 'git', ['notes', '--ref', 'refs/notes/mem/decisions', 'show', 'HEAD']));
console.log(`note on HEAD: ${N} memories, ${(noteBytes / 1e6).toFixed(1)} MB`);
add(`capture into note of ${N / 1000}k`, timeBoth(repoB, noModel, capture), 80);
add(`capture into note of ${N / 1000}k, model`, timeBoth(repoB, withModel, capture), 80);
// 3. The same right after `git mem import` of 10,000 memories without commits: the index on disk has not caught up
//    with them yet (a capture does not wait for it), so none of them counts as seen.
const repoC = path.join(root, 'repo-imported');
fs.mkdirSync(repoC);
sh(repoC, noModel, 'git', ['init', '-q']);
sh(repoC, noModel, 'git', ['commit', '-q', '--allow-empty', '-m', 'one']);
const jsonl = path.join(root, 'import.jsonl');
fs.writeFileSync(jsonl, Array.from({ length: N }, (_, n) => JSON.stringify({ namespace: 'decisions', summary: `imported memory number ${n} about topic ${n % 97}`, body: `Body of imported memory ${n}, on subject ${n % 89}.`, created: new Date(Date.UTC(2025, 0, 1) + n * 60000).toISOString() })).join('\n') + '\n');
sh(repoC, noModel, BIN, ['import', jsonl]);
add(`capture after import of ${N / 1000}k, no commits`, timeBoth(repoC, noModel, capture), 80);
const count = sh(repoB, noModel, BIN, ['stats', '--json']);
console.log(`after the runs the repository holds: ${JSON.stringify(JSON.parse(count).namespaces ?? JSON.parse(count))}`);

console.log(`\ncapture benchmark: ${RUNS} runs of each binary, alternating${BASE ? `; previous build ${BASE}` : ' (set GIT_MEM_BASE_BIN to time a previous build too)'}\n`);
const ok = report(rows);
// On a machine other work keeps busy the medians move together; the fastest run of each is the steadier comparison.
console.log('\nfastest run of each (ms):');
for (const r of rows) console.log(`  ${r.name.padEnd(52)}${r.min.toFixed(1)}`);
console.log(ok ? '\nall targets met' : '\nsome targets missed');

// Issue 17 speed targets, whole-process medians at 10,000 memories (zipf-distributed words, bodies
// of 40 words, one namespace that gc judges), each beside a baseline measured in the same run:
//   - linking one capture to its look-alikes adds at most 20 ms to `git mem capture`
//     (baseline: the same capture with linking off, mem.lifecycle.connect = 1);
//   - `consolidate --dry-run` and `gc --dry-run` at most 2 s (baseline: `list --json`, which reads
//     every memory too).
// And, with no target (the issue sets none): a capture that links by embeddings, with a model of
// all-MiniLM-L6-v2's size and every memory's vector stored (the random-weight stand-in of
// test/helpers/tiny-model.mjs: its timing is the real model's). BENCH_COSINE=0 skips it.
import { BIN, benchEnv, makeMemoryRepo, report, sh, timeRuns, tmpRoot, zipfVocabulary } from './lib.mjs';
import { writeTestModel } from '../helpers/tiny-model.mjs';
import path from 'node:path';

const RUNS = Number(process.env.BENCH_RUNS ?? 11);
const root = tmpRoot('lifecycle');
const env = { ...benchEnv(root), GIT_MEM_RECALL_MODE: 'lexical' };
const repo = path.join(root, 'repo');
const vocabulary = zipfVocabulary(3000);
const count = makeMemoryRepo(repo, env, { commits: 10_000, ns: 'learnings', vocabulary });
sh(repo, env, BIN, ['index']);
console.log(`lifecycle benchmark: ${count.toLocaleString('en')} memories, ${RUNS} runs each\n`);

// Each capture is timed with the index caught up (a capture links from the index as it is).
const words = (i) => Array.from({ length: 12 }, (_, j) => vocabulary.sample((i * 7919 + j * 104729) % 2147483647)).join(' ');
const capture = (i, connect) => {
  sh(repo, env, BIN, ['index']);
  const t0 = performance.now();
  sh(repo, { ...env, GIT_MEM_LIFECYCLE_CONNECT: connect }, BIN, ['capture', 'learnings', `bench capture ${i} ${words(i).slice(0, 60)}`, '-m', words(i + 1)]);
  return performance.now() - t0;
};
const on = [];
const off = [];
for (let i = 0; i < RUNS; i++) {
  off.push(capture(2 * i, '1'));
  on.push(capture(2 * i + 1, '0.4'));
}
// Captures linking by cosine: the same capture in hybrid mode with the model and every vector stored.
const cosine = [];
let embedAll = 0;
if (process.env.BENCH_COSINE !== '0') {
  const modelEnv = { ...env, GIT_MEM_RECALL_MODE: 'hybrid', GIT_MEM_MODEL_PATH: writeTestModel(path.join(root, 'minilm-standin'), { kind: 'minilm' }) };
  const t0 = performance.now();
  sh(repo, modelEnv, BIN, ['model', 'embed', '--json']);
  embedAll = performance.now() - t0;
  for (let i = 0; i < RUNS; i++) {
    sh(repo, env, BIN, ['index']);
    const t = performance.now();
    sh(repo, { ...modelEnv, GIT_MEM_LIFECYCLE_CONNECT: '0.4' }, BIN, ['capture', 'learnings', `bench cosine ${i} ${words(3 * RUNS + i).slice(0, 60)}`, '-m', words(3 * RUNS + i + 1)]);
    cosine.push(performance.now() - t);
  }
}
const med = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[s.length >> 1], p95: s.at(-1), runs: xs.length };
};
sh(repo, env, BIN, ['index']);
const list = timeRuns(RUNS, () => sh(repo, env, BIN, ['list', '--json']));
const consolidate = timeRuns(RUNS, () => sh(repo, env, BIN, ['consolidate', '--dry-run', '--json']));
const gc = timeRuns(RUNS, () => sh(repo, env, BIN, ['gc', '--dry-run', '--older-than', '1d', '--json']));
const plan = JSON.parse(sh(repo, env, BIN, ['consolidate', '--dry-run', '--json']));
const aged = JSON.parse(sh(repo, env, BIN, ['gc', '--dry-run', '--older-than', '1d', '--json']));

const offRow = { name: 'capture, linking off', ...med(off) };
const onRow = { name: 'capture, linking on (lexical)', ...med(on) };
const ok = report([
  offRow,
  { ...onRow, target: Math.round((offRow.median + 20) * 10) / 10, baseline: offRow },
  { name: 'list --json (every memory)', ...list },
  { name: 'consolidate --dry-run', ...consolidate, target: 2000, baseline: { name: 'list --json', ...list } },
  { name: 'gc --dry-run', ...gc, target: 2000, baseline: { name: 'list --json', ...list } },
  ...(cosine.length ? [{ name: 'capture, cosine links (MiniLM-size model)', ...med(cosine), baseline: onRow }] : []),
]);
if (cosine.length) console.log(`\nevery vector stored first (git mem model embed): ${(embedAll / 1000).toFixed(1)} s; a capture that links by cosine takes ${med(cosine).median.toFixed(1)} ms (no target: the model's load is most of it)`);
console.log(`\nlinking adds ${(onRow.median - offRow.median).toFixed(1)} ms to a capture (target 20 ms)`);
console.log(`consolidate would make ${plan.consolidations.length} memories of ${plan.consolidations.reduce((n, c) => n + c.consolidates.length, 0)}; gc would archive ${aged.archived.length} and reprieve ${aged.reprieved.length}`);
console.log(ok ? '\nall targets met' : '\nsome targets missed');
process.exitCode = ok ? 0 : 1;

// Issue 2 speed targets: whole-process wall time of the compiled binary, medians of 20+ runs,
// with 10,000 memories stored; baseline: `git notes append` on the same repository.
import fs from 'node:fs';
import { BIN, benchRepo, report, sh, timeRuns } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 25);
const { root, env, repo, count } = benchRepo('storage');
console.log(`storage benchmark: ${count} memories on ${count} commits (fanned-out notes tree), ${RUNS} runs each\n`);

const hello = timeRuns(RUNS, () => sh(repo, env, 'true', []));
const gitVersion = timeRuns(RUNS, () => sh(repo, env, 'git', ['--version']));
const version = timeRuns(RUNS, () => sh(repo, env, BIN, ['--version']));
const appendBase = timeRuns(RUNS, (i) => sh(repo, env, 'git', ['notes', '--ref=refs/notes/mem/baseline', 'append', '-m', `baseline note ${i}`, 'HEAD']));
const capture = timeRuns(RUNS, (i) => sh(repo, env, 'git', ['mem', 'capture', 'decisions', `Benchmark capture ${i}`, '-m', 'body', '--tags', 'bench']));
sh(repo, env, 'git', ['mem', 'list', '--limit', '1']); // let the index catch up with the captures
const list = timeRuns(RUNS, () => sh(repo, env, 'git', ['mem', 'list', '--limit', '20']));
const listDirect = timeRuns(RUNS, () => sh(repo, env, BIN, ['list', '--limit', '20']));
// stats counts every memory: against listing them all, which reads each one.
const stats = timeRuns(RUNS, () => sh(repo, env, BIN, ['stats']));
const listAll = timeRuns(RUNS, () => sh(repo, env, BIN, ['list', '--json']));

const ok = report([
  { name: 'process spawn (true)', ...hello },
  { name: 'git --version', ...gitVersion },
  { name: 'git-mem --version', ...version, target: 40, baseline: { name: 'git --version', ...gitVersion } },
  { name: 'git notes append (baseline)', ...appendBase },
  { name: 'git mem capture @10k', ...capture, target: 80, baseline: { name: 'git notes append', ...appendBase } },
  { name: 'git mem list --limit 20 @10k', ...list, target: 80 },
  { name: 'git-mem list --limit 20 @10k (no git wrapper)', ...listDirect, target: 80 },
  { name: 'git-mem list --json (all) @10k', ...listAll },
  { name: 'git-mem stats @10k', ...stats, baseline: { name: 'list --json (all)', ...listAll } },
]);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

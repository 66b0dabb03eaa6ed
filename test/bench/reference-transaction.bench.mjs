// Issue 30: what git-mem's reference-transaction hook adds to ref updates that touch no memory.
//
//   node test/bench/reference-transaction.bench.mjs [--runs 40] [--commits 1000]
//
// Two copies of one repository (--commits commits, a memory on each, `git mem init` with its git hooks):
// one with the reference-transaction hook, one without it (the other hooks as they are). Timed, whole
// `git` process, the two interleaved run by run:
//   git commit --allow-empty   (HEAD and main move forward: the hook decides with shell builtins alone)
//   git branch -D tmp          (tmp at HEAD, made untimed before each run: a deletion, so the hook starts
//                               git mem reanchor in the background, which finds nothing orphaned)
// Target: at most 5 ms added (median) to each, wall and processor time. A pause after every run lets a background reanchor end.
// An empty hook is timed too: what git's running any hook costs, the floor.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { BIN, benchEnv, makeMemoryRepo, report, sh, tmpRoot } from './lib.mjs';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: process.env.BENCH_RUNS ?? '40' }, commits: { type: 'string', default: '1000' } } });
const RUNS = Number(opts.runs);
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const root = tmpRoot('reftx');
const env = benchEnv(root);

const seed = path.join(root, 'with');
makeMemoryRepo(seed, env, { commits: Number(opts.commits) });
sh(seed, env, 'git', ['mem', 'init']);
sh(seed, env, 'git', ['mem', 'index']);
const without = path.join(root, 'without');
fs.cpSync(seed, without, { recursive: true });
const hook = (dir) => path.join(dir, '.git', 'hooks', 'reference-transaction');
if (!fs.existsSync(hook(seed))) throw new Error('git mem init installed no reference-transaction hook');
fs.rmSync(hook(without));
// The floor: any reference-transaction hook at all (git runs it at each state of each transaction).
const empty = path.join(root, 'empty');
fs.cpSync(without, empty, { recursive: true });
fs.writeFileSync(hook(empty), '#!/bin/sh\nexit 0\n', { mode: 0o755 });

const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
// Wall time, and the processor time (user + system) of git and the hook processes it waits for, read by
// bash's `time`: on a loaded machine wall time mostly measures the others' load; processor time does not.
// (A background reanchor is not waited for, and not counted: it runs after git has returned.)
const timed = (dir, args) => {
  const r = spawnSync('bash', ['-c', 'TIMEFORMAT="%3R %3U %3S"; time git "$@" >/dev/null', 'bench', ...args], { cwd: dir, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  const [real, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map((x) => Number(x) * 1000);
  return { wall: real, cpu: user + sys };
};
const stats = (times) => {
  const s = [...times].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] };
};

// [run, pause after it (ms): the hook starts its reanchor a second after a deletion, not to be timed in the next run]
const cases = {
  'git commit --allow-empty': [(dir, i) => timed(dir, ['commit', '-q', '--allow-empty', '-m', `bench ${i}`]), 100],
  'git branch -D tmp': [
    (dir) => {
      sh(dir, env, 'git', ['branch', '-f', 'tmp', 'HEAD']);
      return timed(dir, ['branch', '-q', '-D', 'tmp']);
    },
    1600,
  ],
};

const rows = [];
for (const [name, [run, rest]] of Object.entries(cases)) {
  const times = { with: [], without: [], empty: [] };
  const order = [['without', without], ['empty', empty], ['with', seed]];
  for (let i = 0; i < RUNS; i++) {
    for (const [label, dir] of i % 2 ? [...order].reverse() : order) {
      times[label].push(run(dir, i));
      pause(rest);
    }
  }
  for (const kind of ['wall', 'cpu']) {
    const of = (label) => stats(times[label].map((t) => t[kind]));
    const w = of('with');
    const wo = of('without');
    const e = of('empty');
    rows.push({ name: `${name}, ${kind} (no hook)`, ...wo });
    rows.push({ name: `${name}, ${kind} (an empty hook)`, ...e, baseline: { name: 'no hook', median: wo.median } });
    rows.push({ name: `${name}, ${kind} (git-mem's hook)`, ...w, baseline: { name: 'no hook', median: wo.median } });
    rows.push({ name: `${name}, ${kind}: added by git-mem's hook`, median: w.median - wo.median, p95: w.p95 - wo.p95, target: 5 });
  }
}
const ok = report(rows);
fs.rmSync(root, { recursive: true, force: true });
process.exit(ok ? 0 : 1);

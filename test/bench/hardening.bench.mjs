// Issue 13 speed figures: hooks on adversarial prompts and turns (whole process), and the first
// command after a process died holding the index lock. With GIT_MEM_BASELINE_BIN, the binary from
// before the change runs the same cases in the same run (cut off at 10 s).
//
//   GIT_MEM_BASELINE_BIN=/path/to/git-mem-before node test/bench/hardening.bench.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BIN, benchEnv, makeMemoryRepo, report, sh, timeRuns, tmpRoot } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BASE = process.env.GIT_MEM_BASELINE_BIN;
const CUTOFF_MS = 10_000;
const root = tmpRoot('hardening');
const env = benchEnv(root);
const repo = path.join(root, 'repo');
makeMemoryRepo(repo, env, { commits: 1000 });
sh(repo, env, BIN, ['index']);
console.log(`hardening benchmark: 1,000 memories, ${RUNS} runs each${BASE ? '; the binary before the change cut off at 10 s' : ''}\n`);

const json = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, note: 'we decided to use the cache because it turns out fine' })));
const prompts = {
  'TIL x 10,000 (40 KB)': 'TIL '.repeat(10_000),
  '160 KB of JSON': json,
  '[decision] x 20,000 on one line': '[decision] x '.repeat(20_000),
  '3.2 MB of sentences': 'I decided to go with sql.js. It turns out fine. '.repeat(68_000),
};

/** One hook run's wall time (ms), or Infinity when cut off. */
function hookOnce(bin, event, payload) {
  const t0 = performance.now();
  const r = spawnSync(bin, ['hook', event], { cwd: repo, env, input: JSON.stringify({ session_id: `b${Math.random()}`, cwd: repo, transcript_path: '', hook_event_name: event, ...payload }), timeout: CUTOFF_MS });
  return r.error ? Infinity : performance.now() - t0;
}

const rows = [];
const gitVersion = timeRuns(RUNS, () => sh(repo, env, 'git', ['--version']));
rows.push({ name: 'git --version (baseline)', ...gitVersion });
for (const [label, prompt] of Object.entries(prompts)) {
  for (const [event, payload] of [['UserPromptSubmit', { prompt }], ['Stop', { last_assistant_message: prompt }]]) {
    const mine = timeRuns(RUNS, () => hookOnce(BIN, event, payload));
    const t = BASE ? hookOnce(BASE, event, payload) : undefined;
    // Cut off: the ratio is then against the cut-off, an upper bound of it.
    const before = t === undefined ? undefined : Number.isFinite(t) ? { name: 'before', median: t, p95: t } : { name: 'before >', median: CUTOFF_MS, p95: CUTOFF_MS };
    rows.push({ name: `${event}: ${label}`, ...mine, target: 1000, baseline: before });
  }
}

// A process killed while it held the index lock: the lock names a pid that no longer runs.
const dead = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
const lockFirst = (bin) => {
  sh(repo, env, 'git', ['notes', '--ref=refs/notes/mem/decisions', 'append', '-m', `---\ntype: decisions\nsummary: after a kill ${Math.random()}\n---\n`, 'HEAD']);
  fs.writeFileSync(path.join(repo, '.git', 'mem', 'index.sqlite.lock'), `${dead} ${os.hostname()}`);
  const t0 = performance.now();
  spawnSync(bin, ['list', '--limit', '1'], { cwd: repo, env, timeout: 30_000 });
  return performance.now() - t0;
};
const afterKill = timeRuns(RUNS, () => lockFirst(BIN));
const afterKillBefore = BASE ? timeRuns(Math.min(RUNS, 3), () => lockFirst(BASE)) : undefined;
rows.push({ name: 'list, first after a kill -9 held the lock', ...afterKill, target: 1000, baseline: afterKillBefore ? { name: 'before', ...afterKillBefore } : undefined });
fs.rmSync(path.join(repo, '.git', 'mem', 'index.sqlite.lock'), { force: true });

const ok = report(rows);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

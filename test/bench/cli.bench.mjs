// Issue 6 speed targets: `git mem --help` and completion queries at most 40 ms (whole-process
// wall time, medians of 25+ runs), against `git --version` measured in the same run.
// The index holds 10,000 memories, so the id completion reads a realistic file.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, benchRepo, report, sh, timeRuns } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const { root, env, repo, count } = benchRepo('cli');
const key = JSON.parse(sh(repo, env, 'git', ['mem', 'list', '--limit', '1', '--json']))[0].key;
// The man page where `make install` puts it: git help mem -> man git-mem.
const manDir = path.join(root, 'man');
fs.mkdirSync(path.join(manDir, 'man1'), { recursive: true });
fs.copyFileSync(path.resolve(import.meta.dirname, '../../man/git-mem.1'), path.join(manDir, 'man1/git-mem.1'));
const manEnv = { ...env, MANPATH: `${manDir}:`, MANPAGER: 'cat', PAGER: 'cat', MANWIDTH: '80' };
const hasMan = spawnSync('man', ['--version'], { stdio: 'ignore' }).status === 0;
console.log(`cli benchmark: ${count} memories indexed, ${RUNS} runs each\n`);

const run = (args, e = env) => () => sh(repo, e, args[0], args.slice(1));
const spawn = timeRuns(RUNS, run(['true']));
const gitVersion = timeRuns(RUNS, run(['git', '--version']));
const base = { name: 'git --version', ...gitVersion };
const rows = [
  { name: 'process spawn (true)', ...spawn },
  { name: 'git --version (baseline)', ...gitVersion },
  { name: 'git-mem --version', ...timeRuns(RUNS, run([BIN, '--version'])), baseline: base },
  { name: 'git-mem --help', ...timeRuns(RUNS, run([BIN, '--help'])), target: 40, baseline: base },
  { name: 'git mem -h (through git)', ...timeRuns(RUNS, run(['git', 'mem', '-h'])), target: 40, baseline: base },
  { name: 'git mem recall --help', ...timeRuns(RUNS, run(['git', 'mem', 'recall', '--help'])), target: 40, baseline: base },
  { name: 'git-mem __complete namespaces', ...timeRuns(RUNS, run([BIN, '__complete', 'namespaces', ''])), target: 40, baseline: base },
  { name: 'git-mem __complete ids <4 hex> @10k', ...timeRuns(RUNS, run([BIN, '__complete', 'ids', key.slice(0, 4)])), target: 40, baseline: base },
  { name: 'git-mem __complete ids decisions: @10k', ...timeRuns(RUNS, run([BIN, '__complete', 'ids', 'decisions:'])), target: 40, baseline: base },
  { name: 'git mem __complete ids (through git)', ...timeRuns(RUNS, run(['git', 'mem', '__complete', 'ids', key.slice(0, 4)])), target: 40, baseline: base },
];
if (hasMan) {
  // git turns `git mem --help` into `git help mem`, which runs man: this is man-db's formatting time.
  rows.push({ name: 'git mem --help (man page, MANPAGER=cat)', ...timeRuns(Math.min(RUNS, 15), run(['git', 'mem', '--help'], manEnv)), baseline: base });
  rows.push({ name: 'man git-mem alone (MANPAGER=cat)', ...timeRuns(Math.min(RUNS, 15), run(['man', 'git-mem'], manEnv)), baseline: base });
}
const ok = report(rows);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

// Issue 30: what git-mem's reference-transaction hook adds to ref updates that touch no memory.
//
//   node test/bench/reference-transaction.bench.mjs [--runs 30] [--batch 20] [--commits 1000] [--other-hook FILE]
//
// Copies of one repository (--commits commits, a memory on each, `git mem init` with its git hooks) that
// differ only in .git/hooks/reference-transaction: none, an empty hook (`exit 0`: what git's running any hook
// costs, the floor), git-mem's hook. Timed, whole `git` processes, the copies interleaved sample by sample:
//   git commit --allow-empty   (HEAD and main move forward: the hook decides with shell builtins alone)
//   git branch -D bN           (bN at HEAD, made untimed before the sample: a deletion that strands nothing)
// A sample is one bash `time` around a loop of --batch operations, one git process each, so the figures
// per operation have a resolution of 1/batch ms (bash's `time` gives ms): wall time, and processor time
// (user + system of git and of the hook processes git waits for: on a loaded machine wall time mostly
// measures the others' load, processor time does not). Work the hook leaves in the background (a reanchor
// after a deletion) runs after git has returned and is not counted: the bench waits for it to end after
// each sample (no process left with its working directory in the copy), so the next sample does not
// pay for it either. Target: at most 5 ms added (median) per operation, wall and processor time.
// --other-hook FILE adds a copy with that script as its hook (an earlier git-mem's, say), timed alongside.
// A copy with a hook that logs its calls counts how often git runs the hook per operation (git 2.39 runs it
// at each state of each transaction, and `git branch -D` also runs one on the packed-refs store).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { spawnSync } from 'node:child_process';
import { BIN, benchEnv, makeMemoryRepo, sh, tmpRoot } from './lib.mjs';

const { values: opts } = parseArgs({
  options: {
    runs: { type: 'string', default: process.env.BENCH_RUNS ?? '30' },
    batch: { type: 'string', default: '20' },
    commits: { type: 'string', default: '1000' },
    'other-hook': { type: 'string' },
  },
});
const RUNS = Number(opts.runs);
const BATCH = Number(opts.batch);
const TARGET = 5;
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const root = tmpRoot('reftx');
const env = benchEnv(root);

const seed = path.join(root, 'with');
makeMemoryRepo(seed, env, { commits: Number(opts.commits) });
sh(seed, env, 'git', ['mem', 'init']);
sh(seed, env, 'git', ['mem', 'index']);
const hook = (dir) => path.join(dir, '.git', 'hooks', 'reference-transaction');
if (!fs.existsSync(hook(seed))) throw new Error('git mem init installed no reference-transaction hook');
const copy = (name, script) => {
  const dir = path.join(root, name);
  fs.cpSync(seed, dir, { recursive: true });
  fs.rmSync(hook(dir));
  if (script) fs.writeFileSync(hook(dir), script, { mode: 0o755 });
  return dir;
};
const without = copy('without');
const empty = copy('empty', '#!/bin/sh\nexit 0\n');
const other = opts['other-hook'] ? copy('other', fs.readFileSync(opts['other-hook'], 'utf8')) : null;
const callLog = path.join(root, 'calls.log');
const logging = copy('logging', `#!/bin/sh\n{ printf '== %s\\n' "$1"; cat; } >> '${callLog}'\n`);

const git = sh(seed, env, 'git', ['--version']).trim();
const pause = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Waits until no process has its working directory in `dir` (a hook's background reanchor), at most 60 s. */
const settle = (where) => {
  const dir = fs.realpathSync(where);
  const deadline = Date.now() + 60_000;
  const busy = () =>
    fs.readdirSync('/proc').some((pid) => {
      if (!/^\d+$/.test(pid) || Number(pid) === process.pid) return false;
      try {
        return fs.readlinkSync(`/proc/${pid}/cwd`) === dir;
      } catch {
        return false;
      }
    });
  while (Date.now() < deadline && busy()) pause(50);
};

// Before each operation, every copy writes (a bash builtin, the same in each) a pid no process has into
// mem/reanchor-due: git-mem's hook then finds no run due and starts one for each deletion, as for a deletion
// on its own. (Deletions less than a second apart share one run: the first pays for it, the others do not.)
const ALONE = 'echo 999999999 > .git/mem/reanchor-due; ';

/** One sample: bash times `body` (a loop of `per` operations), run with `args` as "$@"; ms per operation. */
const timedShell = (dir, body, args, per, extraEnv = {}) => {
  const script = `TIMEFORMAT="%3R %3U %3S"; time { ${body} }`;
  const r = spawnSync('bash', ['-c', script, 'bench', ...args], { cwd: dir, env: { ...env, ...extraEnv }, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${body}: ${r.stderr}`);
  const [real, user, sys] = r.stderr.trim().split('\n').pop().split(' ').map((x) => Number(x) * 1000);
  return { wall: real / per, cpu: (user + sys) / per };
};

/** One sample: a loop running `git <args> <item>` for each item. */
const timedLoop = (dir, args, items) => timedShell(dir, `for x in "$@"; do ${ALONE}git ${args} "$x" >/dev/null || exit 1; done;`, items, items.length);

const names = (sample) => Array.from({ length: BATCH }, (_, i) => `b${sample}x${i}`);
const cases = {
  'git commit --allow-empty': {
    prepare: () => {},
    run: (dir, sample) => timedLoop(dir, 'commit -q --allow-empty -m', names(sample)),
    once: (dir) => sh(dir, env, 'git', ['commit', '-q', '--allow-empty', '-m', 'counted']),
  },
  'git branch -D': {
    // The branches, untimed, in one transaction (git-mem's hook sees no deletion in it).
    prepare: (dir, sample) => sh(dir, env, 'git', ['update-ref', '--stdin'], names(sample).map((b) => `create refs/heads/${b} HEAD\n`).join('')),
    run: (dir, sample) => timedLoop(dir, 'branch -q -D', names(sample)),
    once: (dir) => {
      sh(dir, env, 'git', ['branch', 'counted']);
      fs.writeFileSync(callLog, '');
      sh(dir, env, 'git', ['branch', '-q', '-D', 'counted']);
    },
  },
};

// How often git runs the hook per operation, by state, and with what input: replayed below to time the hook alone.
const calls = {};
for (const [name, c] of Object.entries(cases)) {
  fs.writeFileSync(callLog, '');
  c.once(logging);
  const runs = [];
  for (const line of fs.readFileSync(callLog, 'utf8').split('\n').filter(Boolean)) {
    if (line.startsWith('== ')) runs.push({ state: line.slice(3), input: '' });
    else runs.at(-1).input += `${line}\n`;
  }
  const by = {};
  for (const r of runs) by[r.state] = (by[r.state] ?? 0) + 1;
  const dir = path.join(root, `calls-${Object.keys(calls).length}`);
  fs.mkdirSync(dir);
  runs.forEach((r, i) => fs.writeFileSync(path.join(dir, `${i}.in`), r.input));
  // The hook alone, as git runs it for one operation (the same states and inputs, in order), `git` a no-op for the background run it starts.
  const replay = runs.map((r, i) => `.git/hooks/reference-transaction ${r.state} < ${path.join(dir, `${i}.in`)};`).join(' ');
  calls[name] = { total: runs.length, by, replay };
}
const noopGit = path.join(root, 'noop-git');
fs.mkdirSync(noopGit);
fs.writeFileSync(path.join(noopGit, 'git'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
const replayed = (dir, name) => timedShell(dir, `for x in "$@"; do ${ALONE}${calls[name].replay} done;`, names(0), BATCH, { PATH: `${noopGit}:${env.PATH}` });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const p90 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.9))];

const copies = [['no hook', without], ['empty hook', empty], ["git-mem's hook", seed], ...(other ? [['other hook', other]] : [])];
const results = {};
const alone = {};
for (const [name, c] of Object.entries(cases)) {
  const samples = Object.fromEntries(copies.map(([label]) => [label, []]));
  const hookAlone = Object.fromEntries(copies.slice(1).map(([label]) => [label, []]));
  for (let i = 0; i < RUNS; i++) {
    for (const [label, dir] of i % 2 ? [...copies].reverse() : copies) {
      c.prepare(dir, i);
      settle(dir);
      samples[label].push(c.run(dir, i));
      settle(dir);
      if (label === 'no hook') continue;
      hookAlone[label].push(replayed(dir, name));
      settle(dir);
    }
  }
  results[name] = samples;
  alone[name] = hookAlone;
}

const f = (x) => x.toFixed(2).padStart(7);
console.log(`${git}; ${RUNS} samples of ${BATCH} operations per copy; ms per operation (median of samples, p90 in brackets)`);
let ok = true;
for (const [name, samples] of Object.entries(results)) {
  const { total, by } = calls[name];
  console.log(`\n${name}: git runs the hook ${total} times per operation (${Object.entries(by).map(([s, n]) => `${s} ${n}`).join(', ')})`);
  for (const kind of ['wall', 'cpu']) {
    const m = Object.fromEntries(copies.map(([label]) => [label, median(samples[label].map((t) => t[kind]))]));
    const p = Object.fromEntries(copies.map(([label]) => [label, p90(samples[label].map((t) => t[kind]))]));
    const none = m['no hook'];
    const floor = m['empty hook'] - none;
    const added = m["git-mem's hook"] - none;
    const beyond = m["git-mem's hook"] - m['empty hook'];
    const met = added <= TARGET;
    ok &&= met;
    console.log(
      `  ${kind.padEnd(4)} no hook ${f(none)} [${p['no hook'].toFixed(2)}]  empty hook ${f(m['empty hook'])} [${p['empty hook'].toFixed(2)}]  git-mem's hook ${f(m["git-mem's hook"])} [${p["git-mem's hook"].toFixed(2)}]`,
    );
    if (other) console.log(`       other hook ${f(m['other hook'])} [${p['other hook'].toFixed(2)}]: adds ${f(m['other hook'] - none)}, beyond the floor ${f(m['other hook'] - m['empty hook'])}`);
    console.log(
      `       floor (empty - none) ${f(floor)} = ${(floor / total).toFixed(2)} per hook run; added by git-mem's hook ${f(added)} (${(m["git-mem's hook"] / none).toFixed(2)}x no hook; target <= ${TARGET}${met ? '' : ' MISS'}), beyond the floor ${f(beyond)} (${(m["git-mem's hook"] / m['empty hook']).toFixed(2)}x empty hook)`,
    );
  }
  // The hook alone: git's calls of one operation replayed from bash (no git process), so what git-mem's hook adds
  // beyond an empty one is measured without git's own noise.
  const h = alone[name];
  for (const kind of ['wall', 'cpu']) {
    const m = Object.fromEntries(Object.entries(h).map(([label, xs]) => [label, median(xs.map((t) => t[kind]))]));
    console.log(
      `  hook alone, ${kind.padEnd(4)} (the ${total} runs replayed): empty hook ${f(m['empty hook'])}  git-mem's hook ${f(m["git-mem's hook"])}  beyond the floor ${f(m["git-mem's hook"] - m['empty hook'])}${other ? `  other hook ${f(m['other hook'])} (beyond ${f(m['other hook'] - m['empty hook'])})` : ''}`,
    );
  }
}
fs.rmSync(root, { recursive: true, force: true });
process.exit(ok ? 0 : 1);

// Trust (issue 29): what provenance costs. A teammate's clone holds 100,000
// memories; a reader clone pulls them, then 1,000 more arrive. Timed, whole
// process, for this build under the default policy (local,signed: provenance
// read) against the same build under `mem.trust all` (no provenance: the
// behaviour before trust) and, when GIT_MEM_BASELINE_BIN is set, the
// previous build:
//   - the first SessionStart after a pull that brought 1,000 revisions (pays
//     for reading them: target <= 300 ms more than without provenance),
//   - SessionStart and UserPromptSubmit when nothing new came in (unchanged).
// Run: npm run build && node test/bench/trust.bench.mjs
//      GIT_MEM_BENCH_MEMORIES=20000 for a quicker run.
import fs from 'node:fs';
import path from 'node:path';
import { addMemories, benchEnv, BIN, makeMemoryRepo, report, sh, timeRuns, tmpRoot } from './lib.mjs';

const TOTAL = Number(process.env.GIT_MEM_BENCH_MEMORIES ?? 100_000);
const INCOMING = 1000;
const RUNS = Number(process.env.GIT_MEM_BENCH_RUNS ?? 5);
const BASELINE = process.env.GIT_MEM_BASELINE_BIN;

const root = tmpRoot('trust');
const env = benchEnv(root);
const alice = path.join(root, 'alice');
const remote = path.join(root, 'remote.git');
const started = performance.now();
makeMemoryRepo(alice, env, { commits: TOTAL / 10, perCommit: 10 });
sh(root, env, 'git', ['init', '-q', '--bare', remote]);
sh(alice, env, 'git', ['push', '-q', remote, 'main', 'refs/notes/mem/*:refs/notes/mem/*']);
console.log(`trust benchmark: ${TOTAL} memories, ${INCOMING} incoming, ${RUNS} runs; set up in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const hookInput = (dir, event, extra = {}) => JSON.stringify({ session_id: `s${Math.random()}`, transcript_path: '/dev/null', cwd: dir, hook_event_name: event, ...extra });
const hook = (bin, dir, event, extra) => sh(dir, env, bin, ['hook', event], hookInput(dir, event, extra));

/** A reader clone for one build and policy, with the 100,000 memories pulled and every cache warm. */
function reader(name, bin, trust) {
  const dir = path.join(root, name);
  sh(root, env, 'git', ['clone', '-q', remote, dir]);
  sh(dir, env, 'git', ['fetch', '-q', 'origin', 'refs/notes/mem/*:refs/notes/remotes/origin/mem/*']);
  if (trust) sh(dir, env, 'git', ['config', 'mem.trust', trust]);
  sh(dir, env, bin, ['pull']);
  hook(bin, dir, 'SessionStart', { source: 'startup' });
  return dir;
}

const builds = [
  { name: 'local,signed', bin: BIN, trust: '' },
  { name: 'trust all', bin: BIN, trust: 'all' },
  ...(BASELINE ? [{ name: 'baseline', bin: BASELINE, trust: '' }] : []),
];
for (const b of builds) b.dir = reader(b.name.replace(/\W+/g, '-'), b.bin, b.trust);

// 1,000 revisions arrive, each run: alice adds them and pushes; the timed SessionStart is the first after the pull.
let start = TOTAL;
function incoming() {
  addMemories(alice, env, { count: INCOMING, start: (start += INCOMING) });
  sh(alice, env, 'git', ['push', '-q', remote, 'main', 'refs/notes/mem/*:refs/notes/mem/*']);
}
const afterPull = new Map(builds.map((b) => [b.name, []]));
for (let i = 0; i < RUNS; i++) {
  incoming();
  for (const b of builds) {
    sh(b.dir, env, b.bin, ['pull']);
    const t0 = performance.now();
    hook(b.bin, b.dir, 'SessionStart', { source: 'startup' });
    afterPull.get(b.name).push(performance.now() - t0);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];

const rows = [];
const open = builds[1];
const openAfter = { name: open.name, median: median(afterPull.get(open.name)) };
for (const b of builds) {
  const times = afterPull.get(b.name);
  rows.push({ name: `SessionStart after pull, ${b.name}`, median: median(times), p95: p95(times), baseline: b === open ? undefined : openAfter });
}
const quiet = (b, event, extra) => timeRuns(RUNS, () => hook(b.bin, b.dir, event, extra));
const quietOpen = { name: open.name, ...quiet(open, 'SessionStart', { source: 'startup' }) };
for (const b of builds) if (b !== open) rows.push({ name: `SessionStart, no news, ${b.name}`, ...quiet(b, 'SessionStart', { source: 'startup' }), baseline: quietOpen });
const prompt = { prompt: 'what did we decide about the cache and the index?' };
const promptOpen = { name: open.name, ...quiet(open, 'UserPromptSubmit', prompt) };
for (const b of builds) if (b !== open) rows.push({ name: `UserPromptSubmit, no news, ${b.name}`, ...quiet(b, 'UserPromptSubmit', prompt), baseline: promptOpen });
report(rows);

// The target: reading 1,000 incoming revisions' provenance costs at most 300 ms on top of the same build without it.
const extra = median(afterPull.get(builds[0].name)) - openAfter.median;
console.log(`\nprovenance of ${INCOMING} incoming revisions: ${extra.toFixed(0)} ms over mem.trust all (target <= 300)${extra <= 300 ? '' : ' MISS'}`);
console.log(`provenance cache: ${(dirSize(path.join(builds[0].dir, '.git', 'mem', 'provenance')) / 1e6).toFixed(1)} MB for ${TOTAL + RUNS * INCOMING} memories; ${((performance.now() - started) / 1000).toFixed(0)} s in all`);
fs.rmSync(root, { recursive: true, force: true });

function dirSize(dir) {
  let total = 0;
  for (const f of fs.readdirSync(dir)) total += fs.statSync(path.join(dir, f)).size;
  return total;
}

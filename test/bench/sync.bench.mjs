// Issue 4 speed targets. (1) Pull and merge of 1,000 new memories from a file:// remote into a
// clone holding 10,000, whole process, with the time `git fetch` alone takes printed beside it.
// (2) Push of 10,000 memories to an empty remote, against a plain `git push` of the same refs.
import fs from 'node:fs';
import path from 'node:path';
import { addMemories, BIN, benchEnv, makeMemoryRepo, report, sh, timeRuns, tmpRoot } from './lib.mjs';

if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const root = tmpRoot('sync');
const env = benchEnv(root);
const a = path.join(root, 'a');
const remote = path.join(root, 'remote.git');
makeMemoryRepo(a, env, { commits: 10_000 });
sh(root, env, 'git', ['init', '-q', '--bare', remote]);
sh(a, env, 'git', ['remote', 'add', 'origin', remote]);
sh(a, env, 'git', ['push', '-q', 'origin', 'main', 'refs/notes/mem/*:refs/notes/mem/*']);
const b = path.join(root, 'b');
sh(root, env, 'git', ['clone', '-q', remote, b]);
sh(b, env, 'git', ['mem', 'pull']); // b now holds 10,000
addMemories(a, env, { count: 1000, start: 10_000 });
sh(a, env, 'git', ['push', '-q', 'origin', 'main', 'refs/notes/mem/*:refs/notes/mem/*']);
sh(b, env, 'git', ['mem', 'capture', 'decisions', 'Local memory, so the pull has to merge']);
console.log(`sync benchmark: clone with 10,000 memories pulls 1,000 new ones (with a diverged local memory); ${RUNS} runs\n`);

// Each run works on a fresh copy of b, so every pull does the same work.
const copies = Array.from({ length: RUNS * 2 }, (_, i) => {
  const dir = path.join(root, `b${i}`);
  fs.cpSync(b, dir, { recursive: true });
  return dir;
});
const fetchOnly = timeRuns(RUNS, (i) => sh(copies[i], env, 'git', ['fetch', '-q', '--no-tags', 'origin', '+refs/notes/mem/*:refs/notes/remotes/origin/mem/*']));
const pull = timeRuns(RUNS, (i) => {
  const out = sh(copies[RUNS + i], env, 'git', ['mem', 'pull']);
  if (!/1000 in/.test(out)) throw new Error(`unexpected pull output: ${out}`);
});
const pullMinusFetch = { median: pull.median - fetchOnly.median, p95: pull.p95 - fetchOnly.p95 };

// Push 10,000 memories to an empty remote: git mem push vs plain git push of the same refs.
const empties = Array.from({ length: RUNS * 2 }, (_, i) => {
  const dir = path.join(root, `empty${i}.git`);
  sh(root, env, 'git', ['init', '-q', '--bare', dir]);
  return dir;
});
const gitPush = timeRuns(RUNS, (i) => sh(a, env, 'git', ['push', '-q', empties[i], 'refs/notes/mem/*:refs/notes/mem/*']));
const memPush = timeRuns(RUNS, (i) => {
  sh(a, env, 'git', ['remote', 'add', `e${i}`, empties[RUNS + i]]);
  sh(a, env, 'git', ['mem', 'push', `e${i}`]);
});

const ok = report([
  { name: 'git fetch of the memory refs (alone)', ...fetchOnly },
  { name: 'git mem pull (1,000 new into 10,000)', ...pull },
  { name: 'git mem pull minus git fetch', ...pullMinusFetch, target: 1000 },
  { name: 'git push of 10,000 memories (baseline)', ...gitPush },
  { name: 'git mem push of 10,000 memories', ...memPush, target: Math.round(gitPush.median * 2), baseline: { name: 'git push', ...gitPush } },
]);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

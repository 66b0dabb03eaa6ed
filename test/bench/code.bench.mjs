// Issue 15 speed targets: recall with staleness and reachability, SessionStart, and git mem blame,
// at 10,000 memories on 2,000 commits (whole-process medians).
//
//   GIT_MEM_BASELINE_BIN=/path/to/git-mem-before node test/bench/code.bench.mjs [--runs 15]
//
// The repository: 2,000 commits, each appending one line to big.txt (so blame of its 2,000 lines
// names 2,000 commits) and changing one of 50 small files (so most memories are stale), with five
// memories on each commit. Baselines in the same run: the binary from before the change (recall and
// SessionStart without staleness or reachability), and git blame itself.
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, benchEnv, report, sh, timeRuns, tmpRoot } from './lib.mjs';

const { values: opts } = parseArgs({ options: { runs: { type: 'string', default: process.env.BENCH_RUNS ?? '15' } } });
const RUNS = Number(opts.runs);
const BASE = process.env.GIT_MEM_BASELINE_BIN;
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const root = tmpRoot('code');
const env = benchEnv(root);
const WORDS = 'index cache notes merge rebase commit branch worktree hook session token budget parser schema retry lock queue timeout'.split(' ');

function makeRepo(dir) {
  fs.mkdirSync(dir, { recursive: true });
  sh(dir, env, 'git', ['init', '-q']);
  const chunks = [];
  const big = [];
  for (let i = 1; i <= 2000; i++) {
    big.push(`line ${i} of the big file`);
    const content = `${big.join('\n')}\n`;
    chunks.push(`commit refs/heads/main\nmark :${i}\ncommitter B <b@example.com> ${1700000000 + i * 60} +0000\ndata 3\nc${i % 10}\n`);
    chunks.push(`M 644 inline big.txt\ndata ${Buffer.byteLength(content)}\n${content}`);
    chunks.push(`M 644 inline f${i % 50}.txt\ndata ${String(i).length}\n${i}\n`);
  }
  chunks.push('commit refs/notes/mem/decisions\ncommitter B <b@example.com> 1800000000 +0000\ndata 5\nseed\n');
  let n = 0;
  for (let i = 1; i <= 2000; i++) {
    const docs = [];
    for (let j = 0; j < 5; j++) {
      n++;
      const w = (k) => WORDS[(n * 7 + k * 13) % WORDS.length];
      docs.push(`---\nid: '${n.toString(16).padStart(16, '0')}'\ntype: decisions\ntimestamp: 2025-01-01T00:00:00Z\nsummary: ${w(1)} ${w(2)} ${w(3)} decision ${n}\n---\n\nWe chose ${w(4)} over ${w(5)}.`);
    }
    const body = `${docs.join('\n\n')}\n`;
    chunks.push(`N inline :${i}\ndata ${Buffer.byteLength(body)}\n${body}`);
  }
  sh(dir, env, 'git', ['fast-import', '--quiet'], chunks.join(''));
  sh(dir, env, 'git', ['reset', '-q', '--hard', 'main']);
}

const seed = path.join(root, 'seed');
makeRepo(seed);
const copy = (name) => {
  const dir = path.join(root, name);
  fs.cpSync(seed, dir, { recursive: true });
  return dir;
};
const repo = copy('new');
const baseRepo = BASE ? copy('base') : null;
console.log(`code benchmark: ${RUNS} runs each; 10,000 memories on 2,000 commits, big.txt of 2,000 lines from 2,000 commits\n`);

const session = (i) => JSON.stringify({ session_id: `s${i}`, hook_event_name: 'SessionStart', source: 'startup', cwd: '.', transcript_path: '/nonexistent' });
const recall = (bin, dir) => sh(dir, env, bin, ['recall', '--mode', 'lexical', 'index', 'cache', 'decision']);
const time = (bin, dir, run) => {
  run(bin, dir, -1); // warm: index built, caches filled
  return timeRuns(RUNS, (i) => run(bin, dir, i));
};
const rows = [];
const b = (name, t) => (t ? { name, ...t } : undefined);

const baseRecall = baseRepo ? time(BASE, baseRepo, recall) : null;
rows.push({ name: 'recall (staleness + reach, HEAD unchanged)', ...time(BIN, repo, recall), target: 80, baseline: b('before', baseRecall) });
// HEAD moved before each run (a commit, untimed): staleness and placements are computed anew.
let tick = 0;
const movedTimes = [];
for (let i = 0; i < RUNS; i++) {
  sh(repo, env, 'git', ['commit', '-q', '--allow-empty', '-m', `tick ${tick++}`]);
  const t0 = performance.now();
  recall(BIN, repo);
  movedTimes.push(performance.now() - t0);
}
movedTimes.sort((x, y) => x - y);
rows.push({ name: 'recall (HEAD moved before each run)', median: movedTimes[movedTimes.length >> 1], p95: movedTimes.at(-1), baseline: b('before', baseRecall) });
const sessionRun = (bin, dir, i) => sh(dir, env, bin, ['hook', 'SessionStart'], session(i));
const baseSession = baseRepo ? time(BASE, baseRepo, sessionRun) : null;
rows.push({ name: 'SessionStart', ...time(BIN, repo, sessionRun), target: 80, baseline: b('before', baseSession) });
const movedSession = [];
for (let i = 0; i < RUNS; i++) {
  sh(repo, env, 'git', ['commit', '-q', '--allow-empty', '-m', `tick ${tick++}`]);
  const t0 = performance.now();
  sessionRun(BIN, repo, 1000 + i);
  movedSession.push(performance.now() - t0);
}
movedSession.sort((x, y) => x - y);
rows.push({ name: 'SessionStart (HEAD moved before each run)', median: movedSession[movedSession.length >> 1], p95: movedSession.at(-1), target: 80, baseline: b('before', baseSession) });
const gitBlame = timeRuns(RUNS, () => sh(repo, env, 'git', ['blame', '--porcelain', '--', 'big.txt']));
const memBlame = timeRuns(RUNS, () => sh(repo, env, BIN, ['blame', 'big.txt']));
rows.push({ name: 'git blame big.txt (baseline)', ...gitBlame });
rows.push({ name: 'git mem blame big.txt', ...memBlame, baseline: b('git blame', gitBlame) });
const ok = report(rows);
const extra = memBlame.median - gitBlame.median;
console.log(`\ngit mem blame beyond git blame: ${extra.toFixed(1)} ms (target: at most 150)${extra <= 150 ? '' : '  MISS'}`);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok && extra <= 150 ? '\nall targets met' : '\nsome targets missed');

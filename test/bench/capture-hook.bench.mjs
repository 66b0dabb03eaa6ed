// Issue 27 speed targets: the hooks that detect statements, whole process, 10,000 memories,
// this build against a baseline binary in the same run, in turns (GIT_MEM_BASELINE_BIN; without
// one, `git --version` and `git notes show` are the baseline). Run: node test/bench/capture-hook.bench.mjs
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { BIN, benchRepo, report, sh, timeRuns } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const BASELINE = process.env.GIT_MEM_BASELINE_BIN;
const { root, env, repo } = benchRepo('capture-hook');
console.log(`capture hooks benchmark: 10,000 memories, ${RUNS} runs each${BASELINE ? `, against ${BASELINE}` : ''}\n`);

const base = { session_id: 'bench', transcript_path: path.join(root, 'none.jsonl'), cwd: repo, permission_mode: 'default' };
function hook(bin, event, payload) {
  const r = spawnSync(bin, ['hook', event], { cwd: repo, env: { ...env, GIT_MEM_AUTO_CAPTURE: 'false' }, input: JSON.stringify({ ...base, hook_event_name: event, ...payload }), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${event}: ${r.stderr}`);
  return r.stdout;
}

// A prompt of 10 KB: paragraphs of developer text, none worth keeping on its own.
const paragraph = 'Can you look at the upload retry path and tell me where the timeout comes from? The logs show the request hanging after the second attempt, and I am not sure whether the queue or the network layer is at fault.';
const long = Array.from({ length: 48 }, () => paragraph).join('\n\n').slice(0, 10_240);
const cases = [
  ['UserPromptSubmit, no signal', 'UserPromptSubmit', { prompt: 'Write a factorial function in TypeScript with tests' }, 40],
  ['UserPromptSubmit, a statement (suggested)', 'UserPromptSubmit', { prompt: 'We switched the upload client to exponential backoff because the fixed retry hammered the API during outages.' }, 60],
  ['UserPromptSubmit, 10 KB prompt', 'UserPromptSubmit', { prompt: long }, 60],
  ['Stop, one reply', 'Stop', { stop_hook_active: false, last_assistant_message: 'Done. The upload retry now backs off exponentially; the tests pass.' }, 60],
];

const rows = [];
const gitVersion = timeRuns(RUNS, () => sh(repo, env, 'git', ['--version']));
const notesShow = timeRuns(RUNS, () => sh(repo, env, 'git', ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']));
for (const [name, event, payload, target] of cases) {
  // In turns, so that both builds meet the same machine load.
  const mine = [];
  const theirs = [];
  for (let i = 0; i < RUNS; i++) {
    mine.push(timeRuns(1, () => hook(BIN, event, { ...payload, session_id: `m-${name}-${i}` })).median);
    if (BASELINE) theirs.push(timeRuns(1, () => hook(BASELINE, event, { ...payload, session_id: `b-${name}-${i}` })).median);
  }
  const stat = (xs) => {
    const s = [...xs].sort((a, b) => a - b);
    return { median: s[s.length >> 1], p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))] };
  };
  rows.push({ name, ...stat(mine), target, baseline: BASELINE ? { name: 'baseline', ...stat(theirs) } : { name: 'git notes show', median: notesShow.median } });
}
rows.push({ name: 'git --version (machine speed)', ...gitVersion });
process.exitCode = report(rows) ? 0 : 1;

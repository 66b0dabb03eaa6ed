// Issue 5 speed targets: whole-process wall time of `git-mem hook <Event>` with 10,000 memories,
// medians, beside `git --version` and `git notes show` measured in the same run.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, benchRepo, report, sh, timeRuns } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const { root, env, repo } = benchRepo('hooks');
for (const ns of ['blockers', 'learnings', 'patterns', 'progress']) {
  sh(repo, env, 'git', ['mem', 'capture', ns, `A ${ns} memory about the upload retry path`, '-m', 'body']);
}
sh(repo, env, 'git', ['mem', 'list', '--limit', '1']); // warm the index
console.log(`hooks benchmark: 10,000+ memories, ${RUNS} runs each\n`);

const file = path.join(repo, 'f7.txt');
const base = { session_id: 'bench', transcript_path: path.join(root, 'none.jsonl'), cwd: repo, permission_mode: 'default' };
function hook(event, payload) {
  const r = spawnSync(BIN, ['hook', event], { cwd: repo, env, input: JSON.stringify({ ...base, hook_event_name: event, ...payload }), encoding: 'utf8' });
  if (r.status !== 0 || r.stderr) throw new Error(`${event}: ${r.stderr}`);
  return r.stdout;
}
if (!hook('SessionStart', { source: 'startup' }).includes('memory_context')) throw new Error('no context');
if (!hook('UserPromptSubmit', { prompt: 'remind me why did we choose the index cache?' }).includes('recalled_memories')) throw new Error('no recall');

const gitVersion = timeRuns(RUNS, () => sh(repo, env, 'git', ['--version']));
const notesShow = timeRuns(RUNS, () => sh(repo, env, 'git', ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']));
// A fresh session each run: within one session a repeated event is answered once.
const sessionStart = timeRuns(RUNS, (i) => hook('SessionStart', { session_id: `start-${i}`, source: 'startup' }));
const promptPlain = timeRuns(RUNS, () => hook('UserPromptSubmit', { prompt: 'Write a factorial function in TypeScript with tests' }));
const promptRecall = timeRuns(RUNS, (i) => hook('UserPromptSubmit', { session_id: `recall-${i}`, prompt: 'remind me why did we choose the index cache?' }));
const postTool = timeRuns(RUNS, (i) => hook('PostToolUse', { session_id: `bench-${i}`, tool_name: 'Read', tool_input: { file_path: file }, tool_response: { type: 'text' }, tool_use_id: 't' }));
// An Edit of the file's first line: PreToolUse blames that line and looks up its commit's memories too.
const firstLine = fs.readFileSync(file, 'utf8').split('\n')[0];
const preEdit = timeRuns(RUNS, (i) => hook('PreToolUse', { session_id: `pre-${i}`, tool_name: 'Edit', tool_input: { file_path: file, old_string: firstLine, new_string: 'x' }, tool_use_id: `t${i}` }));
const preRead = timeRuns(RUNS, (i) => hook('PreToolUse', { session_id: `pre-read-${i}`, tool_name: 'Read', tool_input: { file_path: file }, tool_use_id: `r${i}` }));
const subagent = timeRuns(RUNS, (i) => hook('SubagentStart', { session_id: `sub-${i}`, agent_id: `agent-${i}`, agent_type: 'Explore' }));
const stop = timeRuns(RUNS, () => hook('Stop', { stop_hook_active: false, last_assistant_message: 'Done. The tests pass now.' }));

// After a capture. A Stop that captures starts a detached index update; the next prompt comes a
// moment later (1.5 s here). Contrast: a capture by the CLI, which starts none, so the next hook
// catches the index up itself.
const CAPTURE_RUNS = Math.min(RUNS, 9);
const pause = () => spawnSync('sleep', ['1.5']);
const stopCapture = [];
const afterStop = [];
const afterCli = [];
for (let i = 0; i < CAPTURE_RUNS; i++) {
  let t = performance.now();
  if (!hook('Stop', { session_id: `cap-${i}`, last_assistant_message: `[decision] Pin the zeta${i} toolchain for quokka builds` }).includes('captured')) throw new Error('no capture');
  stopCapture.push(performance.now() - t);
  pause();
  t = performance.now();
  hook('UserPromptSubmit', { session_id: `after-stop-${i}`, prompt: 'remind me why did we choose the index cache?' });
  afterStop.push(performance.now() - t);
  sh(repo, env, BIN, ['capture', 'decisions', `CLI bench capture number ${i}`]);
  pause();
  t = performance.now();
  hook('UserPromptSubmit', { session_id: `after-cli-${i}`, prompt: 'remind me why did we choose the index cache?' });
  afterCli.push(performance.now() - t);
}
const med = (xs) => {
  const sorted = [...xs].sort((x, y) => x - y);
  return { median: sorted[sorted.length >> 1], p95: sorted.at(-1), runs: xs.length };
};

const b = (name, t) => ({ name, ...t });
const ok = report([
  b('git --version', gitVersion),
  b('git notes show (one note)', notesShow),
  { ...b('hook SessionStart', sessionStart), target: 80, baseline: b('git notes show', notesShow) },
  { ...b('hook UserPromptSubmit (no signal)', promptPlain), target: 40, baseline: b('git --version', gitVersion) },
  { ...b('hook UserPromptSubmit (recall)', promptRecall), target: 100, baseline: b('git notes show', notesShow) },
  { ...b('hook PostToolUse (Read)', postTool), target: 60, baseline: b('git notes show', notesShow) },
  { ...b('hook PreToolUse (Edit, lines blamed)', preEdit), target: 60, baseline: b('git notes show', notesShow) },
  { ...b('hook PreToolUse (Read)', preRead), target: 60, baseline: b('git notes show', notesShow) },
  { ...b('hook SubagentStart', subagent), target: 80, baseline: b('git notes show', notesShow) },
  { ...b('hook Stop (no signal)', stop), baseline: b('git --version', gitVersion) },
  { ...b('hook Stop (captures one)', med(stopCapture)), baseline: b('git --version', gitVersion) },
  { ...b('UPS recall, 1.5 s after a CLI capture', med(afterCli)) },
  { ...b('UPS recall, 1.5 s after a Stop capture', med(afterStop)), target: 100, baseline: b('after a CLI capture', med(afterCli)) },
]);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

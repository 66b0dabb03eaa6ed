// Issue 32: every client's hooks within the Claude Code budgets (SessionStart <= 80 ms,
// UserPromptSubmit with no signal <= 40 ms at 10,000 memories, whole process), each measured
// beside the Claude Code path in the same run: `git-mem hook <Event>` as Claude Code calls it,
// `git-mem hook --agent copilot|codex <Event>` with that client's input.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, benchRepo, report, sh } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 21);
const { root, env, repo } = benchRepo('agents');
sh(repo, env, 'git', ['mem', 'list', '--limit', '1']); // warm the index
console.log(`agent hooks benchmark: 10,000+ memories, ${RUNS} runs each\n`);

const none = path.join(root, 'none.jsonl');
const file = path.join(repo, 'f7.txt');
const firstLine = fs.readFileSync(file, 'utf8').split('\n')[0];

/** Each client's call of an event: its argv and its input. */
const CLIENTS = {
  ...(process.env.BENCH_BASE_BIN
    ? {
        // Claude Code's path through another build (BENCH_BASE_BIN, e.g. the commit before the agent seams).
        'claude, base build': {
          bin: process.env.BENCH_BASE_BIN,
          args: (e) => ['hook', e],
          env: {},
          start: (s) => ({ session_id: s, transcript_path: none, cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }),
          prompt: (s, prompt) => ({ session_id: s, transcript_path: none, cwd: repo, hook_event_name: 'UserPromptSubmit', prompt }),
          edit: (s, i) => ({ session_id: s, transcript_path: none, cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: file, old_string: firstLine, new_string: 'x' }, tool_use_id: `t${i}` }),
        },
      }
    : {}),
  claude: {
    args: (e) => ['hook', e],
    env: {},
    start: (s) => ({ session_id: s, transcript_path: none, cwd: repo, hook_event_name: 'SessionStart', source: 'startup' }),
    prompt: (s, prompt) => ({ session_id: s, transcript_path: none, cwd: repo, hook_event_name: 'UserPromptSubmit', prompt }),
    edit: (s, i) => ({ session_id: s, transcript_path: none, cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { file_path: file, old_string: firstLine, new_string: 'x' }, tool_use_id: `t${i}` }),
  },
  copilot: {
    args: (e) => ['hook', '--agent', 'copilot', e],
    env: { COPILOT_CLI: '1' },
    // What Copilot sends its PascalCase hooks (Claude-style fields, its own tool names and arguments).
    start: (s) => ({ session_id: s, cwd: repo, hook_event_name: 'SessionStart', source: 'new' }),
    prompt: (s, prompt) => ({ session_id: s, cwd: repo, hook_event_name: 'UserPromptSubmit', prompt }),
    edit: (s) => ({ session_id: s, cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'Edit', tool_input: { path: file, old_str: firstLine, new_str: 'x' } }),
  },
  codex: {
    args: (e) => ['hook', '--agent', 'codex', e],
    env: {},
    start: (s) => ({ session_id: s, transcript_path: none, cwd: repo, hook_event_name: 'SessionStart', model: 'gpt-5.5', source: 'startup' }),
    prompt: (s, prompt) => ({ session_id: s, turn_id: `${s}-t`, transcript_path: none, cwd: repo, hook_event_name: 'UserPromptSubmit', prompt }),
    edit: (s, i) => ({ session_id: s, turn_id: `${s}-t`, transcript_path: none, cwd: repo, hook_event_name: 'PreToolUse', tool_name: 'apply_patch', tool_input: { command: `*** Begin Patch\n*** Update File: f7.txt\n@@\n-${firstLine}\n+x\n*** End Patch` }, tool_use_id: `t${i}` }),
  },
};

function hook(client, event, input) {
  const c = CLIENTS[client];
  const r = spawnSync(c.bin ?? BIN, c.args(event), { cwd: repo, env: { ...env, ...c.env }, input: JSON.stringify(input), encoding: 'utf8' });
  if (r.status !== 0 || r.stderr) throw new Error(`${client} ${event}: ${r.stderr}`);
  return r.stdout;
}

const plain = 'Write a factorial function in TypeScript with tests';
for (const client of Object.keys(CLIENTS)) {
  const c = CLIENTS[client];
  // Each answers as its client reads it.
  if (!hook(client, 'SessionStart', c.start(`check-${client}`)).includes('memory_context')) throw new Error(`${client}: no context`);
  if (!hook(client, 'PreToolUse', c.edit(`check-edit-${client}`, 0)).includes('related_memories')) throw new Error(`${client}: no file context`);
}
// Interleaved, client after client within each run, so a busy moment of the machine falls on all of them alike.
const times = Object.fromEntries(Object.keys(CLIENTS).map((client) => [client, { start: [], prompt: [], edit: [] }]));
const time = (list, fn) => {
  const t0 = performance.now();
  fn();
  list.push(performance.now() - t0);
};
for (let i = 0; i < RUNS; i++) {
  for (const [client, c] of Object.entries(CLIENTS)) {
    time(times[client].start, () => hook(client, 'SessionStart', c.start(`start-${client}-${i}`)));
    time(times[client].prompt, () => hook(client, 'UserPromptSubmit', c.prompt(`plain-${client}-${i}`, plain)));
    time(times[client].edit, () => hook(client, 'PreToolUse', c.edit(`edit-${client}-${i}`, i)));
  }
}
const stats = (xs) => {
  const sorted = [...xs].sort((x, y) => x - y);
  return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))], runs: xs.length };
};
const rows = Object.entries(times).map(([client, t]) => ({ client, start: stats(t.start), prompt: stats(t.prompt), edit: stats(t.edit) }));
const claude = rows.find((r) => r.client === 'claude');
const ok = report(
  rows.flatMap((r) => [
    { name: `${r.client} SessionStart`, ...r.start, target: 80, ...(r.client === 'claude' ? {} : { baseline: { name: 'claude', ...claude.start } }) },
    { name: `${r.client} UserPromptSubmit (no signal)`, ...r.prompt, target: 40, ...(r.client === 'claude' ? {} : { baseline: { name: 'claude', ...claude.prompt } }) },
    { name: `${r.client} PreToolUse (edit, lines blamed)`, ...r.edit, target: 60, ...(r.client === 'claude' ? {} : { baseline: { name: 'claude', ...claude.edit } }) },
  ]),
);
fs.rmSync(root, { recursive: true, force: true });
process.exitCode = ok ? 0 : 1;

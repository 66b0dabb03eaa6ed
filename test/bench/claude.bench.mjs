// What git-mem's hooks add to a Claude Code turn, measured with the real client
// (`claude -p`, the pinned dev dependency) against the fake model API on loopback.
//
// Every hook command in .claude/settings.json is wrapped in a timing shim that
// logs the hook's wall time (process start to exit, as the client waits for it)
// per event. Beside it: the client's own durationMs for the hooks it reports in
// the transcript, and the whole `claude -p` wall time with and without the hooks.
//
//   npm run bench:claude            (bun runs it: it imports the TypeScript fake API)
//   BENCH_RUNS=10 BENCH_MEMORIES=1000 npm run bench:claude
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { claudeBin } from '../e2e/claude/client.ts';
import { FakeAnthropic, edit, read, text } from '../e2e/claude/fake-api.ts';
import { BIN, benchEnv, makeMemoryRepo, sh, tmpRoot } from './lib.mjs';

if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const CLAUDE = claudeBin();
if (!fs.existsSync(CLAUDE)) throw new Error(`no Claude Code at ${CLAUDE}; run npm ci`);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const MEMORIES = Number(process.env.BENCH_MEMORIES ?? 10_000);

const root = tmpRoot('claude');
const env = benchEnv(root);
const api = await new FakeAnthropic().start();
const timingLog = path.join(root, 'hook-times.log');
const claudeEnv = {
  ...env,
  ANTHROPIC_BASE_URL: api.url,
  ANTHROPIC_API_KEY: 'test',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  GIT_MEM_HOOK_TIMING: timingLog,
};

// The shim: runs the hook command unchanged (stdin, stdout, exit code pass through) and logs "<event> <µs>".
const shim = path.join(root, 'time-hook.sh');
fs.writeFileSync(
  shim,
  '#!/bin/sh\nevent=$1; shift\nstart=$(date +%s%N)\n"$@"\nrc=$?\nend=$(date +%s%N)\nprintf \'%s %s\\n\' "$event" $(( (end - start) / 1000 )) >> "$GIT_MEM_HOOK_TIMING"\nexit $rc\n',
);
fs.chmodSync(shim, 0o755);

/** A repository with MEMORIES memories, a few that the session's file and prompt match, and git-mem's hooks (shimmed or not). */
function makeRepo(name, hooks) {
  const repo = path.join(root, name);
  makeMemoryRepo(repo, env, { commits: MEMORIES });
  fs.mkdirSync(path.join(repo, 'src'));
  fs.writeFileSync(path.join(repo, 'src', 'upload_retry.ts'), 'export const retries = 3;\n');
  sh(repo, env, 'git', ['add', '.']);
  sh(repo, env, 'git', ['commit', '-qm', 'Add upload retry']);
  sh(repo, env, 'git', ['mem', 'capture', 'learnings', 'S3 returns 503 under load; back off before retrying']);
  sh(repo, env, 'git', ['mem', 'capture', 'decisions', 'Chose an index cache in the git common dir', '-m', 'Shared by worktrees.']);
  sh(repo, env, 'git', ['mem', 'capture', 'blockers', 'Upload tests need a fake S3']);
  sh(repo, env, 'git', ['mem', 'list', '--limit', '1']); // build the index before the first session
  if (hooks) {
    sh(repo, env, 'git', ['mem', 'init', '--claude']);
    const file = path.join(repo, '.claude', 'settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const [event, groups] of Object.entries(settings.hooks)) {
      for (const group of groups) for (const h of group.hooks) h.command = `${shim} ${event} ${h.command}`;
    }
    fs.writeFileSync(file, JSON.stringify(settings, null, 2));
  }
  return repo;
}

function claude(repo, prompt, resume) {
  const args = ['-p', '--output-format', 'json', '--allowedTools', 'Read,Edit', ...(resume ? ['--resume', resume] : []), '--', prompt];
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(CLAUDE, args, { cwd: repo, env: claudeEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      try {
        const json = JSON.parse(out.trim().split('\n').at(-1));
        if (code !== 0 || json.is_error) throw new Error(json.result);
        resolve({ ms, json });
      } catch (e) {
        reject(new Error(`claude ${args.join(' ')} exited ${code}: ${e.message}\n${err}`));
      }
    });
  });
}

function readTimings() {
  const lines = fs.existsSync(timingLog) ? fs.readFileSync(timingLog, 'utf8').trim().split('\n').filter(Boolean) : [];
  fs.rmSync(timingLog, { force: true });
  return lines.map((l) => {
    const [event, us] = l.split(' ');
    return { event, ms: Number(us) / 1000 };
  });
}

/** The client's own durations for hooks of a session, from its transcript. */
function clientTimings(sessionId) {
  const projects = path.join(env.HOME, '.claude', 'projects');
  const dir = fs.readdirSync(projects).find((d) => fs.existsSync(path.join(projects, d, `${sessionId}.jsonl`)));
  const out = [];
  for (const line of fs.readFileSync(path.join(projects, dir, `${sessionId}.jsonl`), 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const e = JSON.parse(line);
    if (e.type === 'attachment' && e.attachment?.type === 'hook_success') out.push({ event: e.attachment.hookName, ms: e.attachment.durationMs });
    if (e.type === 'system' && e.subtype === 'stop_hook_summary') for (const h of e.hookInfos) out.push({ event: 'Stop', ms: h.durationMs });
  }
  return out;
}

const DECISIONS = [
  'Raise the upload retry ceiling for large files',
  'Back off exponentially with full jitter',
  'Keep retry state in memory, never on disk',
  'Log every throttled request at debug level',
  'Abort multipart uploads after three failures',
  'Use the SDK default timeout for small objects',
  'Share one HTTP agent across all upload workers',
  'Measure throughput per bucket, not per process',
  'Prefer idempotent PUT over POST for chunks',
  'Cap parallel part uploads at eight',
  'Checksum every part before sending it',
  'Surface quota errors to the user at once',
];

const TURNS = [
  {
    name: 'turn: recall prompt, Read + Edit, capture block',
    prompt: 'Remind me why did we choose the index cache, then raise the upload retries',
    script: (repo) => {
      const file = path.join(repo, 'src', 'upload_retry.ts');
      const now = fs.readFileSync(file, 'utf8').match(/retries = (\d+)/)[1];
      const n = Number(now) + 1;
      // A different decision each session, so that Stop captures every time (similar summaries are deduplicated).
      return [[read(file)], [text('Raising it.'), edit(file, `retries = ${now}`, `retries = ${n}`)], `Done.\n\n▶ decisions ─── ${DECISIONS[n % DECISIONS.length]}\nS3 throttles under load.\n───`];
    },
  },
  { name: 'turn (--resume): plain prompt, plain reply', prompt: 'Thanks, anything else?', resume: true, script: () => ['Nothing else for now.'] },
  { name: '/compact (--resume)', prompt: '/compact', resume: true, script: () => [] },
];

const repos = { hooks: makeRepo('with-hooks', true), bare: makeRepo('without-hooks', false) };
console.log(`Claude Code hooks benchmark: ${MEMORIES.toLocaleString('en')}+ memories, ${RUNS} sessions of ${TURNS.length} runs each, with and without git-mem's hooks\n`);

const perEvent = new Map(); // event -> ms[] (shim)
const perTurnEvent = new Map(); // `${turn}\0${event}` -> ms[] (shim)
const perEventClient = new Map(); // hookName -> ms[] (client)
const perTurn = TURNS.map(() => ({ hooks: [], withHooks: [], without: [], apiWith: [], apiWithout: [] }));
const push = (map, key, v) => map.set(key, [...(map.get(key) ?? []), v]);

// One warm-up session each, not counted (page cache, first index open).
for (let run = -1; run < RUNS; run++) {
  for (const [kind, repo] of Object.entries(repos)) {
    let session;
    for (const [i, turn] of TURNS.entries()) {
      api.script(...turn.script(repo));
      readTimings();
      const r = await claude(repo, turn.prompt, turn.resume ? session : undefined);
      session = r.json.session_id;
      const times = readTimings();
      if (api.pending) throw new Error(`${turn.name}: ${api.pending} scripted replies left`);
      if (run < 0) continue;
      if (kind === 'hooks') {
        for (const t of times) push(perEvent, t.event, t.ms);
        for (const t of times) push(perTurnEvent, `${i}\0${t.event}`, t.ms);
        perTurn[i].hooks.push(times.reduce((a, t) => a + t.ms, 0));
        perTurn[i].withHooks.push(r.ms);
        perTurn[i].apiWith.push(r.json.duration_ms);
      } else {
        perTurn[i].without.push(r.ms);
        perTurn[i].apiWithout.push(r.json.duration_ms);
      }
    }
    if (run >= 0 && kind === 'hooks') for (const t of clientTimings(session)) push(perEventClient, t.event, t.ms);
  }
}
await api.close();

const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)] ?? NaN;
const p95 = (xs) => sorted(xs)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))] ?? NaN;
const f = (x) => (Number.isFinite(x) ? x.toFixed(1) : '-');
const pad = (s, n) => String(s).padEnd(n);

console.log('Hook wall time per event (timing shim around each hook command; ms)');
console.log(`${pad('event', 20)}${pad('count', 8)}${pad('median', 9)}${pad('p95', 9)}${pad('max', 9)}client-reported median`);
const clientFor = (event) => [...perEventClient.entries()].filter(([k]) => k === event || k.startsWith(`${event}:`)).flatMap(([, v]) => v);
for (const event of ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'PreCompact', 'SessionEnd']) {
  const xs = perEvent.get(event) ?? [];
  const client = clientFor(event);
  console.log(`${pad(event, 20)}${pad(xs.length, 8)}${pad(f(median(xs)), 9)}${pad(f(p95(xs)), 9)}${pad(f(Math.max(...xs)), 9)}${client.length ? `${f(median(client))} (n=${client.length})` : '- (not reported)'}`);
}

console.log('\nPer run of `claude -p` (medians, ms)');
console.log(`${pad('run', 48)}${pad('hooks total', 13)}${pad('wall w/ hooks', 15)}${pad('wall w/o', 10)}${pad('wall delta', 12)}duration_ms w/ / w/o`);
for (const [i, turn] of TURNS.entries()) {
  const t = perTurn[i];
  console.log(`${pad(turn.name, 48)}${pad(f(median(t.hooks)), 13)}${pad(f(median(t.withHooks)), 15)}${pad(f(median(t.without)), 10)}${pad(f(median(t.withHooks) - median(t.without)), 12)}${f(median(t.apiWith))} / ${f(median(t.apiWithout))}`);
}
console.log('\nHook wall time per run and event (medians of single hook runs, ms; xN: N runs of that event per claude run)');
for (const [i, turn] of TURNS.entries()) {
  const parts = [];
  for (const event of ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'Stop', 'PreCompact', 'SessionEnd']) {
    const xs = perTurnEvent.get(`${i}\0${event}`);
    if (!xs) continue;
    const n = xs.length / RUNS;
    parts.push(`${event}${n > 1 ? ` x${n}` : ''} ${f(median(xs))}`);
  }
  console.log(`${pad(turn.name, 48)}${parts.join(', ')}`);
}
const memCount = JSON.parse(sh(repos.hooks, env, 'git', ['mem', 'list', '--json', '--namespace', 'decisions', '--limit', '100000'])).filter((m) => m.source === 'hook:Stop').length;
console.log(`\ndecisions captured by Stop over ${RUNS + 1} sessions (warm-up included): ${memCount}`);
fs.rmSync(root, { recursive: true, force: true });

// Stop and PreCompact over a folder of real Claude Code transcripts (kept outside the repository),
// replayed as Claude Code would have run them, for one binary or two side by side. No network.
//
//   node test/bench/transcripts.bench.mjs <folder> [--bin dist/git-mem] [--against <old binary>] [--out report.json]
//
// Each transcript gets its own repository and session. Stop runs where each turn of the main thread
// ended: before every main-thread user entry that is not a tool result, a meta entry or a command's
// output, and at the end of the file, on the file as written up to there, with last_assistant_message
// the main agent's last message so far (as Claude Code sends it). PreCompact runs before every
// compaction summary and at the end. The hooks' captures are then listed (git mem list --json).
// Which entries end a turn is decided here, the same for both binaries, not by either reader.
// The report (--out) holds every capture with its transcript, hook and body, for judging by hand.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { benchEnv, tmpRoot } from './lib.mjs';
import { hookPoints } from './transcript-points.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1] : fallback;
};
const bin = path.resolve(option('--bin', path.resolve(import.meta.dirname, '../../dist/git-mem')));
const against = option('--against', '');
const out = option('--out', '');
const folder = args[0];
if (!folder || !fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) {
  console.error('usage: node test/bench/transcripts.bench.mjs <folder of .jsonl transcripts> [--bin B] [--against OLD] [--out report.json]');
  process.exit(2);
}
const binaries = against ? [['before', path.resolve(against)], ['after', bin]] : [['after', bin]];
for (const [, b] of binaries) if (!fs.existsSync(b)) throw new Error(`no binary at ${b}`);

const files = fs.readdirSync(folder).filter((f) => f.endsWith('.jsonl')).sort();

function replay(binary, file) {
  const root = tmpRoot('transcripts');
  const binDir = path.join(root, 'bin');
  fs.mkdirSync(binDir);
  fs.symlinkSync(binary, path.join(binDir, 'git-mem'));
  const env = { ...benchEnv(root), PATH: `${binDir}:${process.env.PATH}` };
  const repo = path.join(root, 'repo');
  fs.mkdirSync(repo);
  const git = (a) => spawnSync('git', a, { cwd: repo, env, encoding: 'utf8' });
  git(['init', '-q']);
  fs.writeFileSync(path.join(repo, 'README'), 'x\n');
  git(['add', '.']);
  git(['commit', '-qm', 'init']);
  const lines = fs.readFileSync(path.join(folder, file), 'utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  const { stops, compacts, lastMessage } = hookPoints(lines);
  const transcript = path.join(root, 'session.jsonl');
  fs.writeFileSync(transcript, '');
  let written = 0;
  const writeUpTo = (n) => {
    if (n > written) fs.appendFileSync(transcript, lines.slice(written, n).map((l) => `${l}\n`).join(''));
    written = n;
  };
  const result = { file, stops: 0, preCompacts: 0, maxMs: 0, failures: 0, captures: [] };
  const hook = (event, payload) => {
    const started = performance.now();
    const r = spawnSync(binary, ['hook', event], { cwd: repo, env, input: JSON.stringify({ session_id: 'replay', transcript_path: transcript, cwd: repo, hook_event_name: event, permission_mode: 'default', ...payload }), encoding: 'utf8', timeout: 30_000 });
    result.maxMs = Math.max(result.maxMs, performance.now() - started);
    if (r.status !== 0) result.failures++;
  };
  const points = [...stops.map((i) => [i, 'Stop']), ...compacts.map((i) => [i, 'PreCompact'])].sort((a, b) => a[0] - b[0] || (a[1] === 'Stop' ? -1 : 1));
  for (const [i, event] of points) {
    writeUpTo(i);
    if (event === 'Stop') {
      result.stops++;
      hook('Stop', { stop_hook_active: false, last_assistant_message: lastMessage[i] ?? '' });
    } else {
      result.preCompacts++;
      hook('PreCompact', { trigger: 'auto', custom_instructions: null });
    }
  }
  const listed = spawnSync(binary, ['list', '--json'], { cwd: repo, env, encoding: 'utf8' });
  for (const m of JSON.parse(listed.stdout || '[]')) result.captures.push({ event: (m.source ?? '').replace(/^hook:/, ''), namespace: m.namespace, summary: m.summary, body: m.body.slice(0, 600) });
  // A hook's background work may still be writing under .git/mem: retry the removal while it finishes.
  fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  return result;
}

const report = { folder: path.resolve(folder), transcripts: files.length, runs: {} };
for (const [label, binary] of binaries) {
  const results = [];
  for (const [n, file] of files.entries()) {
    process.stderr.write(`\r${label}: ${n + 1}/${files.length} ${file.slice(0, 60).padEnd(60)}`);
    results.push(replay(binary, file));
  }
  process.stderr.write('\n');
  report.runs[label] = { binary, results };
}

const sum = (rs, f) => rs.reduce((a, r) => a + f(r), 0);
console.log(`transcripts: ${files.length} in ${report.folder}\n`);
console.log('binary  stop calls  precompact calls  failures  slowest ms  captures (Stop / PreCompact)  transcripts with a capture');
for (const [label, { results }] of Object.entries(report.runs)) {
  const captures = results.flatMap((r) => r.captures);
  console.log(`${label.padEnd(8)}${String(sum(results, (r) => r.stops)).padStart(10)}${String(sum(results, (r) => r.preCompacts)).padStart(18)}${String(sum(results, (r) => r.failures)).padStart(10)}${Math.max(...results.map((r) => r.maxMs)).toFixed(0).padStart(12)}${`${captures.length} (${captures.filter((c) => c.event === 'Stop').length} / ${captures.filter((c) => c.event === 'PreCompact').length})`.padStart(30)}${String(results.filter((r) => r.captures.length).length).padStart(28)}`);
}
for (const [label, { results }] of Object.entries(report.runs)) {
  console.log(`\n${label}:`);
  for (const r of results) for (const c of r.captures) console.log(`  ${r.file.slice(0, 40).padEnd(40)} ${c.event.padEnd(10)} ${c.namespace.padEnd(10)} ${c.summary}`);
}
if (out) fs.writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);

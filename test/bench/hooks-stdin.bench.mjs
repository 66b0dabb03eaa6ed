// Issue 26 speed figures: the hook's stdin reader on PostToolUse inputs full of JSON escapes
// ("x\n" repeated: an escape every 3 bytes), at 1, 6 and 15 MB, from a file and from a pipe, each
// against a baseline measured in the same run: the same size without escapes ("xy" repeated).
// Whole process (`git-mem hook PostToolUse`). With GIT_MEM_BASELINE_BIN, the binary from before the
// change runs the escaped inputs too (once each, cut off at 30 s).
//
//   GIT_MEM_BASELINE_BIN=/path/to/git-mem-before node test/bench/hooks-stdin.bench.mjs
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, benchEnv, report, sh, timeRuns, tmpRoot } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const BASE = process.env.GIT_MEM_BASELINE_BIN;
const CUTOFF_MS = 30_000;
const root = tmpRoot('hooks-stdin');
const env = benchEnv(root);
const repo = path.join(root, 'repo');
fs.mkdirSync(repo);
sh(repo, env, 'git', ['init', '-q']);
sh(repo, env, 'git', ['commit', '-q', '--allow-empty', '-m', 'first']);
console.log(`hook stdin benchmark: PostToolUse inputs, ${RUNS} runs each${BASE ? '; the binary before the change once, cut off at 30 s' : ''}\n`);

/** A PostToolUse event of about `mb` MB whose command is `unit` repeated (3 bytes of JSON each). */
function input(mb, unit) {
  const event = { session_id: 'bench', cwd: repo, transcript_path: '', hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_use_id: 't', tool_input: { command: unit.repeat(Math.floor((mb * 1_000_000) / 3)) } };
  const file = path.join(root, `${mb}-${unit === 'xy' ? 'plain' : 'escaped'}.json`);
  fs.writeFileSync(file, JSON.stringify(event));
  return file;
}

/** One hook run's wall time (ms), stdin from the file or through a pipe; Infinity when cut off. A run that did not read its input whole fails the benchmark. */
function hookOnce(bin, file, from) {
  const t0 = performance.now();
  const stdin = from === 'file' ? fs.openSync(file, 'r') : 'pipe';
  const r = spawnSync(bin, ['hook', 'PostToolUse'], { cwd: repo, env, stdio: [stdin, 'pipe', 'pipe'], input: from === 'pipe' ? fs.readFileSync(file) : undefined, timeout: CUTOFF_MS, maxBuffer: 1 << 26 });
  const ms = performance.now() - t0;
  if (from === 'file') fs.closeSync(stdin);
  if (r.error) return Infinity;
  if (bin === BIN && r.stderr.length) throw new Error(`hook PostToolUse on ${path.basename(file)} from a ${from}: ${r.stderr}`);
  return ms;
}

const rows = [];
for (const mb of [1, 6, 15]) {
  const plain = input(mb, 'xy');
  const escaped = input(mb, 'x\n');
  for (const from of ['file', 'pipe']) {
    const without = timeRuns(RUNS, () => hookOnce(BIN, plain, from));
    const withEscapes = timeRuns(RUNS, () => hookOnce(BIN, escaped, from));
    rows.push({ name: `${mb} MB, no escapes, from a ${from} (baseline)`, ...without });
    rows.push({ name: `${mb} MB of "x\\n", from a ${from}`, ...withEscapes, target: 700, baseline: { name: 'no escapes', ...without } });
    if (BASE) {
      const t = hookOnce(BASE, escaped, from);
      const before = Number.isFinite(t) ? { name: 'no escapes', ...without } : undefined;
      rows.push({ name: `  before the change${Number.isFinite(t) ? '' : ' (cut off)'}`, median: Number.isFinite(t) ? t : CUTOFF_MS, p95: Number.isFinite(t) ? t : CUTOFF_MS, baseline: before });
    }
  }
}

const ok = report(rows);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

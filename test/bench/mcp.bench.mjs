// Issue 16 speed targets for git mem mcp at 10,000 memories: initialize answered within 60 ms of
// start, a recall within 60 ms. Baselines in the same run: `git --version` (a process start) and the
// CLI's `git mem recall` (a whole process).
import { spawn } from 'node:child_process';
import { BIN, benchRepo, report, sh, timeRuns } from './lib.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const { env, repo } = benchRepo('mcp');
console.log(`mcp benchmark: 10,000 memories, ${RUNS} runs each\n`);

function server() {
  const child = spawn(BIN, ['mcp'], { cwd: repo, env });
  let buffered = '';
  const waiting = new Map();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    buffered += chunk;
    let nl;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const reply = JSON.parse(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      waiting.get(reply.id)?.(reply);
    }
  });
  let id = 0;
  const request = (method, params) =>
    new Promise((resolve) => {
      waiting.set(++id, resolve);
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
    });
  return { request, close: () => child.kill() };
}

async function timeAsync(runs, fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[times.length >> 1], p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))] };
}

const gitVersion = timeRuns(RUNS, () => sh(repo, env, 'git', ['--version']));
const cliRecall = timeRuns(RUNS, () => sh(repo, env, BIN, ['recall', '--mode', 'lexical', 'index', 'cache']));
const init = await timeAsync(RUNS, async () => {
  const s = server();
  await s.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  s.close();
});
const s = server();
await s.request('initialize', { protocolVersion: '2025-06-18' });
await s.request('tools/call', { name: 'recall', arguments: { query: 'warm up', mode: 'lexical' } });
const recall = await timeAsync(RUNS, (i) => s.request('tools/call', { name: 'recall', arguments: { query: `index cache ${i % 3 ? 'notes' : 'merge'}`, mode: 'lexical' } }));
s.close();
const ok = report([
  { name: 'git --version (baseline)', ...gitVersion },
  { name: 'git mem recall, CLI (baseline)', ...cliRecall },
  { name: 'mcp: start to initialize reply', ...init, target: 60, baseline: { name: 'git --version', ...gitVersion } },
  { name: 'mcp: recall @10,000', ...recall, target: 60, baseline: { name: 'CLI recall', ...cliRecall } },
]);
console.log(ok ? '\nall targets met' : '\nsome targets missed');
process.exit(0);

// Issue 3: 10,000 memories import in seconds (one notes commit per namespace). Baseline: one
// `git fast-import` stream writing the same notes, measured in the same run.
import fs from 'node:fs';
import path from 'node:path';
import { BIN, benchEnv, report, sh, timeRuns, tmpRoot } from './lib.mjs';

if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const N = 10_000;
const root = tmpRoot('import');
const env = benchEnv(root);
const seed = path.join(root, 'seed');
fs.mkdirSync(seed);
sh(seed, env, 'git', ['init', '-q']);
let stream = '';
for (let i = 1; i <= N; i++) stream += `commit refs/heads/main\nmark :${i}\ncommitter B <b@example.com> ${1700000000 + i} +0000\ndata 2\nc\n${i === 1 ? '' : `from :${i - 1}\n`}`;
sh(seed, env, 'git', ['fast-import', '--quiet'], stream);
const commits = sh(seed, env, 'git', ['rev-list', 'main']).trim().split('\n');
const namespaces = ['decisions', 'learnings', 'progress'];
const jsonl = commits.map((c, i) => JSON.stringify({ namespace: namespaces[i % 3], summary: `Imported memory ${i}`, body: `Body of memory ${i}.`, tags: ['bench'], commit: c, created: '2026-01-01T00:00:00Z' })).join('\n') + '\n';
const file = path.join(root, 'mem.jsonl');
fs.writeFileSync(file, jsonl);
const fresh = (name) => {
  const dir = path.join(root, name);
  sh(root, env, 'git', ['clone', '-q', seed, dir]);
  return dir;
};
console.log(`import benchmark: ${N} memories on ${N} commits, 3 namespaces; ${RUNS} runs\n`);
const targets = Array.from({ length: RUNS }, (_, i) => fresh(`imp${i}`));
const bases = Array.from({ length: RUNS }, (_, i) => fresh(`fi${i}`));
const imp = timeRuns(RUNS, (i) => {
  const out = sh(targets[i], env, BIN, ['import', file]);
  if (!out.includes(`imported ${N} memories`)) throw new Error(out);
});
const fi = timeRuns(RUNS, (i) => {
  let s = '';
  namespaces.forEach((ns, k) => {
    s += `commit refs/notes/mem/${ns}\ncommitter B <b@example.com> 1800000000 +0000\ndata 4\nbase\n`;
    commits.forEach((c, j) => {
      if (j % 3 !== k) return;
      const body = `---\ntype: ${ns}\nsummary: Imported memory ${j}\n---\n\nBody of memory ${j}.\n`;
      s += `N inline ${c}\ndata ${Buffer.byteLength(body)}\n${body}`;
    });
  });
  sh(bases[i], env, 'git', ['fast-import', '--quiet'], s);
});
const ok = report([
  { name: 'git fast-import of the same notes (baseline)', ...fi },
  { name: `git mem import (${N})`, ...imp, target: 10_000, baseline: { name: 'fast-import', ...fi } },
]);
fs.rmSync(root, { recursive: true, force: true });
console.log(ok ? '\nall targets met' : '\nsome targets missed');

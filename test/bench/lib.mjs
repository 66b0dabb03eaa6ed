// Shared benchmark helpers: repositories filled through git fast-import, and whole-process timings.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeTestModel } from '../helpers/tiny-model.mjs';

export const BIN = process.env.GIT_MEM_BIN ?? path.resolve(import.meta.dirname, '../../dist/git-mem');

export function benchEnv(root) {
  const gitconfig = path.join(root, 'gitconfig');
  fs.writeFileSync(gitconfig, '[user]\n\tname = Bench\n\temail = bench@example.com\n[gc]\n\tauto = 0\n[init]\n\tdefaultBranch = main\n');
  const binDir = path.join(root, 'bin');
  fs.mkdirSync(binDir, { recursive: true });
  if (!fs.existsSync(path.join(binDir, 'git-mem'))) fs.symlinkSync(BIN, path.join(binDir, 'git-mem'));
  return { ...process.env, PATH: `${binDir}:${process.env.PATH}`, HOME: root, GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
}

export function tmpRoot(name) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `git-mem-bench-${name}-`));
}

/** A temporary root and environment with a repository of `commits` memories (makeMemoryRepo), its index built. */
export function benchRepo(name, { commits = 10_000 } = {}) {
  if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
  const root = tmpRoot(name);
  const env = benchEnv(root);
  const repo = path.join(root, 'repo');
  const count = makeMemoryRepo(repo, env, { commits });
  sh(repo, env, BIN, ['index']);
  return { root, env, repo, count };
}

export function sh(cwd, env, cmd, args, input) {
  const r = spawnSync(cmd, args, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const WORDS = 'index cache notes merge rebase commit branch worktree hook session token budget embedding vector lexical ranking fusion parser schema migration retry lock queue timeout network latency memory capture recall summary'.split(' ');

/** Adds `count` commits on main, each with one new memory, on top of refs/notes/mem/<ns>, via fast-import. */
export function addMemories(dir, env, { count, start, ns = 'decisions' }) {
  const chunks = [];
  for (let i = 1; i <= count; i++) {
    chunks.push(`commit refs/heads/main\nmark :${i}\ncommitter B <b@example.com> ${1750000000 + start + i} +0000\ndata 4\nnew\n`);
    if (i === 1) chunks.push('from refs/heads/main^0\n');
    chunks.push(`M 644 inline n${i % 50}.txt\ndata ${String(i).length}\n${i}\n`);
  }
  chunks.push(`commit refs/notes/mem/${ns}\ncommitter B <b@example.com> 1800000500 +0000\ndata 4\nmore\nfrom refs/notes/mem/${ns}^0\n`);
  for (let i = 1; i <= count; i++) {
    const n = start + i;
    const body = `---\nid: '${n.toString(16).padStart(16, 'a')}'\ntype: ${ns}\ntimestamp: 2026-01-01T00:00:00Z\nsummary: added memory ${n}\n---\n\nNew body ${n}.\n`;
    chunks.push(`N inline :${i}\ndata ${Buffer.byteLength(body)}\n${body}`);
  }
  sh(dir, env, 'git', ['fast-import', '--quiet'], chunks.join(''));
}

/**
 * A vocabulary of `size` pseudo-words drawn with Zipf's law (the r-th word
 * with weight 1/r), as words are in prose: a few in most memories, most in few.
 * Returns a sampler taking a random integer.
 */
export function zipfVocabulary(size) {
  const syllables = 'ka lo mi re su ta ne vo pi da fe gu ri so ba le mo ni zu te'.split(' ');
  const words = Array.from({ length: size }, (_, i) => {
    let w = '';
    for (let n = i + 1; n > 0; n = Math.floor(n / syllables.length)) w += syllables[n % syllables.length];
    return `${w}x`;
  });
  const cumulative = [];
  let total = 0;
  for (let r = 1; r <= size; r++) cumulative.push((total += 1 / r));
  const sample = (random) => {
    const x = ((random % 1_000_003) / 1_000_003) * total;
    let lo = 0;
    let hi = size - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return words[lo];
  };
  return { words, sample };
}

/**
 * A repository with `commits` commits and `perCommit` git-mem memories on each, in refs/notes/mem/<ns>, via one fast-import stream.
 * Words come from a fixed list of 30 unless `vocabulary` (zipfVocabulary) is given, which also makes bodies 40 words long.
 */
export function makeMemoryRepo(dir, env, { commits, perCommit = 1, ns = 'decisions', seed = 1, vocabulary }) {
  fs.mkdirSync(dir, { recursive: true });
  sh(dir, env, 'git', ['init', '-q']);
  let rnd = seed;
  const next = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648);
  const word = vocabulary ? () => vocabulary.sample(next()) : () => WORDS[next() % WORDS.length];
  const chunks = [];
  for (let i = 1; i <= commits; i++) {
    chunks.push(`commit refs/heads/main\nmark :${i}\ncommitter B <b@example.com> ${1700000000 + i} +0000\ndata 3\nc${i % 10}\n`);
    chunks.push(`M 644 inline f${i % 50}.txt\ndata ${String(i).length}\n${i}\n`);
  }
  chunks.push(`commit refs/notes/mem/${ns}\ncommitter B <b@example.com> 1800000000 +0000\ndata 5\nseed\n`);
  let n = 0;
  for (let i = 1; i <= commits; i++) {
    const docs = [];
    for (let j = 0; j < perCommit; j++) {
      n++;
      const ts = new Date(Date.UTC(2025, 0, 1) + n * 60000).toISOString().replace('.000', '');
      const key = (n * 2654435761 % 2 ** 32).toString(16).padStart(8, '0') + n.toString(16).padStart(8, '0');
      // With a vocabulary, bodies are as long as a typical memory's (40 words); otherwise one short sentence.
      const body = vocabulary ? `${Array.from({ length: 40 }, word).join(' ')}.` : `We chose ${word()} over ${word()} because ${word()} ${word()} ${word()} matters for ${word()}.`;
      docs.push(`---\nid: '${key}'\ntype: ${ns}\ntimestamp: ${ts}\nupdated: ${ts}\nsummary: ${word()} ${word()} ${word()} decision ${n}\ntags: [${word()}, ${word()}]\n---\n\n${body}`);
    }
    const body = docs.join('\n\n') + '\n';
    chunks.push(`N inline :${i}\ndata ${Buffer.byteLength(body)}\n${body}`);
  }
  sh(dir, env, 'git', ['fast-import', '--quiet'], chunks.join(''));
  sh(dir, env, 'git', ['reset', '-q', '--hard', 'main']);
  return n;
}

/** Median and p95 wall time (ms) of `runs` whole-process runs; `before` runs untimed before each. */
export function timeRuns(runs, fn) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn(i);
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))], runs };
}

export function report(rows) {
  const pad = (s, n) => String(s).padEnd(n);
  console.log(`${pad('measure', 44)}${pad('median ms', 11)}${pad('p95 ms', 9)}${pad('target', 9)}${pad('baseline', 30)}ratio`);
  let ok = true;
  for (const r of rows) {
    const met = r.target === undefined || r.median <= r.target;
    ok &&= met;
    const base = r.baseline ? `${r.baseline.name} ${r.baseline.median.toFixed(1)}` : '';
    // Two significant digits: a ratio of 0.004 must not print as 0.00.
    const ratio = r.baseline ? `${Number((r.median / r.baseline.median).toPrecision(2))}x` : '';
    console.log(`${pad(r.name, 44)}${pad(r.median.toFixed(1), 11)}${pad(r.p95.toFixed(1), 9)}${pad(r.target === undefined ? '-' : `<=${r.target}${met ? '' : ' MISS'}`, 9)}${pad(base, 30)}${ratio}`);
  }
  return ok;
}

/** The model the semantic benchmarks use: GIT_MEM_MODEL_PATH, else a random-weight model of all-MiniLM-L6-v2's shape (its size and graph, so the costs are the real ones) written under `root`. */
export function benchModel(root) {
  if (process.env.GIT_MEM_MODEL_PATH) return process.env.GIT_MEM_MODEL_PATH;
  const t0 = performance.now();
  const dir = writeTestModel(path.join(root, 'minilm-standin'), { kind: 'minilm' });
  console.log(`generated a random-weight MiniLM-shaped model in ${Math.round(performance.now() - t0)} ms: ${dir}`);
  return dir;
}

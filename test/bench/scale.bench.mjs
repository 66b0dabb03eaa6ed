// Issue 20: the index at scale. Whole-process medians of the compiled binary at 1,000, 10,000 and
// 100,000 memories spread over 2,000 commits (`git fast-import` for the history, `git mem import`
// for the memories), each beside the same figure of another build timed in the same run on a copy
// of the same repository (--against BIN, or --against-rev REV, which builds REV first):
//
//   node test/bench/scale.bench.mjs [--sizes 1000,10000,100000] [--runs 7] [--against BIN | --against-rev REV] [--keep]
//
// Figures: lexical recall with the index current; the first recall after one capture; the first
// recall after a pull brought 1,000 new memories (the notes ref moved from a tip to one with 1,000
// more); `list --limit 20`; a full rebuild (`git mem index --rebuild`); the cache's size against
// the note text it caches. Then each figure's growth from 10,000 to 100,000 (the number of
// memories grows 10x: none may grow faster, and those that depend on the change alone should
// barely grow).
//
// Targets: recall <= 60 ms at 10,000 and <= 100 ms at 100,000; first recall after a capture
// <= 60 / 150 ms; after a pull of 1,000 <= 400 ms at 100,000; list --limit 20 <= 80 ms at
// 100,000; rebuild of 100,000 <= 10 s; cache <= 1.5x the note text.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, benchEnv, report, sh, tmpRoot, zipfVocabulary } from './lib.mjs';

const { values: opts } = parseArgs({
  options: {
    sizes: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: process.env.BENCH_RUNS ?? '7' },
    against: { type: 'string' },
    'against-rev': { type: 'string' },
    // Leave the repositories for a closer look (the path is printed).
    keep: { type: 'boolean', default: false },
  },
});
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const RUNS = Number(opts.runs);
const COMMITS = 2000;
const PULLED = 1000;
const root = tmpRoot('scale');
process.on('exit', () => (opts.keep ? console.log(`repositories kept in ${root}`) : fs.rmSync(root, { recursive: true, force: true })));
const env = { ...benchEnv(root), GIT_MEM_RECALL_MODE: 'lexical', GIT_MEM_LIFECYCLE_CONNECT: '1' };
const vocabulary = zipfVocabulary(5000);
const query = [vocabulary.words[400], vocabulary.words[900], vocabulary.words[1500]].join(' ');

/** The other build: given, or built from a revision of this repository in a temporary worktree. */
function otherBuild() {
  if (opts.against) return { name: path.basename(path.dirname(opts.against)) || opts.against, bin: path.resolve(opts.against) };
  const rev = opts['against-rev'];
  if (!rev) return null;
  const project = path.resolve(import.meta.dirname, '../..');
  const tree = path.join(root, 'against');
  sh(project, process.env, 'git', ['worktree', 'add', '-q', '--detach', tree, rev]);
  process.on('exit', () => spawnSync('git', ['worktree', 'remove', '--force', tree], { cwd: project }));
  fs.symlinkSync(path.join(project, 'node_modules'), path.join(tree, 'node_modules'));
  const bin = path.join(tree, 'dist', 'git-mem');
  sh(tree, process.env, 'npx', ['bun', 'build', 'src/main.ts', '--compile', '--bytecode', '--format=esm', '--minify', '--splitting', '--outfile', bin]);
  return { name: sh(project, process.env, 'git', ['rev-parse', '--short', rev]).trim(), bin };
}

/** A repository of COMMITS commits (fast-import), and `count` memories spread over them (git mem import). */
function makeRepo(dir, count, { extra = 0 } = {}) {
  fs.mkdirSync(dir, { recursive: true });
  sh(dir, env, 'git', ['init', '-q']);
  const chunks = [];
  for (let i = 1; i <= COMMITS; i++) {
    chunks.push(`commit refs/heads/main\nmark :${i}\ncommitter B <b@example.com> ${1700000000 + i} +0000\ndata 3\nc${i % 10}\n`);
    chunks.push(`M 644 inline f${i % 50}.txt\ndata ${String(i).length}\n${i}\n`);
  }
  sh(dir, env, 'git', ['fast-import', '--quiet'], chunks.join(''));
  sh(dir, env, 'git', ['reset', '-q', '--hard', 'main']);
  const commits = sh(dir, env, 'git', ['rev-list', 'main']).trim().split('\n');
  const file = (from, to) => {
    let rnd = from + 1;
    const next = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648);
    const word = () => vocabulary.sample(next());
    const lines = [];
    for (let n = from; n < to; n++) {
      const created = new Date(Date.UTC(2025, 0, 1) + n * 60000).toISOString().replace('.000', '');
      lines.push(JSON.stringify({ namespace: 'decisions', summary: `${word()} ${word()} ${word()} decision ${n}`, body: `${Array.from({ length: 40 }, word).join(' ')}.`, tags: [word(), word()], commit: commits[n % COMMITS], created }));
    }
    const f = path.join(root, `import-${from}-${to}.jsonl`);
    fs.writeFileSync(f, `${lines.join('\n')}\n`);
    return f;
  };
  sh(dir, env, BIN, ['import', file(0, count)]);
  const tipA = sh(dir, env, 'git', ['rev-parse', 'refs/notes/mem/decisions']).trim();
  let tipB = tipA;
  if (extra) {
    sh(dir, env, BIN, ['import', file(count, count + extra)]);
    tipB = sh(dir, env, 'git', ['rev-parse', 'refs/notes/mem/decisions']).trim();
    sh(dir, env, 'git', ['update-ref', 'refs/notes/mem/decisions', tipA]);
  }
  return { tipA, tipB };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const timed = (fn) => {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
};
const summary = (xs) => ({ median: median(xs), p95: Math.max(...xs), runs: xs.length });

/** Bytes of note text in the repository: every blob the notes refs hold. */
function noteTextBytes(repo) {
  const out = sh(repo, env, 'git', ['ls-tree', '-r', '-l', 'refs/notes/mem/decisions']);
  return out.split('\n').reduce((sum, line) => sum + (Number(line.split(/\s+/)[3]) || 0), 0);
}
function cacheBytes(repo) {
  const dir = path.join(repo, '.git', 'mem');
  return fs.readdirSync(dir).filter((f) => /\.(sqlite|idx|add)$/.test(f)).reduce((sum, f) => sum + fs.statSync(path.join(dir, f)).size, 0);
}

/** Every figure for one build on one repository (its notes ref at tipA, the index current). */
function measure(bin, repo, tips, size) {
  const run = (args) => sh(repo, env, bin, args);
  run(['index', '--rebuild']);
  const f = {};
  f.recall = summary(Array.from({ length: RUNS }, () => timed(() => run(['recall', query, '--limit', '10']))));
  f.list = summary(Array.from({ length: RUNS }, () => timed(() => run(['list', '--limit', '20']))));
  f.capture = summary(
    Array.from({ length: RUNS }, (_, i) => {
      run(['capture', 'decisions', `bench capture ${i} ${query}`, '-m', 'One new memory.']);
      return timed(() => run(['recall', query, '--limit', '10']));
    }),
  );
  // A pull's effect on the index: the notes ref moves to a tip with PULLED more memories (then back, untimed).
  f.pull = summary(
    Array.from({ length: Math.min(RUNS, 5) }, () => {
      sh(repo, env, 'git', ['update-ref', 'refs/notes/mem/decisions', tips.tipB]);
      const t = timed(() => run(['recall', query, '--limit', '10']));
      sh(repo, env, 'git', ['update-ref', 'refs/notes/mem/decisions', tips.tipA]);
      run(['index']);
      // The overlay of the memories just appended still extends the main file at tipA and would
      // answer the next move to tipB at once: each run starts from the main file alone.
      fs.rmSync(path.join(repo, '.git', 'mem', 'terms.add'), { force: true });
      return t;
    }),
  );
  f.rebuild = summary(Array.from({ length: size >= 100_000 ? 3 : 5 }, () => timed(() => run(['index', '--rebuild']))));
  f.cache = cacheBytes(repo);
  f.text = noteTextBytes(repo);
  return f;
}

const other = otherBuild();
const results = new Map();
for (const size of opts.sizes.split(',').map(Number)) {
  const t0 = performance.now();
  const repo = path.join(root, `repo-${size}`);
  const tips = makeRepo(repo, size, { extra: PULLED });
  const copy = `${repo}-other`;
  if (other) fs.cpSync(repo, copy, { recursive: true });
  console.log(`\n${size.toLocaleString('en')} memories on ${COMMITS} commits (set up in ${((performance.now() - t0) / 1000).toFixed(1)} s), ${RUNS} runs`);
  const mine = measure(BIN, repo, tips, size);
  const theirs = other ? measure(other.bin, copy, tips, size) : null;
  results.set(size, mine);
  const base = (key, name) => (theirs ? { baseline: { name: `${other.name} ${name}`, ...theirs[key] } } : {});
  const target = (t) => (t[size] !== undefined ? { target: t[size] } : {});
  report([
    { name: 'lexical recall', ...mine.recall, ...base('recall', 'recall'), ...target({ 10_000: 60, 100_000: 100 }) },
    { name: 'first recall after one capture', ...mine.capture, ...base('capture', 'same'), ...target({ 10_000: 60, 100_000: 150 }) },
    { name: `first recall after a pull of ${PULLED}`, ...mine.pull, ...base('pull', 'same'), ...target({ 100_000: 400 }) },
    { name: 'list --limit 20', ...mine.list, ...base('list', 'list'), ...target({ 100_000: 80 }) },
    { name: 'index --rebuild', ...mine.rebuild, ...base('rebuild', 'rebuild'), ...target({ 100_000: 10_000 }) },
  ]);
  const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  console.log(`cache ${mb(mine.cache)} for ${mb(mine.text)} of note text: ${(mine.cache / mine.text).toFixed(2)}x (target 1.5x)${theirs ? `; ${other.name}: ${mb(theirs.cache)}, ${(theirs.cache / theirs.text).toFixed(2)}x` : ''}`);
}

const [small, large] = [results.get(10_000), results.get(100_000)];
if (small && large) {
  console.log('\ngrowth from 10,000 to 100,000 memories (10x more memories):');
  for (const [key, name] of [['recall', 'lexical recall'], ['capture', 'first recall after one capture'], ['pull', `first recall after a pull of ${PULLED}`], ['list', 'list --limit 20'], ['rebuild', 'index --rebuild']]) {
    console.log(`  ${name.padEnd(40)} ${small[key].median.toFixed(1)} -> ${large[key].median.toFixed(1)} ms: ${(large[key].median / small[key].median).toFixed(2)}x`);
  }
  console.log(`  ${'cache size'.padEnd(40)} ${(large.cache / small.cache).toFixed(2)}x`);
}

// Issue 20: the index at scale. Whole-process medians of the compiled binary at 1,000, 10,000 and
// 100,000 memories spread over 2,000 commits (`git fast-import` for the history, `git mem import`
// for the memories), each beside the same figure of another build timed in the same run on a copy
// of the same repository (--against BIN, or --against-rev REV, which builds REV first):
//
//   node test/bench/scale.bench.mjs [--sizes 1000,10000,100000] [--runs 7] [--against BIN | --against-rev REV] [--keep]
//
// Figures: lexical recall with the index current; `git mem edit` itself; the first recall after
// one capture, one edit and one forget; the first recall after a pull brought 1,000 new memories
// (the notes ref moved from a tip to one with 1,000 more); `list --limit 20`; a full rebuild
// (`git mem index --rebuild`); the cache's size against the note text it caches; the peak memory
// of a recall, a listing and a rebuild (GNU time); `stats`; `git mem import` of the memories into the
// history alone; `list --limit 20` where every memory shares one creation time (issue 31). The two
// builds take turns within each run.
// Then each figure's growth from 10,000 to 100,000 (the number of memories grows 10x: none may
// grow faster, and those that depend on the change alone should barely grow).
//
// Targets: recall <= 60 ms at 10,000 and <= 100 ms at 100,000; first recall after a capture
// <= 60 / 150 ms; after a pull of 1,000 <= 400 ms at 100,000; list --limit 20 <= 80 ms at
// 100,000, whatever the creation times; rebuild of 100,000 <= 10 s; cache <= 1.5x the note text;
// stats <= 100 ms, import <= 12 s and the capture command (with links) <= 60 ms at 100,000.
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

/** A repository of COMMITS commits (fast-import) and no memories; its commits, newest first. */
function makeHistory(dir) {
  fs.mkdirSync(dir, { recursive: true });
  sh(dir, env, 'git', ['init', '-q']);
  const chunks = [];
  for (let i = 1; i <= COMMITS; i++) {
    chunks.push(`commit refs/heads/main\nmark :${i}\ncommitter B <b@example.com> ${1700000000 + i} +0000\ndata 3\nc${i % 10}\n`);
    chunks.push(`M 644 inline f${i % 50}.txt\ndata ${String(i).length}\n${i}\n`);
  }
  sh(dir, env, 'git', ['fast-import', '--quiet'], chunks.join(''));
  sh(dir, env, 'git', ['reset', '-q', '--hard', 'main']);
  return sh(dir, env, 'git', ['rev-list', 'main']).trim().split('\n');
}

/** Memories `from` to `to` as an import file, spread over `commits`; each a minute after the last, or all at `created` when given. */
function memoryFile(commits, from, to, { created: shared, name = '' } = {}) {
  let rnd = from + 1;
  const next = () => (rnd = (rnd * 1103515245 + 12345) % 2147483648);
  const word = () => vocabulary.sample(next());
  const lines = [];
  for (let n = from; n < to; n++) {
    const created = shared ?? new Date(Date.UTC(2025, 0, 1) + n * 60000).toISOString().replace('.000', '');
    lines.push(JSON.stringify({ namespace: 'decisions', summary: `${word()} ${word()} ${word()} decision ${n}`, body: `${Array.from({ length: 40 }, word).join(' ')}.`, tags: [word(), word()], commit: commits[n % COMMITS], created }));
  }
  const f = path.join(root, `import-${from}-${to}${name}.jsonl`);
  fs.writeFileSync(f, `${lines.join('\n')}\n`);
  return f;
}

/** A repository of COMMITS commits (fast-import), and `count` memories spread over them (git mem import). */
function makeRepo(dir, count, { extra = 0 } = {}) {
  const commits = makeHistory(dir);
  sh(dir, env, BIN, ['import', memoryFile(commits, 0, count)]);
  const tipA = sh(dir, env, 'git', ['rev-parse', 'refs/notes/mem/decisions']).trim();
  let tipB = tipA;
  if (extra) {
    sh(dir, env, BIN, ['import', memoryFile(commits, count, count + extra)]);
    tipB = sh(dir, env, 'git', ['rev-parse', 'refs/notes/mem/decisions']).trim();
    sh(dir, env, 'git', ['update-ref', 'refs/notes/mem/decisions', tipA]);
  }
  return { tipA, tipB };
}

/**
 * Issue 31: `git mem import` of the `size` memories into a repository with the history alone (each
 * build in turn, a fresh copy each run), then `list --limit 20` where every memory shares one
 * creation time (imported from the same lines all given one `created`).
 */
function importFigures(builds, size) {
  const seed = path.join(root, `history-${size}`);
  const commits = makeHistory(seed);
  const file = memoryFile(commits, 0, size);
  const tiedFile = memoryFile(commits, 0, size, { created: '2025-01-01T00:00:00Z', name: '-tied' });
  const copy = (name) => {
    const dir = path.join(root, name);
    fs.cpSync(seed, dir, { recursive: true });
    return dir;
  };
  const runs = size >= 100_000 ? 1 : 3;
  const times = builds.map(() => []);
  for (let i = 0; i < runs; i++) {
    builds.forEach((b, k) => {
      const dir = copy(`import-${size}-${k}-${i}`);
      times[k].push(timed(() => sh(dir, env, b.bin, ['import', file])));
      fs.rmSync(dir, { recursive: true, force: true });
    });
  }
  const tied = builds.map((b, k) => {
    const repo = copy(`tied-${size}-${k}`);
    sh(repo, env, b.bin, ['import', tiedFile]);
    sh(repo, env, b.bin, ['index']);
    return { ...b, repo };
  });
  const lists = builds.map(() => []);
  for (let i = 0; i < RUNS; i++) tied.forEach((b, k) => lists[k].push(timed(() => sh(b.repo, env, b.bin, ['list', '--limit', '20']))));
  fs.rmSync(seed, { recursive: true, force: true });
  return builds.map((_, k) => ({ import: summary(times[k]), tiedList: summary(lists[k]) }));
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

/**
 * Every figure for each build on its own copy of the repository (its notes ref
 * at tipA, the index current). The builds run in turn within each run, so a
 * slower or busier moment of the machine falls on both alike.
 */
function measure(builds, tips, size) {
  const run = (b, args) => sh(b.repo, env, b.bin, args);
  const each = (runs, step) => {
    const times = builds.map(() => []);
    for (let i = 0; i < runs; i++) builds.forEach((b, k) => times[k].push(step(b, i)));
    return times.map(summary);
  };
  const out = builds.map(() => ({}));
  const put = (key, values) => values.forEach((v, k) => (out[k][key] = v));
  for (const b of builds) run(b, ['index', '--rebuild']);
  put('recall', each(RUNS, (b) => timed(() => run(b, ['recall', query, '--limit', '10']))));
  put('list', each(RUNS, (b) => timed(() => run(b, ['list', '--limit', '20']))));
  put('stats', each(RUNS, (b) => timed(() => run(b, ['stats']))));
  // Imported memories (the copies hold the same ones; captures differ), to edit and forget below.
  const ids = JSON.parse(run(builds[0], ['list', '--limit', String(3 * RUNS + 2), '--json'])).map((m) => m.id);
  put(
    'capture',
    each(RUNS, (b, i) => {
      run(b, ['capture', 'decisions', `bench capture ${i} ${query}`, '-m', 'One new memory.']);
      return timed(() => run(b, ['recall', query, '--limit', '10']));
    }),
  );
  // The capture command itself (issue 31: <= 60 ms at 100,000, with links: its summary holds the query's words,
  // so it links to the memories that share them); the index brought up to date untimed after each.
  put(
    'captureCommand',
    each(RUNS, (b, i) => {
      const t = timed(() => run(b, ['capture', 'decisions', `bench capture command ${i} ${query}`, '-m', 'One more memory.']));
      run(b, ['index']);
      return t;
    }),
  );
  // An edit and a forget of one memory each (a different one each run, the same ones for every build).
  // The edit command itself: it finds the memory by id, then writes its note.
  put('editCommand', each(RUNS, (b, i) => timed(() => run(b, ['edit', ids[2 * RUNS + i], '--summary', `edited again ${i}`]))));
  put(
    'edit',
    each(RUNS, (b, i) => {
      run(b, ['edit', ids[i], '--summary', `edited ${i} ${query}`]);
      return timed(() => run(b, ['recall', query, '--limit', '10']));
    }),
  );
  put(
    'forget',
    each(RUNS, (b, i) => {
      run(b, ['forget', ids[RUNS + i]]);
      return timed(() => run(b, ['recall', query, '--limit', '10']));
    }),
  );
  // Back to tipA (the captures, edits and forgets dropped): each pull below then only adds memories.
  const atTipA = (b) => {
    sh(b.repo, env, 'git', ['update-ref', 'refs/notes/mem/decisions', tips.tipA]);
    run(b, ['index']);
    // An overlay of memories appended earlier would answer the next move to tipB at once: each run starts from the main file alone.
    fs.rmSync(path.join(b.repo, '.git', 'mem', 'terms.add'), { force: true });
  };
  builds.forEach(atTipA);
  // A pull's effect on the index: the notes ref moves to a tip with PULLED more memories (then back, untimed).
  put(
    'pull',
    each(Math.min(RUNS, 5), (b) => {
      sh(b.repo, env, 'git', ['update-ref', 'refs/notes/mem/decisions', tips.tipB]);
      const t = timed(() => run(b, ['recall', query, '--limit', '10']));
      atTipA(b);
      return t;
    }),
  );
  put('rebuild', each(size >= 100_000 ? 3 : 5, (b) => timed(() => run(b, ['index', '--rebuild']))));
  builds.forEach((b, k) => {
    out[k].cache = cacheBytes(b.repo);
    out[k].text = noteTextBytes(b.repo);
    out[k].memory = { recall: peakMemory(b.bin, b.repo, ['recall', query, '--limit', '10']), list: peakMemory(b.bin, b.repo, ['list', '--limit', '20']), rebuild: peakMemory(b.bin, b.repo, ['index', '--rebuild']) };
  });
  return out;
}

/** The peak resident memory of one run (MB), where GNU time is at hand; else null. */
function peakMemory(bin, repo, args) {
  if (!fs.existsSync('/usr/bin/time')) return null;
  const r = spawnSync('/usr/bin/time', ['-f', 'peak %M', bin, ...args], { cwd: repo, env, encoding: 'utf8', maxBuffer: 1 << 30 });
  const kb = Number(/peak (\d+)\s*$/.exec(r.stderr ?? '')?.[1]);
  return r.status === 0 && kb ? kb / 1024 : null;
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
  const builds = [{ bin: BIN, repo }, ...(other ? [{ bin: other.bin, repo: copy }] : [])];
  const measured = measure(builds, tips, size);
  const imports = importFigures(builds, size);
  const [mine, theirs = null] = measured.map((figures, k) => ({ ...figures, ...imports[k] }));
  results.set(size, mine);
  const base = (key, name) => (theirs ? { baseline: { name: `${other.name} ${name}`, ...theirs[key] } } : {});
  const target = (t) => (t[size] !== undefined ? { target: t[size] } : {});
  report([
    { name: 'lexical recall', ...mine.recall, ...base('recall', 'recall'), ...target({ 10_000: 60, 100_000: 100 }) },
    { name: 'first recall after one capture', ...mine.capture, ...base('capture', 'same'), ...target({ 10_000: 60, 100_000: 150 }) },
    { name: 'git mem capture (the command, with links)', ...mine.captureCommand, ...base('captureCommand', 'same'), ...target({ 100_000: 60 }) },
    { name: 'git mem edit (the command)', ...mine.editCommand, ...base('editCommand', 'same') },
    { name: 'first recall after one edit', ...mine.edit, ...base('edit', 'same') },
    { name: 'first recall after one forget', ...mine.forget, ...base('forget', 'same') },
    { name: `first recall after a pull of ${PULLED}`, ...mine.pull, ...base('pull', 'same'), ...target({ 100_000: 400 }) },
    { name: 'list --limit 20', ...mine.list, ...base('list', 'list'), ...target({ 100_000: 80 }) },
    { name: 'index --rebuild', ...mine.rebuild, ...base('rebuild', 'rebuild'), ...target({ 100_000: 10_000 }) },
    { name: 'stats', ...mine.stats, ...base('stats', 'stats'), ...target({ 100_000: 100 }) },
    { name: `import of ${size.toLocaleString('en')} (history alone)`, ...mine.import, ...base('import', 'import'), ...target({ 100_000: 12_000 }) },
    { name: 'list --limit 20, one creation time', ...mine.tiedList, ...base('tiedList', 'same'), ...target({ 100_000: 80 }) },
  ]);
  const mb = (b) => `${(b / 1024 / 1024).toFixed(1)} MB`;
  const peak = (m) => (m?.recall ? `recall ${m.recall.toFixed(0)} MB, list ${m.list.toFixed(0)} MB, rebuild ${m.rebuild.toFixed(0)} MB` : 'not measured');
  console.log(`peak memory: ${peak(mine.memory)}${theirs ? `; ${other.name}: ${peak(theirs.memory)}` : ''}`);
  console.log(`cache ${mb(mine.cache)} for ${mb(mine.text)} of note text: ${(mine.cache / mine.text).toFixed(2)}x (target 1.5x)${theirs ? `; ${other.name}: ${mb(theirs.cache)}, ${(theirs.cache / theirs.text).toFixed(2)}x` : ''}`);
}

const [small, large] = [results.get(10_000), results.get(100_000)];
if (small && large) {
  console.log('\ngrowth from 10,000 to 100,000 memories (10x more memories):');
  for (const [key, name] of [['recall', 'lexical recall'], ['capture', 'first recall after one capture'], ['captureCommand', 'git mem capture (the command)'], ['editCommand', 'git mem edit (the command)'], ['edit', 'first recall after one edit'], ['forget', 'first recall after one forget'], ['pull', `first recall after a pull of ${PULLED}`], ['list', 'list --limit 20'], ['rebuild', 'index --rebuild'], ['stats', 'stats'], ['import', 'import'], ['tiedList', 'list --limit 20, one creation time']]) {
    console.log(`  ${name.padEnd(40)} ${small[key].median.toFixed(1)} -> ${large[key].median.toFixed(1)} ms: ${(large[key].median / small[key].median).toFixed(2)}x`);
  }
  console.log(`  ${'cache size'.padEnd(40)} ${(large.cache / small.cache).toFixed(2)}x`);
}

// Issue 38: git-mem on a real repository's history. A few thousand memories made from the commit
// messages of a long history (a local clone given by GIT_MEM_HISTORY_REPO, or a synthetic history
// of the same shape: ~10,000 commits, ~3,000 files, renames, merges, tags), then, for this build
// and a baseline build in the same run, whole-process medians of:
//   a. the first `recall` after one new commit (the same question each run, and a new one),
//   b. the first `hook SessionStart` after one new commit,
//   c. the first `list`, `recall` and `hook SessionStart` after checking out an old tag,
//   d. `hook PreToolUse` of a Read: the first call of a session and the tenth (ten files),
//   e. `reanchor` with nothing to do, and with a memory left on a commit gc pruned,
// with the issue's targets (MISS when missed), and a few correctness probes (not timed).
// It fetches nothing and always exits 0: it is a report. See docs/history-benchmark.md.
//
// Run:   npm run build && node test/bench/history.bench.mjs                 (synthetic history)
//        GIT_MEM_HISTORY_REPO=/tmp/vite GIT_MEM_BASELINE_BIN=/tmp/gm-base-bin node test/bench/history.bench.mjs
// Env:   GIT_MEM_BIN (this build, default dist/git-mem), GIT_MEM_BASELINE_BIN, GIT_MEM_BENCH_RUNS (5),
//        GIT_MEM_BENCH_TIMEOUT (seconds per command, 120), GIT_MEM_HISTORY_SMALL=1 or --small
//        (~2,000 commits, ~600 memories), GIT_MEM_HISTORY_TAGS (old tags to check out, comma-separated),
//        GIT_MEM_BENCH_KEEP=1 (keep the temporary root), GIT_MEM_BENCH_ONLY (scenarios to run,
//        comma-separated: recall, sessionStart, tag, preToolUse, reanchorNothing, reanchorOrphan,
//        reanchorPruned), GIT_MEM_BENCH_CPU=1 (also the processor time of each command and its git
//        processes, through `perf stat` or else /usr/bin/time: on a loaded machine it moves less than wall time).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { BIN, tmpRoot } from './lib.mjs';
import { git, makeSyntheticHistory, memoriesFromHistory, writeJsonl } from './history-repo.mjs';

const BASELINE = process.env.GIT_MEM_BASELINE_BIN;
const SOURCE = process.env.GIT_MEM_HISTORY_REPO;
const SMALL = process.env.GIT_MEM_HISTORY_SMALL === '1' || process.argv.includes('--small');
const RUNS = Math.max(1, Number(process.env.GIT_MEM_BENCH_RUNS ?? 5));
const TIMEOUT_MS = Number(process.env.GIT_MEM_BENCH_TIMEOUT ?? 120) * 1000;
// A build whose run of a measure takes longer than this gets at most SLOW_RUNS runs of it
// (the baseline's reanchor took ~10 s a run on vite).
const SLOW_MS = 5000;
const SLOW_RUNS = 2;
const KEEP = process.env.GIT_MEM_BENCH_KEEP === '1';
const ONLY = process.env.GIT_MEM_BENCH_ONLY ? new Set(process.env.GIT_MEM_BENCH_ONLY.split(',')) : null;
// Processor time: `perf stat` (task-clock, in ms, children included) where it works, else GNU time (10 ms steps).
const CPU = process.env.GIT_MEM_BENCH_CPU === '1' ? (spawnSync('perf', ['stat', '-x,', '-e', 'task-clock', 'true']).status === 0 ? 'perf' : fs.existsSync('/usr/bin/time') ? 'time' : null) : null;

const started = performance.now();
for (const [label, bin] of [['this build', BIN], ['baseline', BASELINE]]) if (bin && !fs.existsSync(bin)) throw new Error(`no binary at ${bin} (${label}); run npm run build`);
if (SOURCE && !fs.existsSync(path.join(SOURCE, '.git')) && !fs.existsSync(path.join(SOURCE, 'HEAD'))) throw new Error(`GIT_MEM_HISTORY_REPO=${SOURCE} is not a git repository`);

/** An environment of its own per build: HOME, git config, and `git mem` on PATH meaning `bin`. */
function envFor(root, bin) {
  fs.mkdirSync(root, { recursive: true });
  const gitconfig = path.join(root, 'gitconfig');
  // Lexical recall and no model download: the benchmark fetches nothing, and a failed download
  // attempt (DNS) would be timed with the command.
  fs.writeFileSync(gitconfig, '[user]\n\tname = Bench\n\temail = bench@example.com\n[gc]\n\tauto = 0\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n[mem]\n\tmodelDownload = false\n[mem "recall"]\n\tmode = lexical\n');
  const env = { ...process.env, HOME: root, GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' };
  if (bin) {
    const binDir = path.join(root, 'bin');
    fs.mkdirSync(binDir, { recursive: true });
    fs.symlinkSync(path.resolve(bin), path.join(binDir, 'git-mem'));
    env.PATH = `${binDir}:${process.env.PATH}`;
  }
  return env;
}

// ---------------------------------------------------------------------------------------------
// The history and its memories.

const root = tmpRoot('history');
const templateEnv = envFor(path.join(root, 'template-home'));
const source = SOURCE ? path.resolve(SOURCE) : path.join(root, 'template');
let shape;
if (!SOURCE) {
  const t0 = performance.now();
  shape = makeSyntheticHistory(source, templateEnv, { commits: SMALL ? 2000 : 10_000 });
  shape.seconds = (performance.now() - t0) / 1000;
}
const branch = git(source, templateEnv, ['symbolic-ref', '--short', 'HEAD']).trim();
// Small mode on a real clone: the memories of its newest ~1,800 first-parent commits.
const memories = memoriesFromHistory(source, templateEnv, branch, { every: 3, window: SMALL && SOURCE ? 1800 : undefined });
const jsonl = writeJsonl(path.join(root, 'memories.jsonl'), memories);
const headFiles = new Set(git(source, templateEnv, ['ls-tree', '-r', '--name-only', branch]).split('\n').filter(Boolean));
const commitCount = Number(git(source, templateEnv, ['rev-list', '--count', branch]).trim());

// Files that memories are about (memories whose commit changed at most 3 files, still there at the
// tip), most memories first: the file new commits change, and the ten files PreToolUse reads.
// Changelogs, manifests and lock files are left out: every release commit touches them, and an
// agent reads source files.
const BOOKKEEPING = /(^|\/)(CHANGELOG\.md|package\.json|pnpm-lock\.yaml|package-lock\.json|yarn\.lock)$/;
const about = new Map();
for (const m of memories) {
  if (m.files.length > 3) continue;
  for (const f of m.files) if (headFiles.has(f) && !BOOKKEEPING.test(f)) about.set(f, [...(about.get(f) ?? []), m]);
}
const ranked = [...about.entries()].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
if (ranked.length < 10) throw new Error(`only ${ranked.length} files at ${branch} have memories about them; need 10`);
const hotFile = ranked[0][0];
const readFiles = ranked.slice(0, 10).map(([f]) => f);

/** A few words of a memory's summary, as someone would ask: no type prefix, no PR number. */
function queryOf(summary) {
  const words = summary.replace(/^[\w-]+(\([^)]*\))?!?:\s*/, '').replace(/\(#\d+\)/g, '').match(/[A-Za-z][A-Za-z0-9_-]{2,}/g) ?? [];
  return words.filter((w) => !/^(the|and|for|with|from|into|when|that|this)$/i.test(w)).slice(0, 4);
}
const hotMemories = about.get(hotFile);
const fixedQuery = { words: queryOf(hotMemories.at(-1).line.summary), summary: hotMemories.at(-1).line.summary };
// A new question each run: the newest memory about each of the ten files, in turn.
const newQueries = ranked.slice(0, 10).map(([, ms]) => ({ words: queryOf(ms.at(-1).line.summary), summary: ms.at(-1).line.summary })).filter((q) => q.words.length >= 2);

// Old tags: release tags (vX.Y.Z) spread evenly from 15% to 35% of the way through the history, by
// date, one for each command (list, recall, SessionStart) of each run, so that each is the first
// command at its tag (a tag visited before finds its results kept); fewer when the history has fewer.
const TAG_COMMANDS = 3;
const tags = process.env.GIT_MEM_HISTORY_TAGS
  ? process.env.GIT_MEM_HISTORY_TAGS.split(',')
  : (() => {
      const all = git(source, templateEnv, ['for-each-ref', '--sort=creatordate', '--format=%(refname:short)', 'refs/tags']).split('\n').filter((t) => /^v\d+\.\d+\.\d+$/.test(t));
      if (!all.length) throw new Error('no vX.Y.Z tags; set GIT_MEM_HISTORY_TAGS');
      const n = RUNS * TAG_COMMANDS;
      return [...new Set(Array.from({ length: n }, (_, k) => all[Math.round((0.15 + (0.2 * k) / Math.max(1, n - 1)) * (all.length - 1))]))];
    })();
/** The tag the `k`th command of run `i` checks out. */
const tagFor = (i, k) => tags[(i * TAG_COMMANDS + k) % tags.length];

console.log(`history benchmark (issue 38): ${SOURCE ? `clone of ${SOURCE}` : `synthetic history${SMALL ? ' (small)' : ''}`}, ${commitCount} commits on ${branch}, ${headFiles.size} files at its tip`);
if (shape) console.log(`  synthetic: ${shape.commits} commits (${shape.firstParent} first-parent), ${shape.merges} merges, ${shape.renames} renames, ${shape.tags} tags, ${shape.files} files; built in ${shape.seconds.toFixed(1)} s`);
console.log(`  ${memories.length} memories from every 3rd first-parent commit; new commits change ${hotFile} (${hotMemories.length} memories); ${tags.length} old tags from ${tags[0]} to ${tags.at(-1)}`);
console.log(`  ${RUNS} runs per measure, timeout ${TIMEOUT_MS / 1000} s per command${BASELINE ? `; baseline ${BASELINE}` : '; no GIT_MEM_BASELINE_BIN, this build only'}`);

// ---------------------------------------------------------------------------------------------
// One clone per build: caches in .git/mem differ between builds.

function prepare(name, bin) {
  const dir = path.join(root, name.replace(/\W+/g, '-'));
  const env = envFor(dir, bin);
  const repo = path.join(dir, 'repo');
  git(root, env, ['clone', '-q', '--shared', source, repo]);
  const b = { name, bin, env, repo, commits: 0, probes: {}, results: new Map() };
  const imp = run(b, ['import', jsonl], undefined, 600_000);
  if (imp.status !== 'ok') throw new Error(`${name}: import failed: ${imp.detail}`);
  b.imported = /imported (\d+)/.exec(imp.stdout)?.[1] ?? '?';
  b.importMs = imp.ms;
  const idx = run(b, ['index'], undefined, 600_000);
  b.indexMs = idx.ms;
  // Warm-up, untimed: each command once, as after a first session, so a run measures the
  // "first after a commit / checkout", not the first ever.
  run(b, ['recall', 'warm', 'up']);
  run(b, ['hook', 'SessionStart'], sessionStart(b, 'warm'));
  run(b, ['hook', 'PreToolUse'], preToolUse(b, 'warm', readFiles[0]));
  run(b, ['reanchor']);
  return b;
}

/**
 * Runs `bin args` in the build's clone; times the whole process (and, under GIT_MEM_BENCH_CPU, the
 * processor time of it and the git processes it waited for).
 */
function run(b, args, input, timeout = TIMEOUT_MS) {
  const cpuFile = CPU ? path.join(root, 'cpu.txt') : null;
  const [cmd, argv] = !cpuFile ? [b.bin, args] : CPU === 'perf' ? ['perf', ['stat', '-x,', '-e', 'task-clock', '-o', cpuFile, b.bin, ...args]] : ['/usr/bin/time', ['-f', '%U %S', '-o', cpuFile, b.bin, ...args]];
  const t0 = performance.now();
  const r = spawnSync(cmd, argv, { cwd: b.repo, env: b.env, input, encoding: 'utf8', timeout, maxBuffer: 1 << 30 });
  const ms = performance.now() - t0;
  if (r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGTERM') return { status: 'TIMEOUT', ms, stdout: '', detail: `over ${timeout / 1000} s` };
  if (r.error || r.status !== 0) return { status: 'FAIL', ms, stdout: r.stdout ?? '', detail: (r.stderr || String(r.error)).trim().split('\n')[0].slice(0, 160) };
  const cpu = cpuFile ? cpuOf(fs.readFileSync(cpuFile, 'utf8')) : undefined;
  return { status: 'ok', ms, cpu, stdout: r.stdout, stderr: r.stderr };
}

/** Milliseconds of processor time in what perf stat (`<ms>,msec,task-clock,...`) or GNU time (`<user s> <system s>`) wrote. */
function cpuOf(text) {
  const line = text.trim().split('\n').at(-1) ?? '';
  return CPU === 'perf' ? Number(line.split(',')[0]) : line.split(' ').reduce((a, x) => a + Number(x) * 1000, 0);
}

// A new session id each time: a session is given its context once (the same id again gets nothing).
const sessionStart = (b, session) => JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd: b.repo, hook_event_name: 'SessionStart', source: 'startup' });
const preToolUse = (b, session, file) => JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd: b.repo, hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { file_path: path.join(b.repo, file) } });

/** One new commit on the branch: a line added to a file many memories are about. */
function newCommit(b) {
  b.commits++;
  fs.appendFileSync(path.join(b.repo, hotFile), `\n// bench change ${b.commits}\n`);
  git(b.repo, b.env, ['commit', '-q', '-a', '-m', `chore: bench change ${b.commits}`]);
}

const firstLine = (r) => `${r.stdout}\n${r.stderr}`.trim().split('\n')[0];

/**
 * A memory captured on a new branch's commit, then the branch deleted: its commit is orphaned.
 * `remove` takes the memory's note away afterwards, so every run starts alike (it fails harmlessly
 * when reanchor moved the memory).
 */
function orphanMemory(b, br, summary) {
  git(b.repo, b.env, ['checkout', '-q', '-b', br]);
  newCommit(b);
  const sha = git(b.repo, b.env, ['rev-parse', 'HEAD']).trim();
  const cap = run(b, ['capture', 'learnings', summary, '-m', `Written about ${hotFile} on a branch that was deleted.`]);
  const id = cap.stdout.trim().split('\n').at(-1);
  git(b.repo, b.env, ['checkout', '-q', branch]);
  git(b.repo, b.env, ['branch', '-q', '-D', br]);
  return {
    gone: () => spawnSync('git', ['cat-file', '-e', sha], { cwd: b.repo, env: b.env }).status !== 0,
    named: (r) => {
      const out = `${r.stdout}\n${r.stderr}`;
      return Boolean((id && out.includes(id)) || out.includes(summary) || out.includes(sha.slice(0, 7)));
    },
    remove: () => git(b.repo, b.env, ['notes', '--ref', 'refs/notes/mem/learnings', 'remove', '--ignore-missing', sha], { allowFail: true }),
  };
}

// ---------------------------------------------------------------------------------------------
// The measures. Each scenario's run(b, i) does its untimed setup, then times its command(s),
// returning { row: result }.

const ROWS = [
  ['recall', 'first recall after a commit', 150],
  ['recallNew', 'first recall, new question, after a commit', 150],
  ['sessionStart', 'first SessionStart after a commit', 150],
  ['listTag', 'first list after checkout of an old tag', 300],
  ['recallTag', 'first recall after checkout of an old tag', 300],
  ['sessionStartTag', 'first SessionStart after checkout of an old tag', 300],
  ['preFirst', 'PreToolUse Read, first call of a session', 100],
  ['preTenth', 'PreToolUse Read, tenth call', 100],
  ['reanchorNothing', 'reanchor, nothing to do (after a commit)', 100],
  ['reanchorOrphan', 'reanchor, memory on an orphaned commit', undefined],
  ['reanchorPruned', 'reanchor, memory on a pruned commit', 500],
];

const injected = (stdout) => (stdout.match(/<memory id=/g) ?? []).length;

const SCENARIOS = [
  {
    name: 'recall',
    rows: ['recall', 'recallNew'],
    run(b, i) {
      newCommit(b);
      const r = run(b, ['recall', ...fixedQuery.words]);
      if (r.status === 'ok') (b.probes.recallHit ??= []).push(r.stdout.includes(fixedQuery.summary.slice(0, 40)));
      newCommit(b);
      const q = newQueries[i % newQueries.length];
      const r2 = run(b, ['recall', ...q.words]);
      if (r2.status === 'ok') (b.probes.recallNewHit ??= []).push(r2.stdout.includes(q.summary.slice(0, 40)));
      return { recall: r, recallNew: r2 };
    },
  },
  {
    name: 'sessionStart',
    rows: ['sessionStart'],
    run(b, i) {
      newCommit(b);
      const r = run(b, ['hook', 'SessionStart'], sessionStart(b, `b${i}`));
      if (r.status === 'ok') (b.probes.sessionStartInjected ??= []).push(injected(r.stdout));
      return { sessionStart: r };
    },
  },
  {
    // The issue's measure is the first recall and SessionStart after the checkout; `list` shows
    // every memory, so it measures staleness at the tag for all of them. Each is the first command
    // after its own checkout, at a tag of its own (back to the branch between them).
    name: 'tag',
    rows: ['listTag', 'recallTag', 'sessionStartTag'],
    run(b, i) {
      const at = (k, fn) => {
        git(b.repo, b.env, ['checkout', '-q', '--detach', tagFor(i, k)]);
        try {
          return fn();
        } finally {
          git(b.repo, b.env, ['checkout', '-q', branch]);
        }
      };
      const q = newQueries[(i + 5) % newQueries.length];
      return {
        listTag: at(0, () => run(b, ['list'])),
        recallTag: at(1, () => run(b, ['recall', ...q.words])),
        sessionStartTag: at(2, () => run(b, ['hook', 'SessionStart'], sessionStart(b, `t${i}`))),
      };
    },
  },
  {
    name: 'preToolUse',
    rows: ['preFirst', 'preTenth'],
    run(b, i) {
      // Ten different files with memories, in one new session; the first and the tenth are timed.
      const session = `s${i}`;
      const first = run(b, ['hook', 'PreToolUse'], preToolUse(b, session, readFiles[0]));
      for (let k = 1; k < 9; k++) run(b, ['hook', 'PreToolUse'], preToolUse(b, session, readFiles[k]));
      const tenth = run(b, ['hook', 'PreToolUse'], preToolUse(b, session, readFiles[9]));
      if (first.status === 'ok') (b.probes.preFirstInjected ??= []).push(injected(first.stdout));
      if (tenth.status === 'ok') (b.probes.preTenthInjected ??= []).push(injected(tenth.stdout));
      return { preFirst: first, preTenth: tenth };
    },
  },
  {
    name: 'reanchorNothing',
    rows: ['reanchorNothing'],
    run(b) {
      newCommit(b);
      return { reanchorNothing: run(b, ['reanchor']) };
    },
  },
  {
    // Not in the issue: the commit is orphaned (its branch deleted) but still there, as before gc
    // runs; reanchor should list the memory as unmatched (its change is on no live commit).
    name: 'reanchorOrphan',
    rows: ['reanchorOrphan'],
    run(b, i) {
      const m = orphanMemory(b, `bench-orphan-${i}`, `Bench memory on an orphaned commit, run ${i}`);
      const r = run(b, ['reanchor']);
      if (r.status === 'ok') (b.probes.orphan ??= []).push({ gone: m.gone(), named: m.named(r), out: firstLine(r) });
      m.remove();
      return { reanchorOrphan: r };
    },
  },
  {
    name: 'reanchorPruned',
    rows: ['reanchorPruned'],
    run(b, i) {
      const m = orphanMemory(b, `bench-pruned-${i}`, `Bench memory on a pruned commit, run ${i}`);
      git(b.repo, b.env, ['reflog', 'expire', '--expire=now', '--all']);
      git(b.repo, b.env, ['gc', '--prune=now', '-q']);
      const r = run(b, ['reanchor']);
      if (r.status === 'ok') (b.probes.pruned ??= []).push({ gone: m.gone(), named: m.named(r), out: firstLine(r) });
      m.remove();
      return { reanchorPruned: r };
    },
  },
];

// ---------------------------------------------------------------------------------------------

const builds = [prepare('this build', BIN)];
if (BASELINE) builds.push(prepare('baseline', BASELINE));
for (const b of builds) console.log(`  ${b.name}: imported ${b.imported} memories in ${(b.importMs / 1000).toFixed(1)} s, index ${(b.indexMs / 1000).toFixed(1)} s`);

// Builds in turns within each run, so a busy moment of the machine costs both alike.
for (const sc of SCENARIOS) {
  if (ONLY && !ONLY.has(sc.name)) continue;
  const done = new Map(builds.map((b) => [b, { runs: 0, limit: RUNS, stopped: false }]));
  for (let i = 0; i < RUNS; i++) {
    for (const b of builds) {
      const d = done.get(b);
      if (d.stopped || d.runs >= d.limit) continue;
      const out = sc.run(b, i);
      d.runs++;
      for (const [row, r] of Object.entries(out)) {
        const acc = b.results.get(row) ?? { times: [], cpus: [], failures: [] };
        b.results.set(row, acc);
        if (r.status === 'ok') acc.times.push(r.ms);
        if (r.cpu !== undefined) acc.cpus.push(r.cpu);
        else acc.failures.push(`${r.status}${r.detail ? ` (${r.detail})` : ''}`);
        if (r.status !== 'ok') d.stopped = true; // a timeout or a failure is not retried
        if (r.ms > SLOW_MS) d.limit = Math.min(d.limit, SLOW_RUNS);
      }
    }
  }
  // Progress on stderr: a slow build can take minutes on one measure.
  const line = builds.map((b) => `${b.name}: ${sc.rows.map((k) => {
    const a = b.results.get(k);
    return `${k} ${a ? a.times.map((t) => t.toFixed(0)).join('/') + (a.failures.length ? ` ${a.failures[0].split(' ')[0]}` : '') : '-'}`;
  }).join(', ')}`);
  process.stderr.write(`  [${((performance.now() - started) / 1000).toFixed(0)} s] ${line.join('; ')}\n`);
}

// ---------------------------------------------------------------------------------------------
// The table.

const median = (xs) => {
  const s = [...xs].sort((a, c) => a - c);
  return s.length ? (s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2) : undefined;
};
const pad = (s, n) => String(s).padEnd(n);
const cell = (acc) => {
  if (!acc) return { text: '-', ms: undefined };
  const m = median(acc.times);
  if (m === undefined) return { text: acc.failures[0]?.split(' ')[0] ?? '-', ms: undefined };
  const note = acc.failures.length ? ` +${acc.failures[0].split(' ')[0]}` : acc.times.length < RUNS ? ` (${acc.times.length} run${acc.times.length > 1 ? 's' : ''})` : '';
  return { text: `${m.toFixed(1)}${note}`, ms: m };
};
console.log(`\n${pad('measure (median ms)', 46)}${pad('target', 8)}${pad('this build', 22)}${pad('baseline', 22)}ratio${CPU ? '    cpu: this build  baseline  ratio' : ''}`);
let missed = 0;
for (const [key, label, target] of ROWS) {
  if (!builds[0].results.has(key)) continue; // a scenario left out (GIT_MEM_BENCH_ONLY)
  const mine = cell(builds[0].results.get(key));
  const base = builds[1] ? cell(builds[1].results.get(key)) : undefined;
  const met = target === undefined || (mine.ms !== undefined && mine.ms <= target);
  if (!met) missed++;
  const ratio = base?.ms && mine.ms !== undefined ? `${Number((mine.ms / base.ms).toPrecision(2))}x` : '';
  let cpu = '';
  if (CPU) {
    const [c0, c1] = builds.map((b) => median(b.results.get(key)?.cpus ?? []));
    cpu = `${pad('', 4)}${pad(c0?.toFixed(0) ?? '-', 12)}${pad(c1?.toFixed(0) ?? '', 10)}${c0 && c1 ? `${Number((c0 / c1).toPrecision(2))}x` : ''}`;
  }
  console.log(`${pad(label, 46)}${pad(target === undefined ? '-' : `<=${target}`, 8)}${pad(`${mine.text}${met ? '' : ' MISS'}`, 22)}${pad(base?.text ?? '', 22)}${pad(ratio, 5)}${cpu}`);
}
for (const b of builds) for (const [key, acc] of b.results) for (const f of new Set(acc.failures)) console.log(`  ${b.name}, ${key}: ${f}`);

// ---------------------------------------------------------------------------------------------
// Correctness probes, not timed.

console.log('\ncorrectness probes');
const frac = (xs, ok = Boolean) => (xs?.length ? `${xs.filter(ok).length}/${xs.length}` : 'n/a');
const tipFiles = headFiles;
for (const b of builds) {
  const p = b.probes;
  console.log(`  ${b.name}:`);
  console.log(`    recall lists the memory its words came from: same question ${frac(p.recallHit)}, new questions ${frac(p.recallNewHit)}`);
  console.log(`    memories injected: SessionStart ${p.sessionStartInjected?.join(',') ?? 'n/a'}; PreToolUse first call ${p.preFirstInjected?.join(',') ?? 'n/a'}, tenth ${p.preTenthInjected?.join(',') ?? 'n/a'}`);
  for (const [what, xs] of [['an orphaned commit (no gc)', p.orphan], ['a pruned commit', p.pruned]]) {
    console.log(`    reanchor names the memory on ${what} (commit gone: ${frac(xs, (x) => x.gone)}): ${frac(xs, (x) => x.named)}${xs?.[0] ? `; it said "${xs[0].out}"` : ''}`);
  }

  // Staleness at the oldest tag used: memories on commits after the tag are about files that may
  // not exist there yet; none of those files should be reported deleted while it exists at the tip.
  const tag = tags[0];
  git(b.repo, b.env, ['checkout', '-q', '--detach', tag]);
  const r = run(b, ['list', '--json']);
  git(b.repo, b.env, ['checkout', '-q', branch]);
  if (r.status !== 'ok') {
    console.log(`    list --json at ${tag}: ${r.status} (${r.detail})`);
    continue;
  }
  const listed = JSON.parse(r.stdout);
  const before = new Set(git(b.repo, b.env, ['rev-list', tag]).split('\n').filter(Boolean));
  const after = listed.filter((m) => !before.has(m.commit));
  const stale = after.filter((m) => m.stale);
  const deleted = after.filter((m) => m.stale?.deleted?.length);
  const wrongly = deleted.filter((m) => m.stale.deleted.some((f) => tipFiles.has(typeof f === 'string' ? f : f.path ?? f.file)));
  const staleBefore = listed.filter((m) => before.has(m.commit) && m.stale).length;
  console.log(`    list --json at ${tag} (${r.ms.toFixed(0)} ms): ${listed.length} listed; ${listed.length - after.length} from before the tag (${staleBefore} stale); ${after.length} from after it: ${stale.length} stale, ${deleted.length} with files "deleted", ${wrongly.length} of them naming a file that exists at the tip (expected 0)`);
}

console.log(`\n${missed ? `${missed} target(s) missed` : 'all targets met'}; ${((performance.now() - started) / 1000).toFixed(0)} s${KEEP ? `; kept ${root}` : ''}`);
if (!KEEP) fs.rmSync(root, { recursive: true, force: true });

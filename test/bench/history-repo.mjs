// The repositories of the history benchmark (issue 38): a synthetic history of a real project's
// shape, written by one `git fast-import` stream, and the memories made from any history's commit
// messages. See history.bench.mjs and docs/history-benchmark.md.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export function git(cwd, env, args, { input, allowFail = false } = {}) {
  const r = spawnSync('git', args, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0 && !allowFail) throw new Error(`git ${args.join(' ')}: ${r.stderr || r.error}`);
  return r.stdout;
}

/** A seeded PRNG (mulberry32), so every run builds the same history. */
export function prng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n) => Math.floor(next() * n);
  const pick = (list) => list[int(list.length)];
  return { next, int, pick };
}

const WORDS = 'cache module graph plugin resolve import export server client socket watcher config option loader transform chunk bundle asset style token parser scanner optimizer dependency entry manifest preload worker glob alias define env mode build preview dev render hydrate template router query header request response stream buffer timeout retry error warning message source map path url file dir hash version'.split(' ');
const PACKAGES = ['vite', 'plugin-react', 'plugin-vue', 'plugin-legacy', 'create-vite', 'shared', 'runtime', 'plugin-vue-jsx'];
const PKG_DIRS = ['src/node', 'src/node/plugins', 'src/node/server', 'src/node/server/middlewares', 'src/node/ssr', 'src/node/optimizer', 'src/client', 'src/types', 'src/node/__tests__', 'src/shared'];
const DOC_DIRS = ['docs/guide', 'docs/config', 'docs/blog', 'docs/plugins', 'docs/guide/api'];
const PLAYGROUNDS = 'alias assets css css-codesplit define dynamic-import env glob-import hmr html json legacy lib optimize-deps preload resolve ssr ssr-html tailwind vue react worker wasm json5 cli proxy'.split(' ');
// Conventional commit types, weighted roughly as in a busy JavaScript project.
const TYPES = [['fix', 30], ['feat', 16], ['chore', 12], ['chore(deps)', 8], ['docs', 10], ['refactor', 8], ['perf', 4], ['test', 5], ['ci', 3], ['build', 2], ['style', 2]];
const SCOPES = ['css', 'hmr', 'ssr', 'deps', 'build', 'config', 'optimizer', 'plugin-react', 'plugin-vue', 'create-vite', 'dev', 'preview', 'types', 'worker', 'glob', 'asset', 'legacy', 'html', 'resolve', 'cli'];

/**
 * A synthetic history on `main` in a new repository at `dir`: `commits` commits over ~5 years ending
 * a day ago, ~3,000 files (for 10,000 commits) in nested directories, each commit changing a few lines
 * of 1-5 files, some adding, deleting or renaming files, a few hundred merges of short side
 * branches, an annotated tag every ~500 first-parent commits. Returns counts for the report.
 */
export function makeSyntheticHistory(dir, env, { commits = 10_000, seed = 38 } = {}) {
  const R = prng(seed);
  const word = () => R.pick(WORDS);
  const camel = (w) => w[0].toUpperCase() + w.slice(1);

  // ---- the files: path → array of lines ----
  const files = new Map();
  const newPath = () => {
    for (;;) {
      const kind = R.next();
      let p;
      if (kind < 0.62) p = `packages/${R.pick(PACKAGES)}/${R.pick(PKG_DIRS)}/${word()}${camel(word())}.ts`;
      else if (kind < 0.77) p = `${R.pick(DOC_DIRS)}/${word()}-${word()}.md`;
      else p = `playground/${R.pick(PLAYGROUNDS)}/${R.pick(['src', 'src/components', '__tests__', 'nested'])}/${word()}${camel(word())}.${R.pick(['ts', 'js', 'vue', 'css'])}`;
      if (!files.has(p)) return p;
    }
  };
  let serial = 0;
  const line = (p) => (p.endsWith('.md') ? `The ${word()} ${word()} ${word()} option controls the ${word()} (${++serial}).` : `export const ${word()}${camel(word())}${++serial} = (${word()}) => ${word()}.${word()}(${R.int(1000)})`);
  const newContent = (p) => Array.from({ length: 20 + R.int(60) }, () => line(p));
  // A few changed lines: replaced, inserted or removed, so diffs and numstat have work to do.
  const edit = (p) => {
    const lines = files.get(p);
    for (let k = 1 + R.int(4); k > 0; k--) {
      const i = R.int(lines.length);
      const op = R.next();
      if (op < 0.6) lines[i] = line(p);
      else if (op < 0.85) lines.splice(i, 0, line(p));
      else if (lines.length > 10) lines.splice(i, 1);
    }
  };

  // ---- the stream ----
  const out = [];
  const data = (s) => `data ${Buffer.byteLength(s)}\n${s}\n`;
  const blob = (p) => {
    const s = `${files.get(p).join('\n')}\n`;
    return `M 644 inline ${p}\n${data(s).slice(0, -1)}`;
  };
  const end = Math.floor(Date.now() / 1000) - 86_400;
  const span = 5 * 365 * 86_400;
  const step = span / commits;
  let clock = end - span;
  const tick = () => (clock += Math.max(60, Math.round(step * (0.3 + 1.4 * R.next()))));
  const people = ['Ada Lane <ada@example.com>', 'Bo Chen <bo@example.com>', 'Cy Okafor <cy@example.com>', 'Di Novak <di@example.com>', 'Ed Silva <ed@example.com>', 'Fay Ito <fay@example.com>'];
  const subject = () => {
    let total = 0;
    for (const [, w] of TYPES) total += w;
    let x = R.int(total);
    let type = TYPES[0][0];
    for (const [t, w] of TYPES) if ((x -= w) < 0) { type = t; break; }
    if (type === 'chore(deps)') return `chore(deps): update ${word()}-${word()} to v${1 + R.int(9)}.${R.int(20)}.${R.int(10)}`;
    const scope = R.next() < 0.6 ? `(${R.pick(SCOPES)})` : '';
    return `${type}${scope}: ${R.pick(['handle', 'support', 'avoid', 'respect', 'allow', 'skip', 'preserve', 'normalize'])} ${word()} ${word()} in ${word()} ${word()} (#${1000 + R.int(20000)})`;
  };
  const body = () => (R.next() < 0.3 ? '' : `\n\n${Array.from({ length: 1 + R.int(4) }, () => `When the ${word()} ${word()} is ${word()}, the ${word()} ${word()} must ${word()} the ${word()} first.`).join(' ')}`);

  let mark = 0;
  let mainMark = 0;
  const commit = (ref, msg, { from, merge, ops }) => {
    const m = ++mark;
    const who = R.pick(people);
    out.push(`commit ${ref}\nmark :${m}\nauthor ${who} ${tick()} +0000\ncommitter ${who} ${clock} +0000\n${data(msg).slice(0, -1)}`);
    if (from) out.push(`from :${from}\n`);
    if (merge) out.push(`merge :${merge}\n`);
    out.push(...ops);
    return m;
  };

  // The first commit holds ~60% of the final files; the rest arrive along the way.
  const initial = Math.max(300, Math.round(commits * 0.18));
  const ops0 = [];
  for (let i = 0; i < initial; i++) {
    const p = newPath();
    files.set(p, newContent(p));
    ops0.push(blob(p));
  }
  mainMark = commit('refs/heads/main', 'chore: initial import\n', { ops: ops0 });
  let made = 1;
  let firstParent = 1;
  let merges = 0;
  let renames = 0;
  let tags = 0;
  const touched = new Set(); // files a side branch changes, which main leaves alone until the merge

  // One ordinary commit's file operations on files not in `avoid`.
  const changeOps = (avoid, { structural = true } = {}) => {
    const ops = [];
    const paths = [...files.keys()];
    const pickFile = () => {
      for (let k = 0; k < 20; k++) {
        const p = R.pick(paths);
        if (files.has(p) && !avoid.has(p)) return p;
      }
      return null;
    };
    const r = R.next();
    if (structural && r < 0.08) {
      for (let k = 1 + R.int(3); k > 0; k--) {
        const p = newPath();
        files.set(p, newContent(p));
        ops.push(blob(p));
      }
    } else if (structural && r < 0.11) {
      const p = pickFile();
      if (p) { files.delete(p); ops.push(`D ${p}\n`); }
    } else if (structural && r < 0.13) {
      // A rename: the same content under a new path in the same directory.
      const p = pickFile();
      if (p) {
        const q = path.posix.join(path.posix.dirname(p), `${word()}${camel(word())}${path.posix.extname(p)}`);
        if (!files.has(q)) { files.set(q, files.get(p)); files.delete(p); ops.push(`D ${p}\n`, blob(q)); renames++; }
      }
    }
    for (let k = ops.length ? R.int(2) : 1 + R.int(5); k > 0; k--) {
      const p = pickFile();
      if (p && !ops.some((o) => o.includes(` ${p}\n`))) { edit(p); ops.push(blob(p)); }
    }
    return ops;
  };

  while (made < commits) {
    if (R.next() < 0.035 && commits - made > 8) {
      // A short side branch from main's tip (1-3 commits), 0-2 commits on main meanwhile, then a merge.
      const base = mainMark;
      let side = base;
      touched.clear();
      const name = `${R.pick(['fix', 'feat', 'refactor'])}/${word()}-${word()}`;
      for (let k = 1 + R.int(3); k > 0; k--) {
        const ops = changeOps(new Set(), { structural: false });
        for (const o of ops) touched.add(o.split(' ')[3].split('\n')[0]);
        side = commit('refs/heads/bench-side', `${subject()}${body()}\n`, { from: side, ops });
        made++;
      }
      for (let k = R.int(3); k > 0; k--) {
        mainMark = commit('refs/heads/main', `${subject()}${body()}\n`, { from: mainMark, ops: changeOps(touched) });
        made++;
        firstParent++;
      }
      // The merge's tree starts from main's; the side's files are written as they are now.
      const ops = [...touched].filter((p) => files.has(p)).map(blob);
      mainMark = commit('refs/heads/main', `Merge branch '${name}'\n`, { from: mainMark, merge: side, ops });
      made++;
      firstParent++;
      merges++;
    } else {
      mainMark = commit('refs/heads/main', `${subject()}${body()}\n`, { from: mainMark, ops: changeOps(new Set()) });
      made++;
      firstParent++;
    }
    if (firstParent >= (tags + 1) * 500) {
      tags++;
      out.push(`tag v0.${tags}.0\nfrom :${mainMark}\ntagger ${people[0]} ${clock} +0000\n${data(`v0.${tags}.0\n`)}`);
    }
  }

  fs.mkdirSync(dir, { recursive: true });
  git(dir, env, ['init', '-q', '-b', 'main']);
  git(dir, env, ['fast-import', '--quiet'], { input: out.join('') });
  git(dir, env, ['update-ref', '-d', 'refs/heads/bench-side']);
  git(dir, env, ['reset', '-q', '--hard', 'main']);
  return { commits: made, firstParent, merges, renames, tags, files: files.size };
}

const NAMESPACE = { feat: 'decisions', fix: 'learnings', perf: 'learnings', refactor: 'patterns', docs: 'research' };

/**
 * Memories from the commit messages of every `every`-th first-parent commit of `branch` (all of
 * them, or only the newest `window` first-parent commits): one import line each, with the files its
 * commit changed (for choosing targets; not imported).
 */
export function memoriesFromHistory(repo, env, branch, { every = 3, window } = {}) {
  const log = git(repo, env, ['log', '--first-parent', '--diff-merges=first-parent', '--no-renames', '--name-only', '--format=%x1e%H%x1f%cI%x1f%B%x1f', branch]);
  let records = log.split('\x1e').slice(1).reverse(); // oldest first
  if (window) records = records.slice(-window);
  const memories = [];
  records.forEach((rec, i) => {
    if (i % every !== 0) return;
    const [commit, created, message, names] = rec.split('\x1f');
    const [subject, ...rest] = message.trim().split('\n');
    if (!subject?.trim()) return;
    const type = /^(\w+)/.exec(subject)?.[1] ?? '';
    const text = rest.join('\n').trim() || subject;
    memories.push({
      line: { namespace: NAMESPACE[type] ?? 'progress', summary: subject.trim().slice(0, 100), body: text.slice(0, 2000), commit, created: new Date(created).toISOString().replace('.000', '') },
      files: names.split('\n').filter(Boolean),
    });
  });
  return memories;
}

/** Writes the memories as JSONL; returns the file's path. */
export function writeJsonl(file, memories) {
  fs.writeFileSync(file, memories.map((m) => JSON.stringify(m.line)).join('\n') + '\n');
  return file;
}

// Issue 33: `git mem ui` at scale, measured in the browser (Debian's Chromium driven by
// playwright-core; nothing downloads a browser), at 10,000 and (with --sizes) 100,000 memories
// spread over 2,000 commits (lib.mjs makeMemoryRepo), their index built:
//
//   node test/bench/ui.bench.mjs [--sizes 10000,100000] [--runs 5] [--baseline-bin PATH]
//
// With --baseline-bin (another build of git-mem, e.g. the previous commit's), each run measures
// both binaries one after the other on the same repository, and every row's baseline is that
// binary's median of the same measure (the ratio is then new / previous, on a machine equally
// loaded for both).
//
// Figures, each beside a baseline timed in the same run:
// - server start: spawn of `git mem ui --no-open` until its URL is printed, beside `git mem --version`
//   (the binary's own start);
// - first page ready: from the navigation to the printed URL (its redirect included) until the first
//   list is on the page, on a server started just before (its index opened as the page asks), and
//   on a reload;
// - search as you type: from each keystroke (an input event) until its results are on the page, the
//   page's 25 ms pause between keystrokes included; beside `git mem recall --mode lexical` of the
//   whole query as a process.
//
// - the timeline, graph, a memory and a file opened from the page (no target; for the record).
//
// Targets: start <= 100 ms; first page <= 300 ms at 10,000 and <= 800 ms at 100,000; a keystroke
// <= 100 ms at 100,000.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BIN, benchEnv, makeMemoryRepo, report, sh, timeRuns, tmpRoot, zipfVocabulary } from './lib.mjs';

const { values: opts } = parseArgs({ options: { sizes: { type: 'string', default: '10000' }, runs: { type: 'string', default: process.env.BENCH_RUNS ?? '5' }, 'baseline-bin': { type: 'string' } } });
const BASE_BIN = opts['baseline-bin'];
if (BASE_BIN && !fs.existsSync(BASE_BIN)) throw new Error(`no binary at ${BASE_BIN}`);
const CHROMIUM = '/usr/bin/chromium';
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
if (!fs.existsSync(CHROMIUM)) {
  console.log(`${CHROMIUM} is absent: nothing measured (apt-get install -y chromium)`);
  process.exit(0);
}
const { chromium } = await import('playwright-core');
const RUNS = Number(opts.runs);
const COMMITS = 2000;
const root = tmpRoot('ui');
process.on('exit', () => fs.rmSync(root, { recursive: true, force: true }));
const env = { ...benchEnv(root), GIT_MEM_RECALL_MODE: 'lexical' };
const vocabulary = zipfVocabulary(5000);
const query = `${vocabulary.words[40]} ${vocabulary.words[300]}`;

function startUi(repo, bin = BIN) {
  const t0 = performance.now();
  const child = spawn(bin, ['ui', '--no-open'], { cwd: repo, env, stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      if (!out.includes('\n')) return;
      const url = out.split('\n')[0].trim();
      resolve({ url, base: url.replace(/\?.*$/, ''), ms: performance.now() - t0, stop: () => new Promise((done) => (child.once('exit', done), child.kill('SIGTERM'))) });
    });
    child.once('exit', (code) => reject(new Error(`git mem ui exited ${code}`)));
  });
}

function summary(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] };
}

/** Milliseconds from the navigation's start until the page says its list is there. */
async function readyAfterNavigation(page, url) {
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.ready !== undefined && document.querySelector('#count'));
  return page.evaluate(() => performance.now());
}

const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-bench-chromium-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  viewport: { width: 1280, height: 800 },
});
process.on('exit', () => fs.rmSync(profile, { recursive: true, force: true }));

let ok = true;
for (const size of opts.sizes.split(',').map(Number)) {
  const repo = path.join(root, `repo-${size}`);
  const count = makeMemoryRepo(repo, env, { commits: COMMITS, perCommit: Math.ceil(size / COMMITS), vocabulary });
  sh(repo, env, BIN, ['index']);
  console.log(`\n${count} memories on ${COMMITS} commits`);

  const version = timeRuns(RUNS, () => sh(repo, env, BIN, ['--version']));
  const bins = BASE_BIN ? [BIN, BASE_BIN] : [BIN];
  const m = new Map(bins.map((b) => [b, { starts: [], firsts: [], reloads: [], keystrokes: [], apiTimes: [], views: {} }]));
  for (let run = 0; run < RUNS; run++) {
    // Alternating which goes first, so that neither always meets a colder cache.
    for (const bin of run % 2 ? [...bins].reverse() : bins) {
      const { starts, firsts, reloads, keystrokes, apiTimes, views } = m.get(bin);
      const ui = await startUi(repo, bin);
      starts.push(ui.ms);
      const page = await context.newPage();
      await context.clearCookies();
      firsts.push(await readyAfterNavigation(page, ui.url));
      reloads.push(await readyAfterNavigation(page, ui.base));
      const typed = await page.evaluate(async (text) => {
        const input = document.getElementById('q');
        const times = [];
        const served = [];
        for (const ch of text) {
          const before = document.body.dataset.ready;
          const t0 = performance.now();
          input.value += ch;
          input.dispatchEvent(new Event('input', { bubbles: true }));
          await new Promise((resolve) => {
            const check = () => (document.body.dataset.ready !== before ? resolve() : requestAnimationFrame(check));
            check();
          });
          // Painted: the frame after the list changed.
          await new Promise((resolve) => requestAnimationFrame(() => resolve()));
          times.push(performance.now() - t0);
          served.push(Number(document.getElementById('count')?.dataset.ms ?? 0));
        }
        return { times, served };
      }, query);
      keystrokes.push(...typed.times);
      apiTimes.push(...typed.served);
      // The other views, each opened from the page (hash navigation, as a click does).
      const first = await page.evaluate(() => document.querySelector('#results a.open')?.getAttribute('data-id'));
      for (const [name, hash] of [['timeline', '#/timeline'], ['graph', '#/graph'], ['memory', `#/m/${encodeURIComponent(first)}`], ['file', '#/file/f1.txt']]) {
        const ms = await page.evaluate(async (target) => {
          const before = document.body.dataset.ready;
          const t0 = performance.now();
          location.hash = target;
          await new Promise((resolve) => {
            const check = () => (document.body.dataset.ready !== undefined && document.body.dataset.ready !== before ? resolve() : requestAnimationFrame(check));
            requestAnimationFrame(check);
          });
          return performance.now() - t0;
        }, hash);
        (views[name] ??= []).push(ms);
      }
      await page.close();
      await ui.stop();
    }
  }
  const recallCli = timeRuns(RUNS, () => sh(repo, env, BIN, ['recall', query, '--mode', 'lexical']));
  const mine = m.get(BIN);
  const base = BASE_BIN ? m.get(BASE_BIN) : null;
  const prev = (measure) => (base ? { baseline: { name: 'previous build', median: summary(measure(base)).median } } : {});
  const start = summary(mine.starts);
  const first = summary(mine.firsts);
  const reload = summary(mine.reloads);
  const key = summary(mine.keystrokes);
  const served = summary(mine.apiTimes);
  const firstTarget = size >= 100_000 ? 800 : 300;
  const rows = [
    { name: `server start (${count})`, ...start, target: 100, baseline: { name: 'git mem --version', median: version.median } },
    ...(base ? [{ name: `server start (${count})`, ...start, target: 100, ...prev((x) => x.starts) }] : []),
    { name: `first page ready, new server (${count})`, ...first, target: firstTarget, ...prev((x) => x.firsts) },
    { name: `first page ready, reload (${count})`, ...reload, target: firstTarget, ...prev((x) => x.reloads) },
    { name: `keystroke to results painted (${count})`, ...key, ...(size >= 100_000 ? { target: 100 } : {}), baseline: { name: 'recall --mode lexical (process)', median: recallCli.median } },
    ...(base ? [{ name: `keystroke to results painted (${count})`, ...key, ...prev((x) => x.keystrokes) }] : []),
    { name: `  of which request and list (${count})`, ...served, ...prev((x) => x.apiTimes) },
    ...Object.entries(mine.views).map(([name, times]) => ({ name: `${name} view ready (${count})`, ...summary(times), ...prev((x) => x.views[name]) })),
  ];
  ok = report(rows) && ok;
}
await context.close();
process.exitCode = ok ? 0 : 1;

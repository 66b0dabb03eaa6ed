// Ranking quality of `git mem recall` on a labeled fixture: recall@1, @5, @10 and MRR, on the
// tuning half (queries at even positions) and the checking half (odd positions). A ranking change
// is kept only when it helps the checking half.
// The memories are written as git-mem notes through one git fast-import stream,
// then every query runs through the compiled binary, as a user would run it.
//
//   bun test/bench/ranking.bench.mjs [--mode lexical,hybrid,semantic,hybrid:model,hybrid:static] [--fusion] [--fixture FILE] [--queries FILE] [--verbose] [--dump FILE]
//
// --queries replaces the fixture's queries with another file's, over the same memories (for
// test/fixtures/ranking-paraphrase.json: queries that share no content word with their memory).
//
// --dump writes each mode's top 10 per query (fixture indices) as JSON, to compare two builds
// query by query (GIT_MEM_BIN=<other build> ... --dump other.json).
//
// --fusion also sweeps the weights (lexical:semantic) and k of the fusion on the binary's lexical
// and semantic top 50, with core/search/fusion.ts (TypeScript, hence bun), and checks that 1:1, k = 60
// is what --mode hybrid returns.
//
// Modes other than lexical need an embedding model; the first found is used:
// GIT_MEM_MODEL_PATH, else all-MiniLM-L6-v2 in the user's cache (git mem model pull),
// else the tiny model test/helpers/tiny-model.mjs generates. The tiny one is a bag of
// random word vectors, not a semantic model: with it, hybrid measures the fusion
// machinery, not what MiniLM would add. The report names the model used.
//
// recall@k: per query, the share of its relevant memories in the top k, averaged.
// MRR: per query, 1 / rank of the first relevant memory in the top 10 (0 if none), averaged.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeTestModel } from '../helpers/tiny-model.mjs';
import { BIN, benchEnv, sh, tmpRoot } from './lib.mjs';

const { values: opts } = parseArgs({
  options: {
    mode: { type: 'string', default: 'lexical,hybrid' },
    fixture: { type: 'string', default: path.resolve(import.meta.dirname, '../fixtures/ranking.json') },
    verbose: { type: 'boolean', short: 'v', default: false },
    fusion: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    dump: { type: 'string' },
    queries: { type: 'string' },
  },
});
if (!fs.existsSync(BIN)) throw new Error(`no binary at ${BIN}; run npm run build`);
const fixture = JSON.parse(fs.readFileSync(opts.fixture, 'utf8'));
const { memories } = fixture;
const queries = opts.queries ? JSON.parse(fs.readFileSync(opts.queries, 'utf8')).queries : fixture.queries;

/** A stable 16-hex key per fixture memory, distinct in the 10 digits ids show, so results map back to indices. */
const keyOf = (i) => `${i.toString(16).padStart(6, '0')}f1f1a2a2b3`;
const indexOfShortKey = new Map(memories.map((_, i) => [keyOf(i).slice(0, 10), i]));
const yamlString = (s) => JSON.stringify(String(s));

/** One commit per memory, and one notes commit per namespace holding all of its notes. */
function importFixture(dir, env, mems) {
  fs.mkdirSync(dir, { recursive: true });
  sh(dir, env, 'git', ['init', '-q']);
  let stream = '';
  mems.forEach((_, i) => {
    const message = `change ${String(i).padStart(3, '0')}\n`;
    stream += `commit refs/heads/main\nmark :${i + 1}\ncommitter F <f@example.com> ${1767225600 + i * 3600} +0000\ndata ${message.length}\n${message}`;
    stream += `M 644 inline f${i}.txt\ndata ${String(i).length + 1}\n${i}\n`;
  });
  const byNs = new Map();
  mems.forEach((m, i) => byNs.set(m.namespace, [...(byNs.get(m.namespace) ?? []), i]));
  for (const [ns, list] of byNs) {
    stream += `commit refs/notes/mem/${ns}\ncommitter F <f@example.com> 1800000000 +0000\ndata 8\nfixture\n`;
    for (const i of list) {
      const m = mems[i];
      const ts = new Date(Date.UTC(2026, 0, 1) + i * 3600_000).toISOString().replace('.000', '');
      const tags = m.tags?.length ? `tags: [${m.tags.map(yamlString).join(', ')}]\n` : '';
      const doc = `---\nid: '${keyOf(i)}'\ntype: ${ns}\ntimestamp: ${ts}\nupdated: ${ts}\nsummary: ${yamlString(m.summary)}\n${tags}---\n\n${m.body ?? ''}\n`;
      stream += `N inline :${i + 1}\ndata ${Buffer.byteLength(doc)}\n${doc}`;
    }
  }
  sh(dir, env, 'git', ['fast-import', '--quiet'], stream);
  sh(dir, env, 'git', ['reset', '-q', '--hard', 'main']);
}

const root = tmpRoot('ranking');
process.on('exit', () => {
  if (!opts.keep) fs.rmSync(root, { recursive: true, force: true });
});
const env = benchEnv(root);
const repo = path.join(root, 'repo');
importFixture(repo, env, memories);
const indexed = JSON.parse(sh(repo, env, 'git', ['mem', 'index', '--json']));
if (indexed.memories !== memories.length) throw new Error(`indexed ${indexed.memories} memories, expected ${memories.length}`);

/** The model for modes other than lexical, and what to call it in the report. */
function findModel() {
  if (process.env.GIT_MEM_MODEL_PATH) return { dir: process.env.GIT_MEM_MODEL_PATH, name: `GIT_MEM_MODEL_PATH=${process.env.GIT_MEM_MODEL_PATH}` };
  const xdg = process.env.XDG_CACHE_HOME && path.isAbsolute(process.env.XDG_CACHE_HOME) ? process.env.XDG_CACHE_HOME : path.join(os.homedir(), '.cache');
  const cached = path.join(xdg, 'git-mem', 'models', 'Xenova', 'all-MiniLM-L6-v2');
  if (fs.existsSync(path.join(cached, 'onnx', 'model_quantized.onnx'))) return { dir: cached, name: `Xenova/all-MiniLM-L6-v2 (${cached})` };
  return { dir: writeTestModel(path.join(root, 'tiny-model'), { kind: 'tiny' }), name: 'the generated tiny test model (random word vectors, NOT a semantic model)' };
}

/** Per query, the fixture indices `git mem recall --mode <mode>` returns (best first), their scores, and what it said on stderr. */
// A mode may end in :model or :static: how the query is embedded (mem.recall.queryEmbedding; the
// static table is made by `git mem model embed` first, where the build has it). Plain hybrid or
// semantic is the build's default.
function recallAll(modeName, limit) {
  const notices = new Set();
  const [mode, query] = modeName.split(':');
  const modeEnv = mode === 'lexical' ? env : { ...env, GIT_MEM_MODEL_PATH: model.dir, GIT_MEM_MODEL_DOWNLOAD: 'false', ...(query ? { GIT_MEM_RECALL_QUERY_EMBEDDING: query } : {}) };
  const results = queries.map((q) => {
    const r = spawnSync(BIN, ['recall', '--mode', mode, '--json', '--limit', String(limit), q.query], { cwd: repo, env: modeEnv, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`recall --mode ${mode}: ${r.stderr}`);
    if (r.stderr.trim()) notices.add(r.stderr.trim());
    const hits = JSON.parse(r.stdout);
    return { ranked: hits.map((h) => indexOfShortKey.get(h.id.split(':')[2])), scores: hits.map((h) => h.score) };
  });
  return { results, notices };
}

/** Recall@1, @5, @10 and reciprocal rank of each query's ranking (fixture indices, best first). */
function scoreRows(rankings) {
  return rankings.map(({ ranked, scores }, n) => {
    const q = queries[n];
    const relevant = new Set(q.relevant);
    const recallAt = (k) => ranked.slice(0, k).filter((i) => relevant.has(i)).length / relevant.size;
    const first = ranked.slice(0, 10).findIndex((i) => relevant.has(i));
    const rr = first < 0 ? 0 : 1 / (first + 1);
    return { n, query: q.query, relevant: q.relevant, ranked, scores, r1: recallAt(1), r5: recallAt(5), r10: recallAt(10), rr };
  });
}

const fmt = (x) => x.toFixed(3);
const mean = (rows, key) => rows.reduce((sum, r) => sum + r[key], 0) / rows.length;

const dumped = {};

function run(mode) {
  const { results, notices } = recallAll(mode, 10);
  dumped[mode] = results.map((r) => r.ranked);
  const rows = scoreRows(results);
  if (opts.verbose) {
    for (const r of rows) {
      const mark = r.rr === 1 ? 'hit ' : r.rr > 0 ? `@${Math.round(1 / r.rr)}  ` : 'MISS';
      console.log(`${mark} q${String(r.n).padStart(3, '0')} ${r.n % 2 ? 'C' : 'T'} ${r.query}  relevant=${r.relevant.join(',')} top5=${r.ranked.slice(0, 5).join(',')}`);
    }
    console.log('');
  }
  console.log(`ranking (${mode}${mode === 'lexical' ? '' : `, model: ${model.name}`}): ${memories.length} memories, ${queries.length} queries from ${path.relative(process.cwd(), opts.queries ?? opts.fixture)}`);
  console.log('half        queries  recall@1 recall@5 recall@10   MRR   no relevant in top 10');
  for (const [name, half] of Object.entries(halvesOf(rows))) {
    const misses = half.filter((r) => r.rr === 0).length;
    console.log(`${name.padEnd(10)} ${String(half.length).padStart(8)}  ${fmt(mean(half, 'r1')).padStart(8)} ${fmt(mean(half, 'r5')).padStart(8)} ${fmt(mean(half, 'r10')).padStart(9)} ${fmt(mean(half, 'rr')).padStart(6)}   ${misses}`);
  }
  for (const n of notices) console.log(`  notice: ${n}`);
  if (mode === 'lexical') floors(rows);
}

/**
 * Weighted reciprocal rank fusion of the binary's lexical and semantic top 50 (what hybrid recall
 * fuses: FUSION_DEPTH in services/search/recall.ts), computed here with core/search/fusion.ts, for weights
 * (lexical:semantic) and k. The 1:1, k = 60 row must rank every query as `--mode hybrid` does, or
 * the sweep would not measure the product; that is checked, and a difference fails the bench.
 */
async function fusionSweep() {
  // core/search/fusion.ts is TypeScript: this needs bun (npm run bench:ranking uses it).
  const { reciprocalRankFusion, RRF_K } = await import('../../src/core/search/fusion.ts');
  const depth = 50;
  const lexical = recallAll('lexical', depth).results;
  const semantic = recallAll('semantic', depth);
  const hybrid = recallAll('hybrid', 10).results;
  const fuse = (n, k, weights) =>
    reciprocalRankFusion([lexical[n].ranked, semantic.results[n].ranked], String, k, weights)
      .slice(0, 10)
      .map((f) => f.item);

  const same = hybrid.filter((h, n) => JSON.stringify(h.ranked) === JSON.stringify(fuse(n, RRF_K, [1, 1]))).length;
  console.log(`\nfusion sweep (model: ${model.name}): lexical and semantic top ${depth} of each query from the binary, fused by core/search/fusion.ts`);
  console.log(`1:1, k = ${RRF_K} against --mode hybrid through the binary: ${same} of ${queries.length} queries ranked identically`);
  if (same !== queries.length) process.exitCode = 1;
  for (const n of semantic.notices) console.log(`  notice: ${n}`);

  const cell = (rows) => ['r1', 'r5', 'r10', 'rr'].map((key) => fmt(mean(rows, key)).padStart(6)).join(' ');
  console.log('lex:sem    k    tuning: R@1    R@5   R@10    MRR   checking: R@1    R@5   R@10    MRR');
  const line = (label, k, rankings) => {
    const { tuning, checking } = halvesOf(scoreRows(rankings));
    console.log(`${label.padEnd(8)} ${String(k).padStart(3)}        ${cell(tuning)}             ${cell(checking)}`);
  };
  line('lexical', '-', lexical);
  line('semantic', '-', semantic.results);
  // Weight 0 makes a list add nothing, but its memories still follow the others (score 0), so 1:0
  // is the lexical ranking with the semantic one filling the top 10 where fewer than 10 memories
  // match lexically, and 0:1 the reverse. Either alone ranks the same for every k.
  const weightings = [[1, 0], [2, 1], [1.5, 1], [1, 1], [1, 1.5], [1, 2], [0, 1]];
  for (const [lex, sem] of weightings) {
    for (const k of lex && sem ? [10, 30, 60] : [RRF_K]) {
      line(`${lex}:${sem}`, lex && sem ? k : '-', queries.map((_, n) => ({ ranked: fuse(n, k, [lex, sem]), scores: [] })));
    }
  }
  line('hybrid', RRF_K, hybrid);
  const short = lexical.filter((l) => l.ranked.length < 10).length;
  console.log(`(${short} of ${queries.length} queries match fewer than 10 memories lexically)`);
  // Where only the semantic ranking can help: no relevant memory in the lexical top 50.
  const unreachable = (rows) => rows.filter((r) => !r.relevant.some((i) => lexical[r.n].ranked.includes(i)));
  const { tuning, checking } = halvesOf(scoreRows(lexical));
  const found = (rows) => unreachable(rows).filter((r) => r.relevant.some((i) => semantic.results[r.n].ranked.includes(i))).length;
  console.log(`no relevant memory in the lexical top ${depth}: tuning ${unreachable(tuning).length} of ${tuning.length} queries (${found(tuning)} with one in the semantic top ${depth}), checking ${unreachable(checking).length} of ${checking.length} (${found(checking)})`);
}

/** Tuning half: queries at even positions; checking half: odd positions; and all of them. */
function halvesOf(rows) {
  return { tuning: rows.filter((r) => r.n % 2 === 0), checking: rows.filter((r) => r.n % 2 === 1), all: rows };
}

/**
 * The hooks inject the top 5 of a lexical recall, less the hits under mem.hooks.relevanceFloor
 * times the best score. Per floor: precision (share of injected hits that are relevant) and
 * recall (share of relevant memories still injected), on the tuning half (even queries) and the
 * checking half (odd queries).
 */
function floors(rows) {
  const { tuning, checking } = halvesOf(rows);
  const halves = { tuning, checking };
  console.log('\nrelevance floor of injected recall (top 5, lexical):');
  console.log('floor   tuning: precision recall injected/query   checking: precision recall injected/query');
  for (const floor of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8]) {
    const cells = Object.values(halves).map((half) => {
      let injected = 0;
      let good = 0;
      let relevantTotal = 0;
      for (const r of half) {
        const best = r.scores[0] ?? 0;
        const kept = r.ranked.slice(0, 5).filter((_, i) => r.scores[i] >= best * floor);
        const relevant = new Set(r.relevant);
        injected += kept.length;
        good += kept.filter((i) => relevant.has(i)).length;
        relevantTotal += relevant.size;
      }
      return `${(good / Math.max(1, injected)).toFixed(3).padStart(9)} ${(good / relevantTotal).toFixed(3).padStart(6)} ${(injected / half.length).toFixed(2).padStart(8)}`;
    });
    console.log(`${floor.toFixed(1).padEnd(6)}  ${cells[0]}            ${cells[1]}`);
  }
}

const modes = opts.mode.split(',').map((m) => m.trim()).filter(Boolean);
const model = opts.fusion || modes.some((m) => m !== 'lexical') ? findModel() : null;
if (model && spawnSync(BIN, ['model', 'status'], { cwd: repo, env }).status === 0) {
  // Every vector and, in builds that have it, the static query table, before any query.
  sh(repo, { ...env, GIT_MEM_MODEL_PATH: model.dir, GIT_MEM_MODEL_DOWNLOAD: 'false' }, BIN, ['model', 'embed']);
}
for (const mode of modes) run(mode);
if (opts.dump) fs.writeFileSync(opts.dump, `${JSON.stringify(dumped)}\n`);
if (opts.fusion) await fusionSweep();
if (opts.keep) console.log(`repository kept at ${repo}`);

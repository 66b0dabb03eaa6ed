// In-process ranking evaluation on the labeled fixture, for parameter sweeps: the same core ranking
// (core/search/lexical.ts) over an in-memory postings source built as the term index builds its own, so
// hundreds of settings are compared in seconds. Figures for decisions come from
// ranking.bench.mjs, which runs the compiled binary; this only finds candidates.
//
//   bun test/bench/ranking-sweep.ts [--grid] [--json '{"k1":1.2,...}']
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { lexicalScores, type LexicalOptions } from '../../src/core/search/lexical.ts';
import { buildLexicalQuery, type CompoundOptions, type RelatedOptions } from '../../src/core/search/query.ts';
import { memorySource } from './lexical-source.ts';

const { values: opts } = parseArgs({
  options: {
    fixture: { type: 'string', default: path.resolve(import.meta.dirname, '../fixtures/ranking.json') },
    grid: { type: 'boolean', default: false },
    json: { type: 'string', default: '{}' },
    // Queries whose reciprocal rank differs between the given settings and these.
    diff: { type: 'string' },
    // The checking half is printed only when asked: settings are chosen on the tuning half, and the
    // checking half read once for a setting that is kept (docs/search.md).
    checking: { type: 'boolean', default: false },
  },
});
interface FixtureMemory { namespace: string; summary: string; body?: string; tags?: string[] }
const fixture = JSON.parse(fs.readFileSync(opts.fixture, 'utf8')) as { memories: FixtureMemory[]; queries: Array<{ query: string; relevant: number[] }> };
const { memories, queries } = fixture;

const source = memorySource(memories);

interface Config extends LexicalOptions { prefixLast?: boolean; synonyms?: boolean; related?: RelatedOptions | false; compounds?: CompoundOptions | false; nameWeight?: number }

export function evaluate(config: Config) {
  const rows = queries.map((q, n) => {
    const query = buildLexicalQuery(q.query, { prefixLast: config.prefixLast, synonyms: config.synonyms, related: config.related, compounds: config.compounds, nameWeight: config.nameWeight })!;
    const scores = lexicalScores(source, query, () => true, config);
    // As the term index orders: score, then newer (a higher document number) first.
    const ranked = [...scores.keys()].filter((d) => scores[d]! > 0).sort((a, b) => scores[b]! - scores[a]! || b - a).slice(0, 10);
    const relevant = new Set(q.relevant);
    const at = (k: number) => ranked.slice(0, k).filter((d) => relevant.has(d)).length / relevant.size;
    const first = ranked.findIndex((d) => relevant.has(d));
    return { n, query: q.query, r1: at(1), r5: at(5), r10: at(10), rr: first < 0 ? 0 : 1 / (first + 1) };
  });
  const half = (h: typeof rows) => {
    const mean = (k: 'r1' | 'r5' | 'r10' | 'rr') => h.reduce((s, r) => s + r[k], 0) / h.length;
    return { r1: mean('r1'), r5: mean('r5'), r10: mean('r10'), mrr: mean('rr') };
  };
  return { rows, tuning: half(rows.filter((r) => r.n % 2 === 0)), checking: half(rows.filter((r) => r.n % 2 === 1)) };
}

const fmt = (h: { r1: number; r5: number; r10: number; mrr: number }) => `${h.r1.toFixed(3)} ${h.r5.toFixed(3)} ${h.r10.toFixed(3)} ${h.mrr.toFixed(3)}`;
const line = (label: string, c: Config) => {
  const r = evaluate(c);
  console.log(`${label.padEnd(40)} tuning ${fmt(r.tuning)}${opts.checking ? `   checking ${fmt(r.checking)}` : ''}`);
  return r;
};

const base = JSON.parse(opts.json) as Config;
console.log(`${''.padEnd(40)} (recall@1 @5 @10 MRR)`);
const given = line('given', base);
if (process.env.DUMP) fs.writeFileSync(process.env.DUMP, given.rows.filter((r) => opts.checking || r.n % 2 === 0).map((r) => `${r.n % 2 ? 'C' : 'T'} ${r.rr.toFixed(2)} ${r.query}`).join('\n'));
if (opts.diff) {
  const other = line('diff', { ...base, ...(JSON.parse(opts.diff) as Config) });
  for (const [i, r] of other.rows.entries()) {
    const was = given.rows[i]!.rr;
    if (r.rr !== was && (opts.checking || r.n % 2 === 0)) console.log(`${r.n % 2 ? 'C' : 'T'} ${was.toFixed(2)} -> ${r.rr.toFixed(2)}  ${r.query}`);
  }
}
if (opts.grid) {
  const results: Array<{ label: string; t: number; c: number }> = [];
  for (const k1 of [0.6, 0.9, 1.2, 1.5, 2.0]) {
    for (const b of [0.3, 0.5, 0.75, 0.9]) {
      for (const weights of [[1, 1, 1], [2, 1, 1], [3, 2, 1], [2, 2, 1], [1.5, 1, 1], [3, 1, 1]]) {
        const r = evaluate({ ...base, k1, b, weights });
        results.push({ label: `k1 ${k1} b ${b} w ${weights.join('/')}`, t: r.tuning.mrr + r.tuning.r10, c: r.checking.mrr + r.checking.r10 });
      }
    }
  }
  results.sort((x, y) => y.t - x.t);
  for (const r of results.slice(0, 25)) console.log(`${r.label.padEnd(32)} tuning MRR+R@10 ${r.t.toFixed(3)}${opts.checking ? `  checking ${r.c.toFixed(3)}` : ''}`);
}

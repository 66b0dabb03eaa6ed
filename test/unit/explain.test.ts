import { describe, expect, it } from 'vitest';
import type { Memory } from '../../src/core/memory.ts';
import { explanationJson, explanationLines } from '../../src/core/search/explain.ts';
import { DEFAULT_LEXICAL, PLAIN_LEXICAL } from '../../src/core/search/lexical.ts';
import { aboveFloor, floorScore } from '../../src/core/search/floor.ts';
import { buildLexicalQuery } from '../../src/core/search/query.ts';
import { DEFAULT_K1 } from '../../src/core/search/bm25f.ts';
import { buildTermIndex } from '../../src/stores/index/terms/build.ts';
import { TermIndex } from '../../src/stores/index/terms/reader.ts';

let seq = 0;
function memory(summary: string, body = '', tags: string[] = []): Memory {
  seq++;
  const created = new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString().replace('.000', '');
  return { key: seq.toString(16).padStart(16, '0'), namespace: 'decisions', object: 'a'.repeat(40), summary, body, created, updated: created, tags, status: 'active', relatesTo: [] };
}

function index(memories: Memory[]): TermIndex {
  const rows = new Map(memories.map((m, i) => [i + 1, m]));
  return TermIndex.fromBytes(buildTermIndex({ tips: { decisions: 'f'.repeat(40) }, generation: 'g', copies: {} }, [...rows.keys()], null, (ids) => ids.map((rowid) => ({ rowid, memory: rows.get(rowid)! }))));
}

const filler = ['Release calendar for next quarter', 'Team offsite agenda', 'Lint rules for the monorepo', 'Upgrade the build images', 'Rotate the signing keys', 'Weekly status notes', 'Renovate bot settings', 'Flaky browser tests on CI', 'Onboarding checklist', 'Coverage thresholds per package', 'Logging format for services', 'Cache headers on the CDN'].map((s) => memory(s));

describe('recall explanations (ScoreExplanations, recorded by the scorer)', () => {
  const idx = index([
    memory('Chose sql.js for the local database', 'No native modules: the WASM build runs everywhere.', ['storage']),
    memory('Postgres migrations run before deploy', 'The migration job locks the schema; the local database is untouched.', ['db']),
    memory('Schema changes need a migration review', 'Locks and backfills: the migration job runs in CI.'),
    ...filler,
  ]);

  it('gives each hit the matches whose scores sum to its score, in fields, with idf', () => {
    for (const options of [PLAIN_LEXICAL, DEFAULT_LEXICAL]) {
      const hits = idx.search(buildLexicalQuery('db migration')!, {}, options, true);
      expect(hits.length).toBeGreaterThan(1);
      for (const h of hits) {
        const sum = h.matches!.reduce((s, m) => s + m.score, 0);
        expect(sum).toBeCloseTo(h.score, 10);
        for (const m of h.matches!) expect(m.frequencies.some((f) => f > 0)).toBe(true);
      }
      // The same scores and order as without the explanation.
      expect(hits.map((h) => [h.memory.key, h.score])).toEqual(idx.search(buildLexicalQuery('db migration')!, {}, options).map((h) => [h.memory.key, h.score]));
    }
  });

  it('splits each match into field parts that give its score by the BM25F formula', () => {
    for (const h of idx.search(buildLexicalQuery('db migration locks')!, {}, DEFAULT_LEXICAL, true)) {
      for (const m of h.matches!) {
        const pseudo = m.fields.reduce((a, b) => a + b, 0);
        expect(m.idf * (DEFAULT_K1 + 1) * m.weight * (pseudo / (pseudo + DEFAULT_K1))).toBeCloseTo(m.score, 10);
      }
    }
  });

  it('says a synonym matched, and which', () => {
    const hits = idx.search(buildLexicalQuery('db')!, {}, PLAIN_LEXICAL, true);
    const sqljs = hits.find((h) => h.memory.summary.startsWith('Chose sql.js'))!;
    expect(sqljs.matches).toEqual([expect.objectContaining({ word: 'db', kind: 'synonym', terms: ['databas'], weight: 0.8 })]);
    expect(sqljs.matches![0]!.frequencies).toEqual([1, 0, 0]);
    const postgres = hits.find((h) => h.memory.summary.startsWith('Postgres'))!;
    // The word's own match (in tags) scores above its synonym (in the body): the best of the group counts, once.
    expect(postgres.matches).toEqual([expect.objectContaining({ word: 'db', kind: 'term', terms: ['db'] })]);
  });

  it('says a feedback word added to a hit, and a prefix which terms it matched', () => {
    const hits = idx.search(buildLexicalQuery('schema locks')!, {}, DEFAULT_LEXICAL, true);
    const kinds = hits.flatMap((h) => h.matches!.map((m) => m.kind));
    expect(kinds).toContain('feedback');
    const prefix = idx.search(buildLexicalQuery('migr')!, {}, PLAIN_LEXICAL, true);
    expect(prefix[0]!.matches![0]).toMatchObject({ kind: 'prefix', terms: expect.arrayContaining(['migrat']) });
  });

  it('renders as lines and JSON, the floor included', () => {
    const [hit] = idx.search(buildLexicalQuery('db')!, {}, PLAIN_LEXICAL, true);
    const e = { lexical: hit!.score, matches: hit!.matches!, placement: { reach: 'head', weight: 1 }, score: hit!.score, floor: { share: 0.5, min: 1, kept: true } };
    const lines = explanationLines(e);
    expect(lines.at(-1)).toMatch(/^relevance floor 0.5 × best = 1: kept by the hooks$/);
    expect(lines.join('\n')).toMatch(/placement head ×1/);
    expect(explanationJson(e)).toMatchObject({ floor: { kept: true }, placement: { reach: 'head' } });
    expect(explanationLines({ ...e, floor: { share: 0.5, min: Number.MIN_VALUE, kept: true } }).at(-1)).toBe('relevance floor: a single hit: kept by the hooks');
  });
});

describe('floorScore', () => {
  it('is the share of the best score, anything matching for a single hit', () => {
    expect(floorScore([{ score: 4 }, { score: 1 }], () => 0.5)).toBe(2);
    expect(floorScore([{ score: 4 }], () => 0.5)).toBe(Number.MIN_VALUE);
    expect(aboveFloor([{ score: 4 }, { score: 3 }, { score: 1 }], () => 0.5)).toEqual([{ score: 4 }, { score: 3 }]);
    expect(aboveFloor([{ score: 0 }], () => 0.5)).toEqual([]);
  });
});

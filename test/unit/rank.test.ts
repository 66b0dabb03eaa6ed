import { describe, expect, it } from 'vitest';
import { SCHEMA } from '../../src/stores/index/schema.ts';
import { loadSqlJs } from '../../src/stores/index/sqljs.ts';
import { bm25, buildLexicalQuery, decodeMatchinfo, DEFAULT_WEIGHTS, idf, queryTerms, tokenize } from '../../src/core/rank.ts';

/** A matchinfo('pcnalx') array: n rows, per-column averages and this row's lengths, and per phrase per column [hits, all hits, rows with hits]. */
function info(n: number, avg: number[], len: number[], phrases: Array<Array<[number, number, number]>>): number[] {
  return [phrases.length, avg.length, n, ...avg, ...len, ...phrases.flatMap((cols) => cols.flat())];
}
const none: [number, number, number] = [0, 0, 0];

describe('query terms', () => {
  it('lowercases and splits like the FTS tokenizer', () => {
    expect(tokenize('Use sql.js, NOT better-sqlite3!')).toEqual(['use', 'sql', 'js', 'not', 'better', 'sqlite3']);
    expect(tokenize('snake_case   café')).toEqual(['snake', 'case', 'café']);
  });

  it('drops stop words and duplicates', () => {
    expect(queryTerms('Why did we choose the WASM database over the native one?')).toEqual(['choose', 'wasm', 'database', 'native']);
    expect(queryTerms('index index Index')).toEqual(['index']);
  });

  it('keeps stop words when nothing else is left, and gives nothing for no words', () => {
    expect(queryTerms('how do I')).toEqual(['how', 'do', 'i']);
    expect(queryTerms(' ?! -- ')).toEqual([]);
  });
});

describe('buildLexicalQuery', () => {
  it('ORs quoted terms and adds a prefix phrase for the last one', () => {
    const q = buildLexicalQuery('why is the index slow');
    expect(q).toEqual({ match: '"index" OR "slow" OR "slow*"', terms: ['index', 'slow'], groups: [[0], [1, 2]] });
  });

  it('adds no prefix to a short last term or when asked not to', () => {
    expect(buildLexicalQuery('rebase ci')?.match).toBe('"rebase" OR "ci"');
    expect(buildLexicalQuery('rebase worktree', { prefixLast: false })?.groups).toEqual([[0], [1]]);
  });

  it('returns null when there is nothing to search for', () => {
    expect(buildLexicalQuery('  ...  ')).toBeNull();
  });

  it('quotes words that FTS would read as operators', () => {
    expect(buildLexicalQuery('flaky NEAR tests AND OR NOT')?.match).toBe('"flaky" OR "near" OR "tests" OR "tests*"');
  });
});

describe('decodeMatchinfo', () => {
  it('reads little-endian 32-bit unsigned integers', () => {
    const bytes = new Uint8Array([1, 0, 0, 0, 0, 1, 0, 0, 255, 255, 255, 255]);
    expect([...decodeMatchinfo(bytes)]).toEqual([1, 256, 4294967295]);
    // A view into a larger buffer, at an offset.
    const shifted = new Uint8Array([9, 9, 9, 9, 2, 0, 0, 0]).subarray(4);
    expect([...decodeMatchinfo(shifted)]).toEqual([2]);
  });
});

describe('bm25', () => {
  it('matches the BM25F formula on a hand-computed row', () => {
    // One term, twice in the summary (as long as average), once in the body (twice the average); 3 of 10 rows have it.
    const row = info(10, [5, 2, 20], [5, 2, 40], [[[2, 4, 3], none, [1, 5, 2]]]);
    const k1 = 1.2;
    const b = 0.75;
    const tf = (3 * 2) / 1 + (1 * 1) / (1 - b + b * 2);
    const expected = Math.log(1 + (10 - 3 + 0.5) / (3 + 0.5)) * ((tf * (k1 + 1)) / (tf + k1));
    expect(bm25(row)).toBeCloseTo(expected, 10);
    expect(bm25(row, { weights: DEFAULT_WEIGHTS, k1, b })).toBeCloseTo(expected, 10);
  });

  it('weights summary above tags above body', () => {
    const at = (col: number) => {
      const cols: Array<[number, number, number]> = [none, none, none];
      cols[col] = [1, 1, 1];
      return bm25(info(100, [6, 6, 6], [6, 6, 6], [cols]));
    };
    expect(at(0)).toBeGreaterThan(at(1));
    expect(at(1)).toBeGreaterThan(at(2));
    expect(at(2)).toBeGreaterThan(0);
  });

  it('prefers rarer terms, shorter rows, and saturates repetition', () => {
    const one = (df: number, len: number, hits: number) => bm25(info(100, [8, 3, 40], [8, 3, len], [[none, none, [hits, hits, df]]]));
    expect(one(2, 40, 1)).toBeGreaterThan(one(50, 40, 1));
    expect(one(5, 20, 1)).toBeGreaterThan(one(5, 80, 1));
    expect(one(5, 40, 2)).toBeGreaterThan(one(5, 40, 1));
    expect(one(5, 40, 40)).toBeLessThan(one(5, 40, 1) * (1.2 + 1));
    // Two different terms beat one term found twice.
    const twoTerms = bm25(info(100, [8, 3, 40], [8, 3, 40], [[[1, 1, 5], none, none], [[1, 1, 5], none, none]]));
    const sameTwice = bm25(info(100, [8, 3, 40], [8, 3, 40], [[[2, 2, 5], none, none], [none, none, none]]));
    expect(twoTerms).toBeGreaterThan(sameTwice);
  });

  it('scores a term group (exact and prefix phrase) as its better phrase, not their sum', () => {
    const row = info(50, [8, 3, 40], [8, 3, 40], [[[1, 1, 4], none, none], [[2, 3, 9], none, none]]);
    const exact = bm25(info(50, [8, 3, 40], [8, 3, 40], [[[1, 1, 4], none, none]]));
    const prefix = bm25(info(50, [8, 3, 40], [8, 3, 40], [[[2, 3, 9], none, none]]));
    expect(bm25(row, {}, [[0, 1]])).toBeCloseTo(Math.max(exact, prefix), 10);
    expect(bm25(row)).toBeCloseTo(exact + prefix, 10);
  });

  it('is zero without hits, copes with empty columns, and rejects a short array', () => {
    expect(bm25(info(10, [0, 0, 0], [0, 0, 0], [[none, none, none]]))).toBe(0);
    expect(Number.isFinite(bm25(info(1, [0, 0, 0], [1, 0, 0], [[[1, 1, 1], none, none]])))).toBe(true);
    expect(() => bm25([2, 3, 10, 1, 1, 1])).toThrow(/matchinfo/);
  });

  it('has a positive IDF even for a term in every row', () => {
    expect(idf(10, 10)).toBeGreaterThan(0);
    expect(idf(10, 1)).toBeGreaterThan(idf(10, 5));
  });
});

describe('against a real FTS4 table (the index schema)', () => {
  async function search(docs: Array<{ summary: string; tags: string[]; body: string }>, text: string): Promise<number[]> {
    const SQL = await loadSqlJs();
    const db = new SQL.Database();
    db.run(SCHEMA);
    docs.forEach((d, i) =>
      db.run(
        `INSERT INTO memories(key, ns, object, summary, body, tags, status, relates_to, created, updated, tiebreak) VALUES (?, 'decisions', 'o', ?, ?, ?, 'active', '[]', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', '')`,
        [String(i), d.summary, d.body, JSON.stringify(d.tags)],
      ),
    );
    db.run('INSERT INTO memories_fts(docid, summary, tags, body) SELECT id, summary, tags, body FROM memories');
    const q = buildLexicalQuery(text)!;
    const rows = db.exec(`SELECT m.key, matchinfo(memories_fts, 'pcnalx') FROM memories_fts JOIN memories m ON m.id = memories_fts.docid WHERE memories_fts MATCH ?`, [q.match])[0]?.values ?? [];
    db.close();
    return rows
      .map(([key, mi]) => ({ key: Number(key), score: bm25(decodeMatchinfo(mi as Uint8Array), {}, q.groups) }))
      .sort((a, b) => b.score - a.score)
      .map((r) => r.key);
  }

  const filler = 'Some unrelated words about the build, the release and the team calendar for next quarter.';

  it('ranks summary and tag matches above a body match', async () => {
    const docs = [
      { summary: 'Release calendar', tags: ['release'], body: `We looked at flaky tests last week. ${filler}` },
      { summary: 'Flaky sync suite', tags: ['sync'], body: filler },
      { summary: 'Quarter planning', tags: ['flaky'], body: filler },
    ];
    const order = await search(docs, 'flaky');
    expect(order).toHaveLength(3);
    expect(order[2]).toBe(0);
    // Same length, same words: the summary outweighs the tags.
    const twins = [
      { summary: 'Flaky suite', tags: ['calendar'], body: filler },
      { summary: 'Calendar suite', tags: ['flaky'], body: filler },
    ];
    expect(await search(twins, 'flaky')).toEqual([0, 1]);
  });

  it('treats operator words in a query as plain words', async () => {
    const docs = [
      { summary: 'Flaky sync suite', tags: [], body: filler },
      { summary: 'Meet near the office', tags: [], body: filler },
    ];
    expect((await search(docs, 'flaky NEAR office')).sort()).toEqual([0, 1]);
    expect(await search(docs, 'flaky AND NOT sync')).toEqual([0]);
  });

  it('stems (porter) and matches the last term as a prefix', async () => {
    const docs = [
      { summary: 'Cached notes trees', tags: [], body: filler },
      { summary: 'Worktrees share the index', tags: ['worktree'], body: filler },
      { summary: 'Nothing to see', tags: [], body: filler },
    ];
    expect(await search(docs, 'caching')).toEqual([0]);
    expect(await search(docs, 'worktr')).toEqual([1]);
  });

  it('finds memories with any of the terms, those with more terms first', async () => {
    const docs = [
      { summary: 'Lock file for the index', tags: [], body: filler },
      { summary: 'Retry on lock contention when writing the index', tags: [], body: filler },
      { summary: 'Rename is atomic', tags: [], body: filler },
    ];
    expect(await search(docs, 'why do we retry the index lock')).toEqual([1, 0]);
  });
});

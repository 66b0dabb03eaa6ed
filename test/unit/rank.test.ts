import { describe, expect, it } from 'vitest';
import { analyzeText, queryTerms, termOf, tokenize } from '../../src/core/search/analyzer.ts';
import { bm25f, bm25fScorer, DEFAULT_B, DEFAULT_K1, DEFAULT_WEIGHTS, idf, packFrequencies, type PostingsSource } from '../../src/core/search/bm25f.ts';
import { buildLexicalQuery, identifierPartWeights } from '../../src/core/search/query.ts';

/** An in-memory postings source: docs given as field frequencies per term, and field lengths. */
function source(docs: Array<{ len: [number, number, number]; tf: Record<string, [number, number, number]> }>): PostingsSource {
  const lists = new Map<string, number[]>();
  docs.forEach((d, i) => {
    for (const [term, f] of Object.entries(d.tf)) {
      if (!lists.has(term)) lists.set(term, []);
      lists.get(term)!.push(i, packFrequencies(...f));
    }
  });
  const lengths = new Uint32Array(docs.flatMap((d) => d.len));
  const averageLengths = [0, 1, 2].map((f) => docs.reduce((s, d) => s + d.len[f]!, 0) / docs.length);
  return {
    docCount: docs.length,
    averageLengths,
    lengths,
    postings: (t) => (lists.has(t) ? new Uint32Array(lists.get(t)!) : undefined),
    termsWithPrefix: (p) => [...lists.keys()].filter((t) => t.startsWith(p)).sort(),
  };
}

const filler = (n: number, len: [number, number, number] = [5, 2, 20]) => Array.from({ length: n }, () => ({ len, tf: { other: [1, 0, 0] as [number, number, number] } }));

describe('query terms', () => {
  it('lowercases ASCII and splits on anything but letters and digits', () => {
    expect(tokenize('Use sql.js, NOT better-sqlite3!')).toEqual(['use', 'sql', 'js', 'not', 'better', 'sqlite3']);
    expect(tokenize('snake_case   café')).toEqual(['snake', 'case', 'café']);
    expect(tokenize(`id ${'f'.repeat(80)} end`)).toEqual(['id', 'end']);
  });

  it('drops stop words and duplicates, keeping stop words when nothing else is left', () => {
    expect(queryTerms('Why did we choose the WASM database over the native one?')).toEqual(['choose', 'wasm', 'database', 'native']);
    expect(queryTerms('index index Index')).toEqual(['index']);
    expect(queryTerms('how do I')).toEqual(['how', 'do', 'i']);
    expect(queryTerms(' ?! -- ')).toEqual([]);
  });

  it('stems plain English words only', () => {
    expect(termOf('caching')).toBe('cach');
    expect(termOf('sqlite3')).toBe('sqlite3');
    expect(termOf('café')).toBe('café');
  });
});

describe('identifiers', () => {
  it('gives camelCase and snake_case identifiers as their parts, then whole', () => {
    expect(analyzeText('call getUserById now')).toEqual(['call', 'get', 'user', 'by', 'id', 'getuserbyid', 'now']);
    expect(analyzeText('parseHTTPRequest')).toEqual(['parse', 'http', 'request', 'parsehttprequest']);
    expect(analyzeText('the created_at column')).toEqual(['the', 'created', 'at', 'created_at', 'column']);
    expect(analyzeText('__init__ max_user_watches')).toEqual(['init', 'max', 'user', 'watches', 'max_user_watches']);
    expect(analyzeText('src/config/loadConfig.ts')).toEqual(['src', 'config', 'load', 'config', 'loadconfig', 'ts']);
  });

  it('leaves PascalCase names, versions and plain words as tokenize gives them', () => {
    expect(analyzeText('GitHub JavaScript HTTPServer iPhones v1.2 40M')).toEqual(['github', 'javascript', 'httpserver', 'iphones', 'v1', '2', '40m']);
    const plain = 'Use sql.js, NOT better-sqlite3! café';
    expect(analyzeText(plain)).toEqual(tokenize(plain));
    expect(analyzeText(`a${'B'.repeat(80)}`)).toEqual([]);
  });

  it('gives plain ASCII text the words the identifier-aware path gives it', () => {
    // Plain text takes a shorter path; an accented word at the end sends the same text down the general one.
    const texts = ['Connection POOL exhausted, v1.2 at 40M; see RFC-7231 (HTTPServer).', 'GitHub iPhones SQL 3D a1B', `${'x'.repeat(64)} ${'y'.repeat(65)} ${'Z'.repeat(70)}`, '  ', 'a', ''];
    for (const text of texts) {
      expect(analyzeText(`${text} é`)).toEqual([...analyzeText(text), 'é']);
    }
    expect(analyzeText('Cache MISS, x2')).toEqual(['cache', 'miss', 'x2']);
  });

  it('lets a query find an identifier by its words and by the identifier', () => {
    // (get and by are stop words.)
    expect(queryTerms('why does getUserById return null')).toEqual(['user', 'id', 'getuserbyid', 'return', 'null']);
    expect(buildLexicalQuery('loadConf')?.groups.at(-1)).toEqual({ term: 'loadconf', prefix: 'loadconf' });
  });
});

describe('buildLexicalQuery', () => {
  it('stems each word and adds the last one, as typed, as a prefix', () => {
    expect(buildLexicalQuery('why is the indexing slow', { related: false, compounds: false })).toEqual({ terms: ['indexing', 'slow'], groups: [{ term: 'index' }, { term: 'slow', prefix: 'slow' }] });
  });

  it('adds no prefix to a short last word or when asked not to, and gives null for no words', () => {
    expect(buildLexicalQuery('rebase ci', { related: false, compounds: false })?.groups).toEqual([{ term: 'rebas' }, { term: 'ci' }]);
    expect(buildLexicalQuery('rebase worktree', { prefixLast: false, related: false, compounds: false })?.groups).toEqual([{ term: 'rebas' }, { term: 'worktre' }]);
    expect(buildLexicalQuery('  ...  ')).toBeNull();
  });

  it('weighs an identifier\'s parts below the identifier typed whole (issue 38)', () => {
    expect(buildLexicalQuery('commonJSWhitelist', { related: false })?.groups).toEqual([
      { term: 'common', weight: 0.25 },
      { term: 'js', weight: 0.25, synonyms: ['javascript'] },
      { term: 'whitelist', weight: 0.25 },
      { term: 'commonjswhitelist', prefix: 'commonjswhitelist' },
    ]);
    // A part also typed as a word of its own keeps its whole weight; plain text has no parts.
    expect([...identifierPartWeights('common commonJSWhitelist')]).toEqual([
      ['js', 0.25],
      ['whitelist', 0.25],
    ]);
    expect([...identifierPartWeights('created_at is null')]).toEqual([['created', 0.5]]);
    expect(identifierPartWeights('why is the indexing slow').size).toBe(0);
  });
});

describe('packed frequencies', () => {
  it('packs summary, tags and body into 8, 8 and 16 bits, each capped (the term index file format)', () => {
    expect(packFrequencies(3, 1, 700)).toBe(0x030102bc);
    expect(packFrequencies(999, 300, 1e6)).toBe(0xffffffff);
  });
});

describe('bm25f', () => {
  it('matches the BM25F formula on a hand-computed document', () => {
    // One term: twice in the summary (average length), once in the body (twice the average); 3 of 10 documents have it.
    const docs = [
      { len: [5, 2, 40] as [number, number, number], tf: { flaky: [2, 0, 1] as [number, number, number] } },
      { len: [5, 2, 10] as [number, number, number], tf: { flaky: [0, 0, 1] as [number, number, number] } },
      { len: [5, 2, 10] as [number, number, number], tf: { flaky: [1, 0, 0] as [number, number, number] } },
      ...Array.from({ length: 7 }, () => ({ len: [5, 2, 20] as [number, number, number], tf: {} })),
    ];
    const s = source(docs);
    const k1 = 1.2;
    const b = 0.75;
    const weights = [3, 2, 1];
    const avgBody = s.averageLengths[2]!;
    const tf = (3 * 2) / 1 + (1 * 1) / (1 - b + (b * 40) / avgBody);
    const expected = Math.log(1 + (10 - 3 + 0.5) / (3 + 0.5)) * ((tf * (k1 + 1)) / (tf + k1));
    expect(bm25f(s, [{ term: 'flaky' }], { weights, k1, b })[0]).toBeCloseTo(expected, 10);
    // Without options: the defaults recall ranks with.
    expect(bm25f(s, [{ term: 'flaky' }])[0]).toBe(bm25f(s, [{ term: 'flaky' }], { weights: DEFAULT_WEIGHTS, k1: DEFAULT_K1, b: DEFAULT_B })[0]);
    expect(bm25f(s, [{ term: 'flaky' }])[0]).not.toBeCloseTo(expected, 3);
    expect([...bm25f(s, [{ term: 'flaky' }])].slice(3).every((x) => x === 0)).toBe(true);
  });

  it('weights summary and tags alike, above the body', () => {
    const s = source([
      { len: [6, 6, 6], tf: { x: [1, 0, 0] } },
      { len: [6, 6, 6], tf: { x: [0, 1, 0] } },
      { len: [6, 6, 6], tf: { x: [0, 0, 1] } },
      ...filler(20, [6, 6, 6]),
    ]);
    const [summary, tags, body] = bm25f(s, [{ term: 'x' }]);
    expect(summary).toBe(tags);
    expect(tags).toBeGreaterThan(body!);
    expect(body).toBeGreaterThan(0);
  });

  it('prefers rarer terms and shorter documents, saturates repetition, and counts two terms above one twice', () => {
    const s = source([
      { len: [8, 3, 40], tf: { rare: [0, 0, 1], common: [0, 0, 1] } },
      { len: [8, 3, 20], tf: { common: [0, 0, 1] } },
      { len: [8, 3, 80], tf: { common: [0, 0, 1] } },
      { len: [8, 3, 40], tf: { common: [0, 0, 2] } },
      { len: [8, 3, 40], tf: { common: [0, 0, 40] } },
      { len: [8, 3, 40], tf: { a: [1, 0, 0], b: [1, 0, 0] } },
      { len: [8, 3, 40], tf: { a: [2, 0, 0] } },
      ...filler(10),
    ]);
    const rare = bm25f(s, [{ term: 'rare' }]);
    const common = bm25f(s, [{ term: 'common' }]);
    expect(rare[0]).toBeGreaterThan(common[0]!);
    expect(common[1]).toBeGreaterThan(common[2]!);
    expect(common[3]).toBeGreaterThan(common[0]!);
    // However often a term repeats, it scores below IDF × (k1 + 1).
    expect(common[4]).toBeGreaterThan(common[3]!);
    expect(common[4]).toBeLessThan(idf(17, 5) * (1.2 + 1));
    const ab = bm25f(s, [{ term: 'a' }, { term: 'b' }]);
    expect(ab[5]).toBeGreaterThan(ab[6]!);
  });

  it('scores a word as the better of its term and its prefix, not their sum; a prefix counts its terms as one', () => {
    const s = source([
      { len: [8, 3, 40], tf: { cache: [1, 0, 0], cached: [1, 0, 0] } },
      { len: [8, 3, 40], tf: { cachey: [1, 0, 0] } },
      ...filler(8),
    ]);
    const exact = bm25f(s, [{ term: 'cache' }])[0]!;
    const both = bm25f(s, [{ term: 'cache', prefix: 'cache' }]);
    const prefixOnly = bm25f(s, [{ term: 'nothing', prefix: 'cache' }]);
    expect(both[0]).toBeCloseTo(Math.max(exact, prefixOnly[0]!), 10);
    expect(both[0]).toBeLessThan(exact + prefixOnly[0]!);
    // Prefix document frequency: two documents hold a term starting with "cache", whatever the number of terms.
    expect(prefixOnly[1]).toBeGreaterThan(0);
    expect(prefixOnly[0]).toBeGreaterThan(prefixOnly[1]!);
  });

  it('scores a later pass over the earlier matches only, with the IDF of all the documents', () => {
    const s = source([
      { len: [5, 2, 20], tf: { pool: [1, 0, 0], bouncer: [0, 0, 2] } },
      { len: [5, 2, 20], tf: { bouncer: [1, 0, 0] } },
      { len: [5, 2, 20], tf: { pool: [0, 0, 1] } },
      ...filler(5),
    ]);
    const score = bm25fScorer(s);
    const first = score([{ term: 'pool' }]);
    const before = [...first];
    const alone = bm25f(s, [{ term: 'bouncer' }, { term: 'x', synonyms: ['bouncer'] }]);
    const total = score([{ term: 'bouncer' }, { term: 'x', synonyms: ['bouncer'] }], first, true);
    expect(total).toBe(first);
    // Document 0 matched and gains what bouncer alone scores there; 1 (bouncer, no pool) stays out; 2 gains nothing.
    expect(total[0]! - before[0]!).toBeCloseTo(alone[0]!, 12);
    expect(alone[1]).toBeGreaterThan(0);
    expect(total[1]).toBe(0);
    expect(total[2]).toBe(before[2]);
  });

  it('lists the documents it brought above 0 while they are at most a quarter of the collection', () => {
    const s = source([
      { len: [5, 2, 20], tf: { pool: [1, 0, 0], cache: [1, 0, 0] } },
      { len: [5, 2, 20], tf: { cached: [1, 0, 0] } },
      { len: [5, 2, 20], tf: { cache: [0, 0, 1] } },
      ...filler(19),
      { len: [5, 2, 20], tf: { pool: [0, 1, 0] } },
    ]);
    const score = bm25fScorer(s);
    const scores = score([{ term: 'pool' }, { term: 'cache', prefix: 'cache' }]);
    const positive = [...scores.keys()].filter((d) => scores[d]! > 0);
    expect(positive).toEqual([0, 1, 2, 22]);
    expect([...score.matched()!].sort((a, b) => a - b)).toEqual(positive);
    // A later pass over the matches brings in none.
    score([{ term: 'other' }], scores, true);
    expect(score.matched()!.length).toBe(4);
    // The 19 memories saying "other" would make more than a quarter of 23.
    score([{ term: 'other' }], scores);
    expect(score.matched()).toBeNull();
    expect(bm25fScorer(s).matched()).toEqual(new Int32Array(0));
  });

  it('is zero for unknown terms, copes with empty fields, and has a positive IDF for a term everywhere', () => {
    const s = source([{ len: [0, 0, 0], tf: {} }, { len: [1, 0, 0], tf: { x: [1, 0, 0] } }]);
    expect([...bm25f(s, [{ term: 'nope', prefix: 'nop' }])]).toEqual([0, 0]);
    expect(Number.isFinite(bm25f(s, [{ term: 'x' }])[1]!)).toBe(true);
    expect(idf(10, 10)).toBeGreaterThan(0);
    expect(idf(10, 1)).toBeGreaterThan(idf(10, 5));
  });
});

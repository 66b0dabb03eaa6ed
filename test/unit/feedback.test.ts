import { describe, expect, it } from 'vitest';
import { DEFAULT_FEEDBACK, feedbackTerms } from '../../src/core/search/feedback.ts';
import { type LexicalSource, lexicalScores } from '../../src/core/search/lexical.ts';
import { buildLexicalQuery } from '../../src/core/search/query.ts';
import { packFrequencies } from '../../src/core/search/bm25f.ts';
import { termOf } from '../../src/core/search/analyzer.ts';

const df = (table: Record<string, number>) => (term: string) => table[term] ?? 0;

describe('feedbackTerms (RM3-style expansion)', () => {
  const top = [
    { score: 3, fields: ['Postgres ran out of connections', 'database', 'The pool was exhausted under load; PgBouncer fixed it.'] },
    { score: 1, fields: ['PgBouncer in transaction mode', '', 'Connections are pooled per transaction.'] },
  ];
  const freq = df({ pgbouncer: 2, pool: 3, connect: 40, postgr: 5, databas: 9, exhaust: 2, load: 4, transact: 3, mode: 6, fix: 8 });

  it('adds the words the best results share, weighted below the query and by the results’ scores', () => {
    const terms = feedbackTerms(['connect'], top, freq, 100, { ...DEFAULT_FEEDBACK, terms: 3 });
    // pgbouncer and pool (with pooled) in both results; then the best result's words, ties by term.
    expect(terms.map((t) => t.term)).toEqual(['pgbouncer', 'pool', 'databas']);
    expect(terms[0]!.weight).toBeCloseTo(DEFAULT_FEEDBACK.weight, 10);
    expect(terms[1]!.weight).toBeCloseTo(terms[0]!.weight!, 10);
    expect(terms[2]!.weight).toBeCloseTo((DEFAULT_FEEDBACK.weight * 2) / 3, 10);
  });

  it('leaves out the query’s own terms, stop words, numbers, words in one memory only and words in too many', () => {
    const terms = feedbackTerms(['connect', 'pgbouncer'], [{ score: 1, fields: ['the 42 pool of unique connections', '', 'pool'] }], df({ pool: 50, uniqu: 1 }), 100, DEFAULT_FEEDBACK);
    expect(terms).toEqual([]);
    const some = feedbackTerms(['connect'], [{ score: 1, fields: ['the 42 pool of unique connections', '', 'pool'] }], df({ pool: 5, uniqu: 1 }), 100, DEFAULT_FEEDBACK);
    expect(some.map((t) => t.term)).toEqual(['pool']);
  });

  it('adds nothing without scored results or when asked for no terms', () => {
    expect(feedbackTerms(['x'], [], freq, 100)).toEqual([]);
    expect(feedbackTerms(['x'], [{ score: 0, fields: ['pool'] }], freq, 100)).toEqual([]);
    expect(feedbackTerms(['x'], top, freq, 100, { ...DEFAULT_FEEDBACK, terms: 0 })).toEqual([]);
  });

  it('learns only from the given number of results', () => {
    const terms = feedbackTerms(['connect'], top, freq, 100, { ...DEFAULT_FEEDBACK, docs: 1, terms: 20 });
    expect(terms.map((t) => t.term)).not.toContain('transact');
  });
});

describe('lexicalScores with feedback', () => {
  // Four memories: 0 and 1 say "pool exhausted"; 2 says "pool" and "pgbouncer"; 3 says only "pgbouncer".
  const texts = [
    ['pool exhausted', '', 'pgbouncer transaction mode'],
    ['pool exhausted again', '', 'pgbouncer transaction'],
    ['pool size', '', 'pgbouncer'],
    ['pgbouncer upgrade', '', 'transaction mode'],
  ];
  const lists = new Map<string, number[]>();
  texts.forEach((fields, d) => {
    const f = new Map<string, number[]>();
    fields.forEach((text, i) => text.split(' ').filter(Boolean).forEach((w) => {
      const t = termOf(w);
      if (!f.has(t)) f.set(t, [0, 0, 0]);
      f.get(t)![i]!++;
    }));
    for (const [t, v] of f) lists.set(t, [...(lists.get(t) ?? []), d, packFrequencies(v[0]!, v[1]!, v[2]!)]);
  });
  const source: LexicalSource = {
    docCount: texts.length,
    averageLengths: [2, 1, 2],
    lengths: new Uint32Array(texts.flatMap((f) => f.map((t) => t.split(' ').filter(Boolean).length))),
    postings: (t) => (lists.has(t) ? new Uint32Array(lists.get(t)!) : undefined),
    termsWithPrefix: () => [],
    docFrequency: (t) => (lists.get(t)?.length ?? 0) / 2,
    fieldTexts: (d) => texts[d]!,
  };
  const query = buildLexicalQuery('pool', { prefixLast: false })!;
  const feedback = { docs: 2, terms: 3, weight: 0.5, maxDocShare: 1 };

  it('moves up a match that shares the best results’ words, and brings in no memory without a query word', () => {
    const plain = lexicalScores(source, query, () => true, { feedback: false });
    const fed = lexicalScores(source, query, () => true, { feedback });
    expect(plain[3]).toBe(0);
    expect(fed[3]).toBe(0);
    expect(fed[2]! - plain[2]!).toBeGreaterThan(0);
    expect(fed[0]! - plain[0]!).toBeGreaterThan(fed[2]! - plain[2]!);
  });

  it('learns only from the memories the filter accepts', () => {
    const fed = lexicalScores(source, query, (d) => d === 2, { feedback });
    const plain = lexicalScores(source, query, () => true, { feedback: false });
    // Memory 2 alone: its words (size, pgbouncer) are added; memories 0 and 1 gain by pgbouncer only.
    expect(fed[2]! - plain[2]!).toBeGreaterThan(fed[0]! - plain[0]!);
  });
});

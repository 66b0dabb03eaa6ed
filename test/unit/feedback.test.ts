import { describe, expect, it } from 'vitest';
import { DEFAULT_FEEDBACK, feedbackTerms } from '../../src/core/feedback.ts';

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

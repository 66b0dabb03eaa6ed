import { describe, expect, it } from 'vitest';
import { termOf } from '../../src/core/search/analyzer.ts';
import { MAX_PHRASES, phraseCount, phraseTerms, quotedPhrases } from '../../src/core/search/phrases.ts';
import { buildLexicalQuery } from '../../src/core/search/query.ts';

describe('quoted phrases', () => {
  it('reads the words between double quotes, straight or curly, as phrases of two words or more, each once', () => {
    expect(quotedPhrases('why is the "Connection Pool" so small')).toEqual([{ text: 'connection pool', terms: [termOf('connection'), termOf('pool')] }]);
    expect(quotedPhrases('“rate limiting” and "rate limiting" again').map((p) => p.text)).toEqual(['rate limiting']);
    // One word is no phrase; an open quote runs to the end; stop words are part of the phrase.
    expect(quotedPhrases('the "flaky" test')).toEqual([]);
    expect(quotedPhrases('error "out of memory').map((p) => p.terms)).toEqual([['out', 'of', 'memori']]);
    expect(quotedPhrases('no quotes here')).toEqual([]);
    const many = Array.from({ length: MAX_PHRASES + 3 }, (_, i) => `"word${i} next${i}"`).join(' ');
    expect(quotedPhrases(many)).toHaveLength(MAX_PHRASES);
  });

  it('counts a phrase where its words are adjacent and in order, in any of their forms', () => {
    const [phrase] = quotedPhrases('"connection pool"');
    expect(phraseCount(phraseTerms('Raise the connection pool size; the connection pools were full'), phrase!)).toBe(2);
    expect(phraseCount(phraseTerms('the pool of connections'), phrase!)).toBe(0);
    expect(phraseCount(phraseTerms('connection to the pool'), phrase!)).toBe(0);
    // Adjacent but in the other order.
    expect(phraseCount(phraseTerms('the pool connection was reset'), phrase!)).toBe(0);
    expect(phraseCount(phraseTerms(''), phrase!)).toBe(0);
  });

  it('goes with the query, except for callers that compare the words themselves', () => {
    expect(buildLexicalQuery('"connection pool" size')!.phrases).toEqual(quotedPhrases('"connection pool"'));
    expect(buildLexicalQuery('connection pool size')!.phrases).toBeUndefined();
    expect(buildLexicalQuery('"connection pool"', { synonyms: false })!.phrases).toBeUndefined();
  });
});

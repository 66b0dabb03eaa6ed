import { describe, expect, it } from 'vitest';
import { bm25f, packFrequencies, type PostingsSource } from '../../src/core/search/bm25f.ts';
import { buildLexicalQuery, SYNONYM_WEIGHT, synonymsOf } from '../../src/core/search/query.ts';
import { termOf } from '../../src/core/search/analyzer.ts';
import { SYNONYM_GROUPS, synonymTable } from '../../src/core/search/synonyms.ts';

describe('synonyms', () => {
  it('maps each word of a group to the index terms of the others', () => {
    expect(synonymsOf('db')).toEqual(expect.arrayContaining([termOf('database')]));
    expect(synonymsOf('database')).toContain('db');
    expect(synonymsOf('k8s')).toContain(termOf('kubernetes'));
    expect(synonymsOf('authentication')).toEqual(expect.arrayContaining(['auth', termOf('login')]));
    // Its own term is not among them, even when another spelling stems to it (databases, database).
    expect(synonymsOf('database')).not.toContain(termOf('database'));
    expect(synonymsOf('zebra')).toEqual([]);
  });

  it('keeps single words only, and merges a word found in two groups', () => {
    const table = synonymTable();
    expect(table.has('end-to-end')).toBe(false);
    expect([...table.values()].flat().some((t) => t.includes('-'))).toBe(false);
    for (const group of SYNONYM_GROUPS) {
      expect(group.length).toBeGreaterThanOrEqual(2);
      for (const w of group) expect(w).toBe(w.toLowerCase());
    }
    const counts = new Map<string, number>();
    for (const w of SYNONYM_GROUPS.flat()) counts.set(w, (counts.get(w) ?? 0) + 1);
    for (const [w, n] of counts) if (n > 1) expect(table.get(w)!.length).toBeGreaterThan(0);
  });

  it('puts synonyms in the query word’s group, not twice when the query holds both words', () => {
    expect(buildLexicalQuery('db pool')?.groups[0]).toEqual({ term: 'db', synonyms: expect.arrayContaining([termOf('database')]) });
    const both = buildLexicalQuery('db database pool')!;
    expect(both.groups[0]!.synonyms ?? []).not.toContain(termOf('database'));
    expect(buildLexicalQuery('db pool', { synonyms: false })?.groups[0]).toEqual({ term: 'db' });
  });

  it('scores a synonym’s match below the word’s own, and a group as its best match only', () => {
    const lists = new Map([
      ['db', [0, packFrequencies(1, 0, 0)]],
      [termOf('database'), [1, packFrequencies(1, 0, 0), 2, packFrequencies(1, 0, 0)]],
    ]);
    const s: PostingsSource = {
      docCount: 4,
      averageLengths: [1, 1, 1],
      lengths: new Uint32Array(12).fill(1),
      postings: (t) => (lists.has(t) ? new Uint32Array(lists.get(t)!) : undefined),
      termsWithPrefix: () => [],
    };
    const plain = bm25f(s, [{ term: termOf('database') }]);
    const viaSynonym = bm25f(s, [{ term: 'db', synonyms: [termOf('database')] }]);
    expect(viaSynonym[1]).toBeCloseTo(plain[1]! * SYNONYM_WEIGHT, 10);
    expect(viaSynonym[0]).toBeGreaterThan(0);
    expect(viaSynonym[3]).toBe(0);
    // A document holding both words scores its better match, not the sum.
    lists.set('db', [0, packFrequencies(1, 0, 0), 1, packFrequencies(1, 0, 0)]);
    const both = bm25f(s, [{ term: 'db', synonyms: [termOf('database')] }]);
    expect(both[1]).toBeCloseTo(bm25f(s, [{ term: 'db' }])[1]!, 10);
  });
});

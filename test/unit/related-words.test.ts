import { describe, expect, it } from 'vitest';
import { termOf } from '../../src/core/search/analyzer.ts';
import { bm25f, packFrequencies, type PostingsSource, RELATED_MAX_SHARE } from '../../src/core/search/bm25f.ts';
import { matchText } from '../../src/core/search/explain.ts';
import { EVERYDAY_WORDS } from '../../src/core/search/everyday-words.ts';
import {
  buildLexicalQuery,
  EVERYDAY_COUNT,
  EVERYDAY_WEIGHT,
  everydayTerms,
  GENERAL_SIMILARITY,
  RELATED_COUNT,
  RELATED_WEIGHT,
  relatedSource,
  relatedTerms,
  SYNONYM_WEIGHT,
} from '../../src/core/search/query.ts';
import { RELATED_WORDS } from '../../src/core/search/related-words.ts';

describe('related words', () => {
  it('is a compact table of sorted, distinct index terms: neighbours with similarities, then general synonyms without', () => {
    expect(RELATED_WORDS.length).toBeLessThanOrEqual(300 * 1024);
    const lines = RELATED_WORDS.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(1000);
    const heads = lines.map((l) => l.split('|')[0]!);
    expect([...heads].sort()).toEqual(heads);
    expect(new Set(heads).size).toBe(heads.length);
    for (const line of lines) {
      const [head, rest] = line.split('|');
      const pairs = rest!.split(' ');
      expect(head).toMatch(/^[a-z]{3,}$/);
      expect(pairs.length).toBeGreaterThan(0);
      for (const p of pairs) expect(p).toMatch(/^[a-z]{3,}(:\d{2,3})?$/);
      // Those with a similarity first.
      const general = pairs.findIndex((p) => !p.includes(':'));
      if (general >= 0) for (const p of pairs.slice(general)) expect(p).not.toContain(':');
      // No word in both lists, twice in one, or as its own relation.
      const words = pairs.map((p) => p.split(':')[0]!);
      expect(new Set(words).size).toBe(words.length);
      expect(words).not.toContain(head);
    }
  });

  it('finds a term’s neighbours, strongest first, then its general synonyms, and nothing for an unknown term', () => {
    const crash = relatedTerms(termOf('crash'));
    expect(crash.neighbours.map((r) => r[0])).toContain(termOf('segfault'));
    for (const [, s] of crash.neighbours) expect(s).toBeGreaterThan(0.1), expect(s).toBeLessThanOrEqual(1);
    expect(crash.neighbours.map((r) => r[1])).toEqual([...crash.neighbours.map((r) => r[1])].sort((a, b) => b - a));
    // WordNet: relocate is move, which developer text alone did not say.
    expect(relatedTerms(termOf('relocate')).general).toContain(termOf('move'));
    expect(relatedTerms(termOf('relocate')).neighbours.map((r) => r[0])).not.toContain(termOf('move'));
    expect(relatedTerms('zzqxv')).toEqual({ neighbours: [], general: [] });
    // Which list a word is in: explain labels each kind.
    expect(relatedSource(termOf('relocate'), termOf('move'))).toBe('general');
    expect(relatedSource(termOf('crash'), termOf('segfault'))).toBe('developer');
    expect(relatedSource(termOf('refuse'), termOf('deny'))).toBe('everyday');
    expect(relatedSource('zzqxv', termOf('move'))).toBeNull();
    // A prefix of a listed term is not that term.
    expect(relatedTerms(termOf('crash').slice(0, 3))).not.toEqual(crash);
  });

  it('adds them to the word’s group at RELATED_WEIGHT × similarity, never a query word or synonym, and only with synonyms', () => {
    const group = buildLexicalQuery('crash report')!.groups[0]!;
    expect(group.term).toBe(termOf('crash'));
    const crash = relatedTerms(termOf('crash'));
    const everyday = everydayTerms(termOf('crash'));
    expect(group.related!.length).toBeLessThanOrEqual(RELATED_COUNT + crash.general.length + EVERYDAY_COUNT);
    const table = new Map([...crash.neighbours, ...crash.general.map((t): [string, number] => [t, GENERAL_SIMILARITY])].map(([t, s]) => [t, RELATED_WEIGHT * s]));
    for (const [t, cos] of everyday) table.set(t, EVERYDAY_WEIGHT * cos);
    for (const [t, w] of group.related!) expect(w).toBeCloseTo(table.get(t)!, 10);
    // The everyday neighbours come after the related words.
    expect(group.related!.slice(-everyday.length).map(([t]) => t)).toEqual(everyday.slice(0, EVERYDAY_COUNT).map(([t]) => t));
    const withNeighbour = buildLexicalQuery('crash segfault')!;
    expect((withNeighbour.groups[0]!.related ?? []).map((r) => r[0])).not.toContain(termOf('segfault'));
    expect(buildLexicalQuery('crash', { synonyms: false })!.groups[0]!.related).toBeUndefined();
    expect(buildLexicalQuery('crash', { related: false })!.groups[0]!.related).toBeUndefined();
    expect(buildLexicalQuery('crash', { related: { weight: 1, count: 1, general: 0, everyday: { weight: 0, count: 4 } } })!.groups[0]!.related).toHaveLength(1);
    // General synonyms are not counted in `count`, and weigh `weight` × `general`.
    const relocate = buildLexicalQuery('relocate', { related: { weight: 2, count: 0, general: 0.25, everyday: { weight: 0, count: 4 } } })!.groups[0]!.related!;
    expect(relocate).toContainEqual([termOf('move'), 0.5]);
    expect(relocate.every(([, w]) => w === 0.5)).toBe(true);
  });

  it('scores a related word’s match at its weight, a group as its best match, and says so when explaining', () => {
    const lists = new Map([
      ['crash', [0, packFrequencies(1, 0, 0)]],
      ['segfault', [1, packFrequencies(1, 0, 0), 2, packFrequencies(1, 0, 0)]],
    ]);
    const s: PostingsSource = {
      docCount: 4,
      averageLengths: [1, 1, 1],
      lengths: new Uint32Array(12).fill(1),
      postings: (t) => (lists.has(t) ? new Uint32Array(lists.get(t)!) : undefined),
      termsWithPrefix: () => [],
    };
    const plain = bm25f(s, [{ term: 'segfault' }]);
    const viaRelated = bm25f(s, [{ term: 'crash', related: [['segfault', 0.4]] }]);
    expect(viaRelated[1]).toBeCloseTo(plain[1]! * 0.4, 10);
    expect(viaRelated[0]).toBeGreaterThan(viaRelated[1]!);
    expect(viaRelated[3]).toBe(0);
    // With a synonym too, the better of the two counts.
    const both = bm25f(s, [{ term: 'crash', synonyms: ['segfault'], related: [['segfault', 0.4]] }]);
    expect(both[1]).toBeCloseTo(plain[1]! * SYNONYM_WEIGHT, 10);
    expect(matchText({ word: 'crash', kind: 'related', terms: ['segfault'], frequencies: [1, 0, 0], fields: [1.5, 0, 0], idf: 1.2, weight: 0.4, score: 0.5 })).toBe(
      'crash → segfault (related word) ×0.4: summary tf 1 (1.5); idf 1.2 = 0.5',
    );
  });

  it('leaves out a related word found in more than RELATED_MAX_SHARE of the memories', () => {
    const n = 100;
    const common = Array.from({ length: Math.floor(n * RELATED_MAX_SHARE) + 1 }, (_, d) => [d, packFrequencies(1, 0, 0)]).flat();
    const rare = [50, packFrequencies(1, 0, 0)];
    const lists = new Map([
      ['common', common],
      ['rare', rare],
    ]);
    const s: PostingsSource = {
      docCount: n,
      averageLengths: [1, 1, 1],
      lengths: new Uint32Array(n * 3).fill(1),
      postings: (t) => (lists.has(t) ? new Uint32Array(lists.get(t)!) : undefined),
      termsWithPrefix: () => [],
    };
    const scores = bm25f(s, [{ term: 'crash', related: [['common', 0.5], ['rare', 0.5]] }]);
    expect(scores[0]).toBe(0);
    expect(scores[50]).toBeGreaterThan(0);
    // One fewer memory and it counts.
    lists.set('common', common.slice(2));
    expect(bm25f(s, [{ term: 'crash', related: [['common', 0.5]] }])[1]).toBeGreaterThan(0);
  });

  it('keeps everyday neighbours in a compact table of sorted, distinct terms, none among the term’s related words', () => {
    expect(EVERYDAY_WORDS.length).toBeLessThanOrEqual(200 * 1024);
    const lines = EVERYDAY_WORDS.split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(1000);
    const heads = lines.map((l) => l.split('|')[0]!);
    expect([...heads].sort()).toEqual(heads);
    expect(new Set(heads).size).toBe(heads.length);
    const developer = new Set(RELATED_WORDS.split('\n').filter(Boolean).map((l) => l.split('|')[0]!));
    for (const line of lines) {
      const [head, rest] = line.split('|');
      const entries = rest!.split(' ').map((e) => e.split(':'));
      expect(head).toMatch(/^[a-z]{2,}$/);
      expect(entries.length).toBeGreaterThan(0);
      expect(entries.length).toBeLessThanOrEqual(EVERYDAY_COUNT);
      const cosines = entries.map(([, c]) => Number(c));
      expect([...cosines].sort((a, b) => b - a)).toEqual(cosines);
      for (const [t, c] of entries) {
        // Values are terms of the related-words table: words developer text uses.
        expect(developer.has(t!)).toBe(true);
        expect(Number(c)).toBeGreaterThanOrEqual(65);
      }
      const related = relatedTerms(head!);
      const words = entries.map(([t]) => t!);
      expect(new Set(words).size).toBe(words.length);
      expect(words).not.toContain(head);
      for (const t of words) expect([...related.neighbours.map(([n]) => n), ...related.general]).not.toContain(t);
    }
  });

  it('adds a word’s everyday neighbours at EVERYDAY_WEIGHT × cosine, at most `count`, and none with weight 0 or without synonyms', () => {
    const refuse = everydayTerms(termOf('refuse'));
    expect(refuse.map(([t]) => t)).toContain(termOf('deny'));
    for (const [, cos] of refuse) expect(cos).toBeGreaterThanOrEqual(0.65), expect(cos).toBeLessThanOrEqual(1);
    expect(everydayTerms('zzqxv')).toEqual([]);
    // A prefix of a listed term is not that term.
    expect(everydayTerms(termOf('refuse').slice(0, 4))).toEqual([]);
    const group = buildLexicalQuery('refuses')!.groups[0]!;
    expect(group.related).toContainEqual([termOf('deny'), EVERYDAY_WEIGHT * refuse.find(([t]) => t === termOf('deny'))![1]]);
    const two = buildLexicalQuery('refuses', { related: { weight: RELATED_WEIGHT, count: RELATED_COUNT, everyday: { weight: 1, count: 2 } } })!.groups[0]!.related!;
    expect(two.filter(([t]) => relatedSource(termOf('refuse'), t) === 'everyday')).toEqual(refuse.slice(0, 2));
    const none = buildLexicalQuery('refuses', { related: { weight: RELATED_WEIGHT, count: RELATED_COUNT, everyday: { weight: 0, count: 4 } } })!.groups[0]!.related ?? [];
    expect(none.map(([t]) => t)).not.toContain(termOf('deny'));
    // A query word is never its own expansion, nor is a word the query also holds.
    expect((buildLexicalQuery('refuses denied')!.groups[0]!.related ?? []).map(([t]) => t)).not.toContain(termOf('deny'));
    expect(buildLexicalQuery('refuses', { synonyms: false })!.groups[0]!.related).toBeUndefined();
  });
});

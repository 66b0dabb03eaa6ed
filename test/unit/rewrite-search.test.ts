import { describe, expect, it } from 'vitest';
import { coveringPaths, epochSeconds, MAX_PATHSPEC, pathsKey, sameAuthor, searchPaths, searchSince, WINDOW_SLACK_S, worthPatchId } from '../../src/core/history/rewrite-search.ts';

describe('searchSince', () => {
  it('starts a day before the oldest orphan: its commit time, else its memory creation', () => {
    expect(searchSince([{ time: 5_000_000, paths: [] }, { created: 4_000_000, paths: [] }])).toBe(4_000_000 - WINDOW_SLACK_S);
    // The commit time wins over the creation when both are known (a memory captured long after its commit).
    expect(searchSince([{ time: 3_000_000, created: 9_000_000, paths: [] }])).toBe(3_000_000 - WINDOW_SLACK_S);
  });

  it('is undefined when no orphan has a time: nothing bounded to search', () => {
    expect(searchSince([{ paths: ['a'] }])).toBeUndefined();
    expect(searchSince([])).toBeUndefined();
  });
});

describe('searchPaths', () => {
  it('is every orphan\'s files, sorted and once each', () => {
    expect(searchPaths([{ paths: ['b', 'a'] }, { paths: ['a', 'c'] }])).toEqual(['a', 'b', 'c']);
  });

  it('is undefined when one orphan\'s files are unknown, or there are too many for a pathspec', () => {
    expect(searchPaths([{ paths: ['a'] }, { paths: [] }])).toBeUndefined();
    expect(searchPaths([{ paths: Array.from({ length: MAX_PATHSPEC + 1 }, (_, i) => `f${i}`) }])).toBeUndefined();
  });
});

describe('worthPatchId', () => {
  it('picks the candidates that changed exactly an orphan\'s files, in any order', () => {
    const candidates = new Map([
      ['c1', ['b', 'a']],
      ['c2', ['a']],
      ['c3', ['a', 'b', 'c']],
      ['c4', []],
    ]);
    expect(worthPatchId([['a', 'b']], candidates)).toEqual(['c1']);
    expect(worthPatchId([['a', 'b'], ['a']], candidates)).toEqual(['c1', 'c2']);
    expect(worthPatchId([[]], candidates)).toEqual([]);
  });

  it('keys file sets whatever their order and repeats', () => {
    expect(pathsKey(['b', 'a', 'b'])).toBe(pathsKey(['a', 'b']));
  });
});

describe('sameAuthor', () => {
  it('compares e-mail addresses, case aside, else whole identities', () => {
    expect(sameAuthor('Ann <Ann@Example.com>', 'Ann B. <ann@example.com>')).toBe(true);
    expect(sameAuthor('Bob <bob@example.com>', 'Ann <ann@example.com>')).toBe(false);
    expect(sameAuthor('ann', 'ann')).toBe(true);
    expect(sameAuthor(undefined, 'Ann <ann@example.com>')).toBe(false);
  });
});

describe('epochSeconds', () => {
  it('reads ISO-8601 times, and nothing else', () => {
    expect(epochSeconds('2024-01-01T00:00:00Z')).toBe(1_704_067_200);
    expect(epochSeconds('')).toBeUndefined();
  });
});

describe('coveringPaths', () => {
  const candidates = new Map<string, string[]>([
    ['c1', ['a.ts', 'b.ts', 'c.ts']],
    ['c2', ['a.ts']],
    ['c3', ['b.ts']],
    ['c4', ['a.ts', 'x.ts']],
  ]);
  it('keeps the candidates holding every recorded file of some orphan, newest (first) first, at most max', () => {
    expect(coveringPaths([['a.ts']], candidates, 10)).toEqual(['c1', 'c2', 'c4']);
    expect(coveringPaths([['a.ts', 'b.ts'], ['x.ts']], candidates, 10)).toEqual(['c1', 'c4']);
    expect(coveringPaths([['a.ts']], candidates, 2)).toEqual(['c1', 'c2']);
  });
  it('an orphan with no recorded files covers nothing', () => {
    expect(coveringPaths([[]], candidates, 10)).toEqual([]);
  });
});

import { describe, expect, it } from 'vitest';
import { advance, describeStale, linesChangedWithin, MAX_TOUCHING, parseHunks, parseRenames, staleness, TouchIndex, type TouchingCommit } from '../../src/core/history/staleness.ts';
import { prng } from '../helpers/prng.ts';
import { countEdits, lineCounts, similarity } from '../../src/core/history/line-diff.ts';

describe('staleness', () => {
  const since = { commit: 'c0', time: 100 };
  const touching = [
    { commit: 'c2', time: 300, paths: ['a.ts'] },
    { commit: 'c1', time: 200, paths: ['b.ts'] },
  ];

  it('is null while the files are as the commit left them, and counts lines and the commits since otherwise', () => {
    expect(staleness(['a.ts'], since, [], touching)).toBeNull();
    expect(staleness(['a.ts'], since, [{ path: 'other.ts', added: 3, removed: 0, status: 'M' }], touching)).toBeNull();
    expect(staleness(['a.ts'], since, [{ path: 'a.ts', added: 3, removed: 2, status: 'M' }], touching)).toEqual({ commits: 1, lines: 5, deleted: [] });
    const gone = staleness(['a.ts', 'b.ts'], since, [{ path: 'b.ts', added: 0, removed: 4, status: 'D' }], touching)!;
    expect(gone).toEqual({ commits: 2, lines: 4, deleted: ['b.ts'] });
    expect(describeStale(gone)).toBe('b.ts deleted since');
  });

  it('says "at least" when the window of commits ends before the memory', () => {
    const many = Array.from({ length: MAX_TOUCHING }, (_, i) => ({ commit: `x${i}`, time: 100_000 - i, paths: ['a.ts'] }));
    const s = staleness(['a.ts'], since, [{ path: 'a.ts', added: 1, removed: 0, status: 'M' }], many)!;
    expect(s.atLeast).toBe(true);
    expect(describeStale(s)).toBe(`at least ${MAX_TOUCHING} commits, 1 line since`);
  });

  it('calls a renamed file moved, not deleted, and counts no lines for the move', () => {
    const moves = parseRenames('R100\0src/util.py\0lib/util.py\0R087\0a b.py\0c.py\0');
    expect([...moves]).toEqual([['src/util.py', 'lib/util.py'], ['a b.py', 'c.py']]);
    const s = staleness(['src/util.py'], since, [{ path: 'src/util.py', added: 0, removed: 2, status: 'D' }], touching, moves)!;
    expect(s).toEqual({ commits: 1, lines: 0, deleted: [], moved: [{ from: 'src/util.py', to: 'lib/util.py' }] });
    expect(describeStale(s)).toBe('src/util.py moved to lib/util.py since');
    expect(describeStale({ ...s, lines: 3 })).toBe('1 commit, 3 lines since; src/util.py moved to lib/util.py');
  });
});

describe('staleness carried to a later place', () => {
  it('adds the commits between to those counted before, and takes the files as they are now', () => {
    const now = { commits: 1, lines: 7, deleted: [] };
    expect(advance({ commits: 3, lines: 2, deleted: [] }, 2, now)).toEqual({ commits: 5, lines: 7, deleted: [] });
    expect(advance(null, 1, now)).toEqual({ commits: 1, lines: 7, deleted: [] });
    expect(advance({ commits: 40, atLeast: true, lines: 2, deleted: [] }, 1, now)).toEqual({ commits: 41, atLeast: true, lines: 7, deleted: [] });
    // Changed and changed back: fresh again.
    expect(advance({ commits: 3, lines: 2, deleted: [] }, 1, null)).toBeNull();
  });

  it('says "N commits since" when the lines were not counted', () => {
    expect(describeStale({ commits: 2, deleted: [] })).toBe('2 commits since');
    expect(staleness(['a.ts'], { commit: 'c0', time: 100 }, [{ path: 'a.ts', status: 'M' }], [{ commit: 'c1', time: 200, paths: ['a.ts'] }])).toEqual({ commits: 1, deleted: [] });
  });
});

describe('line counts', () => {
  const text = (...lines: string[]) => Buffer.from(lines.map((l) => `${l}\n`).join(''));

  it('counts as git diff --numstat does: the fewest lines removed and added', () => {
    expect(lineCounts(text('a', 'b', 'c'), text('a', 'b', 'c'))).toEqual({ added: 0, removed: 0 });
    expect(lineCounts(text('a', 'b', 'c'), text('a', 'x', 'c'))).toEqual({ added: 1, removed: 1 });
    expect(lineCounts(text('a', 'b', 'c'), text('a', 'b', 'c', 'd', 'e'))).toEqual({ added: 2, removed: 0 });
    expect(lineCounts(text('a', 'b', 'c', 'd'), text('b', 'd'))).toEqual({ added: 0, removed: 2 });
    expect(lineCounts(null, text('a', 'b'))).toEqual({ added: 2, removed: 0 });
    expect(lineCounts(text('a', 'b', 'c'), null)).toEqual({ added: 0, removed: 3 });
    // A moved block is removed in one place and added in another.
    expect(countEdits(['a', 'b', 'c', 'd'], ['c', 'd', 'a', 'b'])).toEqual({ added: 2, removed: 2 });
  });

  it('tells how much of a file another one keeps', () => {
    expect(similarity(text('a', 'b', 'c', 'd'), text('a', 'b', 'c', 'd'))).toBe(1);
    expect(similarity(text('a', 'b', 'c', 'd'), text('a', 'b', 'x', 'y'))).toBe(0.5);
    expect(similarity(text('a', 'b'), text('x', 'y', 'z'))).toBe(0);
  });

  it('counts a changed binary file as one line, as the numstat reader does', () => {
    expect(lineCounts(Buffer.from([0, 1, 2]), Buffer.from([0, 1, 3]))).toEqual({ added: 1, removed: 0 });
  });

  it('stays exact on long files with scattered edits', () => {
    const a = Array.from({ length: 5000 }, (_, i) => `line ${i}`);
    const b = a.map((l, i) => (i % 100 === 0 ? `${l} changed` : l));
    expect(countEdits(a, b)).toEqual({ added: 50, removed: 50 });
  });
});

describe('line ranges', () => {
  const hunks = parseHunks('diff --git a/x b/x\n@@ -2 +2 @@\n-b\n+B\n@@ -5,0 +6,2 @@\n+n\n+m\n@@ -9,3 +11,0 @@\n');
  it('reads -U0 hunk headers, a count of one left out', () => {
    expect(hunks).toEqual([{ start: 2, removed: 1, added: 1 }, { start: 5, removed: 0, added: 2 }, { start: 9, removed: 3, added: 0 }]);
  });
  it('counts the hunks that change or insert within the lines, not those beside them', () => {
    expect(linesChangedWithin(hunks, [[1, 1]])).toBe(0);
    expect(linesChangedWithin(hunks, [[2, 2]])).toBe(2);
    // An insertion after line 5 is inside 4-6, not inside 5-5 (it follows the range).
    expect(linesChangedWithin(hunks, [[4, 6]])).toBe(2);
    expect(linesChangedWithin(hunks, [[5, 5]])).toBe(0);
    expect(linesChangedWithin(hunks, [[11, 20]])).toBe(3);
    expect(linesChangedWithin(hunks, [[3, 4], [12, 12]])).toBe(0);
  });
});

describe('TouchIndex.count', () => {
  it('counts the commits since a memory that changed its files, as a scan of the window does, whatever the clocks say', () => {
    const next = prng(38);
    const files = ['a.ts', 'b.ts', 'c.ts', 'd.ts'];
    for (let round = 0; round < 200; round++) {
      // Newest first as git log gives them, with times that sometimes disagree (clock skew) and ties.
      const window: TouchingCommit[] = Array.from({ length: 1 + Math.floor(next() * 40) }, (_, i) => ({
        commit: `c${round}-${i}`,
        time: 1000 - i * 2 + Math.floor(next() * 5) - 2,
        paths: files.filter(() => next() < 0.4),
      }));
      const index = new TouchIndex(window);
      const since = window[Math.floor(next() * window.length)]!;
      const paths = files.filter(() => next() < 0.5);
      const expected = new Set(window.filter((t) => t.commit !== since.commit && t.time >= since.time && t.paths.some((p) => paths.includes(p))).map((t) => t.commit)).size;
      expect(index.count(paths, since), `round ${round}`).toBe(expected);
    }
  });
});

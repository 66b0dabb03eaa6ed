import { describe, expect, it } from 'vitest';
import { describeStale, linesChangedWithin, MAX_TOUCHING, parseDiffBlocks, parseHunks, parseRenames, staleness } from '../../src/core/staleness.ts';

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
    const many = Array.from({ length: MAX_TOUCHING }, (_, i) => ({ commit: `x${i}`, time: 1000 - i, paths: ['a.ts'] }));
    const s = staleness(['a.ts'], since, [{ path: 'a.ts', added: 1, removed: 0, status: 'M' }], many)!;
    expect(s.atLeast).toBe(true);
    expect(describeStale(s)).toBe(`${MAX_TOUCHING}+ commits, 1 line since`);
  });

  it('reads diff-tree blocks in input order', () => {
    const head = 'h'.repeat(40);
    const out = `${head}\n:100644 000000 aaa 000 D\tgone.ts\n0\t3\tgone.ts\n${head}\n${head}\n:100644 100644 b c M\tx.ts\n2\t1\tx.ts\n`;
    expect(parseDiffBlocks(out, new Set([head]))).toEqual([[{ path: 'gone.ts', added: 0, removed: 3, status: 'D' }], [], [{ path: 'x.ts', added: 2, removed: 1, status: 'M' }]]);
  });

  it('reads blocks of several targets, each opening with its own id', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(40);
    const out = `${a}\n:100644 100644 b c M\tx.ts\n2\t1\tx.ts\n${b}\n`;
    expect(parseDiffBlocks(out, new Set([a, b]))).toEqual([[{ path: 'x.ts', added: 2, removed: 1, status: 'M' }], []]);
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

import { describe, expect, it } from 'vitest';
import { describeStale, MAX_TOUCHING, parseDiffBlocks, staleness } from '../../src/core/staleness.ts';

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
    expect(parseDiffBlocks(out, head)).toEqual([[{ path: 'gone.ts', added: 0, removed: 3, status: 'D' }], [], [{ path: 'x.ts', added: 2, removed: 1, status: 'M' }]]);
  });
});

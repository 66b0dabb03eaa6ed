import { describe, expect, it } from 'vitest';
import { lineDiff } from '../../src/core/history/hunks.ts';

const lines = (hunks: ReturnType<typeof lineDiff>) => hunks!.flatMap((h) => h.lines.map((l) => `${l.op}${l.text}`));

describe('ui lineDiff', () => {
  it('marks what was removed and added, with context', () => {
    const a = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
    const b = ['a', 'b', 'c', 'd', 'E', 'f', 'g', 'h', 'i', 'j'];
    expect(lines(lineDiff(a, b, 2))).toEqual([' c', ' d', '-e', '+E', ' f', ' g']);
  });

  it('numbers lines on both sides', () => {
    const [hunk] = lineDiff(['x', 'y'], ['x', 'new', 'y'], 1)!;
    expect(hunk!.lines).toEqual([
      { op: ' ', text: 'x', old: 1, new: 1 },
      { op: '+', text: 'new', old: null, new: 2 },
      { op: ' ', text: 'y', old: 2, new: 3 },
    ]);
  });

  it('keeps only the changes near the ranges asked for', () => {
    const a = Array.from({ length: 40 }, (_, i) => `line ${i + 1}`);
    const b = a.map((l, i) => (i === 2 || i === 30 ? `${l} changed` : l));
    const all = lineDiff(a, b, 0)!;
    expect(all).toHaveLength(2);
    const near = lineDiff(a, b, 0, [[29, 33]])!;
    expect(lines(near)).toEqual(['-line 31', '+line 31 changed']);
  });

  it('has no hunk for equal files, and a file from nothing is all added', () => {
    expect(lineDiff(['a'], ['a'])).toEqual([]);
    expect(lines(lineDiff([], ['a', 'b']))).toEqual(['+a', '+b']);
  });

  it('gives up on files too large to compare', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}`);
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}`);
    expect(lineDiff(a, b)).toBeNull();
  });
});

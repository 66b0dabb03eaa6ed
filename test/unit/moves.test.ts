import { describe, expect, it } from 'vitest';
import { describeVia, formatMoves, MOVE_LINES_MAX, parseMoves } from '../../src/core/history/moves.ts';
import { placeCommits } from '../../src/core/history/timeline.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

describe('the record of a move in a notes commit message', () => {
  it('reads back what it wrote, ignoring other lines and malformed records', () => {
    const lines = formatMoves([
      { key: '0123456789abcdef', from: [A, B], to: [C], via: 'message' },
      { key: 'k2', from: [A], to: [B, C], via: 'copy' },
    ]);
    const message = ['reanchor 2 memories', '', ...lines, 'git-mem-move: k3 nothex -> ' + C + ' files', 'git-mem-move: k4 ' + A + ' -> ' + C + ' teleport', 'Signed-off-by: x'].join('\n');
    expect(parseMoves(message)).toEqual([
      { key: '0123456789abcdef', from: [A, B], to: [C], via: 'message' },
      { key: 'k2', from: [A], to: [B, C], via: 'copy' },
    ]);
  });

  it('records at most MOVE_LINES_MAX moves', () => {
    const many = Array.from({ length: MOVE_LINES_MAX + 5 }, (_, i) => ({ key: `k${i}`, from: [A], to: [B], via: 'files' as const }));
    expect(formatMoves(many)).toHaveLength(MOVE_LINES_MAX);
  });

  it('says how each was matched', () => {
    expect(describeVia('message')).toContain('squash merge');
    expect(describeVia('manual')).toBe('moved by hand');
  });
});

describe('placeCommits (the timeline)', () => {
  it('puts a merged branch beside the first-parent line and counts what a merge joins', () => {
    // oldest first, as git mem log gives them: root, s1 -> s2 on a branch, m1 on main, merge of s2.
    const placed = placeCommits([
      { commit: 'root', subject: 'root', parents: [] },
      { commit: 's1', subject: 's1', parents: ['root'] },
      { commit: 'm1', subject: 'm1', parents: ['root'] },
      { commit: 's2', subject: 's2', parents: ['s1'] },
      { commit: 'mg', subject: 'merge', parents: ['m1', 's2'] },
    ]);
    expect(placed.map((c) => [c.commit, c.merge, c.side, c.joins])).toEqual([
      ['mg', true, false, 2],
      ['s2', false, true, 0],
      ['m1', false, false, 0],
      ['s1', false, true, 0],
      ['root', false, false, 0],
    ]);
  });
});

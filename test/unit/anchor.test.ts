import { describe, expect, it } from 'vitest';
import { isOrphan, pickAnchor, type Placement, REACHES } from '../../src/core/history/anchor.ts';
import { type Candidate, matchOrphan, namesCommit, type Orphan } from '../../src/core/history/rewrite-match.ts';

const p = (object: string, reach: Placement['reach'], time = 0): Placement => ({ object, reach, time });

describe('pickAnchor', () => {
  it('prefers HEAD, then a local branch, then a remote-tracking branch, then the newest existing commit', () => {
    expect(pickAnchor([p('a', 'branch', 9), p('b', 'head', 1)])?.object).toBe('b');
    expect(pickAnchor([p('a', 'remote', 9), p('b', 'branch', 1)])?.object).toBe('b');
    expect(pickAnchor([p('a', 'unreachable', 9), p('b', 'remote', 1)])?.object).toBe('b');
    expect(pickAnchor([p('a', 'unreachable', 1), p('b', 'tag', 5)])?.object).toBe('b');
    expect(pickAnchor([p('a', 'missing', 9), p('b', 'unreachable', 1)])?.object).toBe('b');
  });

  it('breaks ties the same way whatever the order', () => {
    const copies = [p('c', 'head', 3), p('a', 'head', 3), p('b', 'head', 3)];
    expect(pickAnchor(copies)?.object).toBe('a');
    expect(pickAnchor([...copies].reverse())?.object).toBe('a');
    expect(pickAnchor([])).toBeUndefined();
  });
});

describe('isOrphan', () => {
  // What gc drops: a commit nothing reaches, and one already gone (its memories are reanchored by a squash message naming it).
  it('is true for an unreachable or missing commit, false for anything a ref reaches or that is not a commit', () => {
    expect(REACHES.filter(isOrphan)).toEqual(['unreachable', 'missing']);
  });
});

describe('matching an orphaned commit', () => {
  const orphan: Orphan = { object: 'a'.repeat(40), patchId: 'p1', subject: 'Add the parser for notes', time: 100, paths: ['src/a.ts', 'src/b.ts'] };
  const candidate = (object: string, over: Partial<Candidate> = {}): Candidate => ({ placement: p(object, 'head', 200), message: 'Unrelated', ...over });

  it('by patch-id, the best placed candidate first', () => {
    const cs = [candidate('x', { patchId: 'p1', placement: p('x', 'remote', 300) }), candidate('y', { patchId: 'p1' }), candidate('z', { patchId: 'p2' })];
    expect(matchOrphan(orphan, cs, 'patch-id')).toBe('y');
    expect(matchOrphan({ ...orphan, patchId: undefined }, cs, 'patch-id')).toBeUndefined();
  });

  it('by a squash message naming the commit or listing its subject', () => {
    expect(namesCommit(`Squashed commit of the following:\n\ncommit ${'a'.repeat(40)}\n`, orphan)).toBe(true);
    expect(namesCommit('Title (#3)\n\n* Add the parser for notes\n\n* Other', orphan)).toBe(true);
    expect(namesCommit('Title (#3)\n\n- Add the parser for notes', orphan)).toBe(true);
    expect(namesCommit('Add the parser for notes and more', orphan)).toBe(false);
    // Short subjects say too little.
    expect(namesCommit('* wip', { ...orphan, subject: 'wip' })).toBe(false);
  });

  it('by files: most of its files, then the fewest others, never a commit older than it', () => {
    const cs = [
      candidate('wide', { paths: ['src/a.ts', 'src/b.ts', 'src/c.ts', 'README.md'] }),
      candidate('narrow', { paths: ['src/a.ts', 'src/b.ts', 'src/c.ts'] }),
      candidate('half', { paths: ['src/a.ts'] }),
      candidate('older', { paths: ['src/a.ts', 'src/b.ts'], placement: p('older', 'head', 50) }),
    ];
    expect(matchOrphan(orphan, cs, 'files')).toBe('narrow');
    expect(matchOrphan(orphan, [cs[2]!], 'files')).toBe('half');
    expect(matchOrphan(orphan, [cs[3]!], 'files')).toBeUndefined();
    expect(matchOrphan(orphan, [candidate('none', { paths: ['docs/x.md'] })], 'files')).toBeUndefined();
    // At least half of its files: one of three is too few.
    expect(matchOrphan({ ...orphan, paths: ['src/a.ts', 'src/b.ts', 'src/d.ts'] }, [cs[2]!], 'files')).toBeUndefined();
    expect(matchOrphan({ ...orphan, paths: [] }, cs, 'files')).toBeUndefined();
  });
});


import { describe, expect, it } from 'vitest';
import { commitsChanging } from '../../src/services/history/file-history.ts';
import { parseCommitFacts } from '../../src/stores/git/file-history.ts';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

describe('parseCommitFacts', () => {
  it('reads each commit\'s time and files, an empty commit with none, and skips what is not a commit header', () => {
    const out = `\x02${A} 1700000000\0\nsrc/a.ts\0src/b c.ts\0\x02${B} 1600000000\0\x02not a header\0x\0`;
    expect(parseCommitFacts(out)).toEqual(
      new Map([
        [A, { time: 1700000000, files: ['src/a.ts', 'src/b c.ts'] }],
        [B, { time: 1600000000, files: [] }],
      ]),
    );
  });

  it('keeps a merge\'s first entry', () => {
    expect(parseCommitFacts(`\x02${A} 5\0\none\0\x02${A} 5\0\ntwo\0`).get(A)?.files).toEqual(['one']);
  });
});

describe('commitsChanging', () => {
  const commits: Record<string, [number, ...string[]]> = { [A]: [300, 'src/css.ts', 'x.ts'], [B]: [100, 'src/css.ts'], [C]: [200, 'y.ts'], ['d'.repeat(40)]: [0] };
  it('gives the commits that changed the file, newest first, with their files', () => {
    expect(commitsChanging(Object.entries(commits), 'src/css.ts', Infinity)).toEqual([
      { commit: A, files: ['src/css.ts', 'x.ts'] },
      { commit: B, files: ['src/css.ts'] },
    ]);
  });

  it('leaves out commits made after the checkout, and matches whole paths only', () => {
    expect(commitsChanging(Object.entries(commits), 'src/css.ts', 250).map((c) => c.commit)).toEqual([B]);
    expect(commitsChanging(Object.entries(commits), 'css.ts', Infinity)).toEqual([]);
  });
});

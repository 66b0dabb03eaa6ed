import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/io/io.ts';
import { progressBar } from '../../src/io/progress.ts';

function fakeIo(stderrIsTTY: boolean): Io & { written: string[] } {
  const written: string[] = [];
  return {
    written,
    stdoutIsTTY: false,
    stderrIsTTY,
    stdinIsTTY: false,
    color: new Chalk({ level: 0 }),
    out: () => {},
    err: (t) => written.push(`${t}\n`),
    errRaw: (t) => written.push(t),
    readStdin: async () => '',
  };
}

describe('progressBar', () => {
  it('draws nothing when stderr is not a terminal', () => {
    const io = fakeIo(false);
    const bar = progressBar(io, 'indexing');
    bar.update(1, 2);
    bar.update(2, 2);
    bar.finish();
    expect(io.written).toEqual([]);
  });

  it('redraws one line at most every 80 ms, always at completion, and erases it', () => {
    const io = fakeIo(true);
    let now = 0;
    const bar = progressBar(io, 'indexing', 'notes', () => now);
    bar.update(0, 4);
    now = 10;
    bar.update(1, 4); // too soon
    now = 100;
    bar.update(2, 4);
    now = 101;
    bar.update(4, 4); // completion is always drawn
    bar.finish();
    expect(io.written).toEqual([
      `\rindexing [${'-'.repeat(30)}]   0% 0/4 notes`,
      `\rindexing [${'#'.repeat(15)}${'-'.repeat(15)}]  50% 2/4 notes`,
      `\rindexing [${'#'.repeat(30)}] 100% 4/4 notes`,
      '\r\x1b[K',
    ]);
  });
});

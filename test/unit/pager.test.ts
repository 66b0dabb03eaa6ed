import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import type { Io } from '../../src/io/io.ts';
import { outPaged, pagerCommand, pagerEnv } from '../../src/io/pager.ts';

describe('pagerCommand: the pager git would use', () => {
  it.each([
    ['no terminal: never', {}, false, {}, null],
    ['default less', {}, true, {}, 'less'],
    ['GIT_PAGER first', { GIT_PAGER: 'most', PAGER: 'more' }, true, { corePager: 'lv' }, 'most'],
    ['then core.pager', { PAGER: 'more' }, true, { corePager: 'lv' }, 'lv'],
    ['then PAGER', { PAGER: 'more' }, true, {}, 'more'],
    ['cat is none', { GIT_PAGER: 'cat' }, true, {}, null],
    ['empty is none', { PAGER: '' }, true, {}, null],
    ['pager.mem false turns it off', { GIT_PAGER: 'less' }, true, { pagerMem: 'false' }, null],
    ['pager.mem names a pager below GIT_PAGER', {}, true, { pagerMem: 'less -S', corePager: 'lv' }, 'less -S'],
    ['pager.mem true keeps the default', {}, true, { pagerMem: 'true' }, 'less'],
  ] as const)('%s', (_what, env, tty, config, want) => {
    expect(pagerCommand(env as NodeJS.ProcessEnv, tty, config)).toBe(want);
  });

  it('sets LESS=FRX and LV=-c unless given', () => {
    expect(pagerEnv({})).toMatchObject({ LESS: 'FRX', LV: '-c' });
    expect(pagerEnv({ LESS: 'R' })).toMatchObject({ LESS: 'R' });
  });
});

function io(tty: boolean, out: string[]): Io {
  return { stdoutIsTTY: tty, stderrIsTTY: false, stdinIsTTY: false, color: new Chalk({ level: 0 }), out: (t) => out.push(t), err: () => {}, errRaw: () => {}, readStdin: async () => '' };
}

describe('outPaged', () => {
  it('prints directly when stdout is not a terminal', async () => {
    const out: string[] = [];
    await outPaged({ io: io(false, out), env: { GIT_PAGER: 'false' }, settings: { pager: {} } }, 'a\nb');
    expect(out).toEqual(['a\nb']);
  });

  it('pipes the text through the pager on a terminal, with LESS set', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-pager-'));
    const file = path.join(dir, 'paged');
    const out: string[] = [];
    const env: NodeJS.ProcessEnv = { ...process.env, GIT_PAGER: `cat > '${file}'; echo "$LESS" >> '${file}'`, GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };
    delete env.LESS;
    await outPaged({ io: io(true, out), env, settings: { pager: {} } }, 'line 1\nline 2');
    expect(out).toEqual([]);
    expect(fs.readFileSync(file, 'utf8')).toBe('line 1\nline 2\nFRX\n');
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

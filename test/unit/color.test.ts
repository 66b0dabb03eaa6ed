import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../src/io/io.ts';

describe('colour', () => {
  it.each([
    ['a terminal', {}, true, [], true],
    ['not a terminal', {}, false, [], false],
    ['NO_COLOR', { NO_COLOR: '1' }, true, [], false],
    ['NO_COLOR empty is not set', { NO_COLOR: '' }, true, [], true],
    ['--no-color', {}, true, ['list', '--no-color'], false],
    ['--color beats NO_COLOR and no terminal', { NO_COLOR: '1' }, false, ['--color', 'list'], true],
    ['the last flag wins', {}, true, ['--color', 'list', '--no-color'], false],
    ['flags after -- are not flags', {}, true, ['capture', 'x', '--', '--no-color'], true],
    ['FORCE_COLOR', { FORCE_COLOR: '1' }, false, [], true],
    ['TERM=dumb', { TERM: 'dumb' }, true, [], false],
  ] as const)('%s', (_what, env, tty, argv, want) => {
    expect(colorEnabled(env as NodeJS.ProcessEnv, tty, argv)).toBe(want);
  });
});

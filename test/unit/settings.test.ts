import { describe, expect, it } from 'vitest';
import { configReport, parseConfigList } from '../../src/services/config-report.ts';
import { valueText } from '../../src/render/config.ts';
import { configLookupKey, resolveSetting, SETTINGS } from '../../src/services/settings.ts';

describe('the settings table', () => {
  it('looks keys up the way git prints them (section and name lowercased, subsection kept)', () => {
    expect(configLookupKey('mem.autoCapture')).toBe('mem.autocapture');
    expect(configLookupKey('mem.hooks.pullOnStart')).toBe('mem.hooks.pullonstart');
    expect(configLookupKey('mem.secrets.allow')).toBe('mem.secrets.allow');
  });

  it('takes the environment over git config over the default', () => {
    const config = new Map([['mem.autocapture', ['false']]]);
    expect(resolveSetting('autoCapture', new Map(), {})).toEqual({ value: true, source: 'default', raw: [] });
    expect(resolveSetting('autoCapture', config, {})).toEqual({ value: false, source: 'git config', raw: ['false'] });
    expect(resolveSetting('autoCapture', config, { GIT_MEM_AUTO_CAPTURE: 'yes' })).toEqual({ value: true, source: 'environment', raw: ['yes'] });
  });

  it('reports a value it cannot use and keeps the default', () => {
    const r = resolveSetting('secrets', new Map([['mem.secrets', ['shred']]]), {});
    expect(r.value).toBe('redact');
    expect(r.problem).toMatch(/'shred' is not one of redact, block, warn/);
    expect(resolveSetting('pushOnEnd', new Map(), { GIT_MEM_HOOKS_PUSH_ON_END: 'maybe' }).problem).toMatch(/not a boolean/);
  });

  it('reads lists from every config value, or from one comma-separated variable', () => {
    expect(resolveSetting('namespaces', new Map([['mem.namespaces', ['a', 'b,c']]]), {}).value).toEqual(['a', 'b', 'c']);
    expect(resolveSetting('namespaces', new Map([['mem.namespaces', ['a']]]), { GIT_MEM_NAMESPACES: 'x y' }).value).toEqual(['x', 'y']);
  });

  it('documents every setting', () => {
    for (const def of Object.values(SETTINGS)) {
      expect(def.key).toMatch(/^mem\./);
      expect(def.describe.length).toBeGreaterThan(10);
    }
  });
});

describe('git mem config', () => {
  const list = 'global\0file:/home/ada/.gitconfig\0mem.autocapture\nfalse\0local\0file:.git/config\0mem.namespaces\nincidents\0local\0file:.git/config\0mem.namespaces\nops\0local\0file:.git/config\0mem.autocaptur\ntrue\0command\0command line:\0mem.flag\0';

  it('parses git config -l -z --show-scope --show-origin', () => {
    expect(parseConfigList(list)).toEqual([
      { scope: 'global', origin: 'file:/home/ada/.gitconfig', key: 'mem.autocapture', value: 'false' },
      { scope: 'local', origin: 'file:.git/config', key: 'mem.namespaces', value: 'incidents' },
      { scope: 'local', origin: 'file:.git/config', key: 'mem.namespaces', value: 'ops' },
      { scope: 'local', origin: 'file:.git/config', key: 'mem.autocaptur', value: 'true' },
      { scope: 'command', origin: 'command line:', key: 'mem.flag', value: 'true' },
    ]);
  });

  it('says where each value came from, and which mem.* keys are unknown', () => {
    const r = configReport(parseConfigList(list), { HOME: '/home/ada', GIT_MEM_SECRETS: 'warn' });
    const row = (name: string) => r.settings.find((s) => s.name === name)!;
    expect(row('autoCapture')).toMatchObject({ value: false, source: 'git config', origin: 'global: ~/.gitconfig' });
    expect(row('namespaces')).toMatchObject({ value: ['incidents', 'ops'], source: 'git config', origin: 'local: .git/config' });
    expect(row('secrets')).toMatchObject({ value: 'warn', source: 'environment', origin: 'GIT_MEM_SECRETS' });
    expect(row('pushOnEnd')).toMatchObject({ value: false, source: 'default', origin: null, default: 'false' });
    expect(r.unknown.map((u) => u.key)).toEqual(['mem.autocaptur', 'mem.flag']);
    expect(r.settings.map((s) => s.name)).toEqual(Object.keys(SETTINGS));
    expect(valueText([])).toBe('(none)');
  });
});

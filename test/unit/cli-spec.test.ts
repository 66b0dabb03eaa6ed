import yargs from 'yargs';
import { describe, expect, it } from 'vitest';
import { commandHelp, helpTarget, rootHelp } from '../../src/cli/help.ts';
import { buildCliSpec, commandModules, DECLARATIONS_ONLY } from '../../src/cli/registry.ts';
import { commandSpec, findCommand } from '../../src/cli/spec.ts';

// Builders must not use the context (help and the docs are built without one): this one throws if read.
const ctx = DECLARATIONS_ONLY;
const spec = buildCliSpec();

describe('the command spec read from the yargs modules', () => {
  it('lists every registered command once, with its aliases', () => {
    const names = spec.commands.flatMap((c) => [c.name, ...c.aliases]);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['capture', 'list', 'ls', 'recall', 'doctor', 'config', 'stats']));
    expect(findCommand(spec, 'ls')?.name).toBe('list');
  });

  // The recorder stands in for yargs: every option yargs itself registers must be in the spec, the same way.
  it.each(commandModules(ctx).map((m) => [String(m.command), m] as const))('agrees with yargs on %s', (_name, module) => {
    const y = yargs([]);
    (module.builder as (a: unknown) => unknown)(y);
    const o = (y as unknown as { getOptions(): unknown }).getOptions() as {
      key: Record<string, unknown>;
      alias: Record<string, string[]>;
      boolean: string[];
      number: string[];
      array: string[];
      choices: Record<string, string[]>;
      default: Record<string, unknown>;
    };
    const s = commandSpec(module);
    // Outside a command, yargs keeps positionals as options too: leave them out.
    const positionals = s.positionals.map((p) => p.name);
    const yargsKeys = Object.keys(o.key).filter((k) => !['help', 'version', '$0', '_', ...positionals].includes(k) && !Object.values(o.alias).flat().includes(k));
    expect(s.options.map((x) => x.name).sort()).toEqual(yargsKeys.sort());
    for (const opt of s.options) {
      expect(opt.aliases.sort(), opt.name).toEqual([...(o.alias[opt.name] ?? [])].sort());
      expect(opt.type === 'boolean', opt.name).toBe(o.boolean.includes(opt.name));
      expect(opt.type === 'number', opt.name).toBe(o.number.includes(opt.name));
      expect(opt.array, opt.name).toBe(o.array.includes(opt.name));
      expect(opt.choices, opt.name).toEqual(o.choices[opt.name]);
      expect(opt.default, opt.name).toEqual(o.default[opt.name]);
    }
  });

  it('reads positionals from the command string, with their descriptions', () => {
    const capture = findCommand(spec, 'capture')!;
    expect(capture.positionals).toEqual([
      { name: 'namespace', required: true, variadic: false, describe: 'Namespace (see git mem namespaces)' },
      { name: 'summary', required: true, variadic: true, describe: 'One-line summary, at most 100 characters' },
    ]);
    expect(findCommand(spec, 'pull')!.positionals[0]).toMatchObject({ name: 'remote', required: false });
    for (const c of spec.commands) for (const p of c.positionals) expect(p.describe, `${c.name} ${p.name}`).not.toBe('');
  });

  it('gives every command and option a description', () => {
    for (const c of spec.commands) {
      expect(c.describe, c.name).not.toBe('');
      for (const o of c.options) expect(o.describe, `${c.name} --${o.name}`).not.toBe('');
    }
  });
});

describe('help without yargs', () => {
  it('lists every command and the global options at the root', () => {
    const text = rootHelp(spec, 100);
    for (const c of spec.commands) expect(text).toContain(c.usage);
    expect(text).toContain('--[no-]color');
    expect(text).toMatch(/Exit codes: 0 ok, 1 error, 2 bad usage/);
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
  });

  it("shows a command's arguments, options, defaults and examples", () => {
    const text = commandHelp(spec, findCommand(spec, 'recall')!, 100);
    expect(text).toMatch(/^git mem recall <query\.\.>/);
    expect(text).toContain('-n, --namespace <namespace>');
    expect(text).toContain('--level <summary|full|files>');
    expect(text).toContain('default: 10');
    expect(commandHelp(spec, findCommand(spec, 'capture')!, 100)).toContain('Examples:');
    expect(commandHelp(spec, findCommand(spec, 'pull')!, 100)).toContain('--[no-]fetch');
  });

  it.each([
    [['--help'], null],
    [['-h'], null],
    [['--no-color', '--help'], null],
    [['list', '--help'], 'list'],
    [['ls', '-h'], 'list'],
    [['capture', 'decisions', 'x', '--help'], 'capture'],
    [['nope', '--help'], null],
    [['list'], undefined],
    [['capture', 'decisions', '--', '--help'], undefined],
  ] as const)('helpTarget(%j) is %s', (argv, want) => {
    const t = helpTarget(argv, spec);
    expect(t === null || t === undefined ? t : t.name).toBe(want);
  });
});

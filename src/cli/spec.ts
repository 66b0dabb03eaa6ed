/**
 * The command line as data, read from the very command modules yargs runs:
 * each module's `builder` is called on a recorder that stands in for yargs'
 * `Argv` and notes every positional, option, example and epilogue. The fast
 * help, the man page and the shell completions are rendered from this; no
 * yargs is loaded here.
 */
import type { CommandModule } from 'yargs';

/** Each module has its own argument type; the list holds them all. */
// biome-ignore lint/suspicious/noExplicitAny: a command module of any argument type (CommandModule is invariant in it)
export type AnyCommand = CommandModule<object, any>;

export type ValueType = 'string' | 'number' | 'boolean' | 'count' | 'array';

export interface OptionSpec {
  name: string;
  aliases: string[];
  type: ValueType;
  /** Repeatable (yargs `array: true`). */
  array: boolean;
  describe: string;
  choices?: string[];
  default?: unknown;
  required: boolean;
  hidden: boolean;
}

export interface PositionalSpec {
  name: string;
  describe: string;
  required: boolean;
  /** `<name..>`: takes the rest of the words. */
  variadic: boolean;
  choices?: string[];
}

export interface CommandSpec {
  /** As typed: `capture`. */
  name: string;
  aliases: string[];
  /** The yargs command string: `capture <namespace> <summary..>`. */
  usage: string;
  describe: string;
  hidden: boolean;
  positionals: PositionalSpec[];
  options: OptionSpec[];
  examples: Array<{ command: string; describe: string }>;
  epilogue?: string;
}

export interface CliSpec {
  scriptName: string;
  describe: string;
  epilogue: string;
  globalOptions: OptionSpec[];
  commands: CommandSpec[];
}

interface RawOption {
  alias?: string | readonly string[];
  type?: string;
  array?: boolean;
  boolean?: boolean;
  number?: boolean;
  string?: boolean;
  count?: boolean;
  describe?: string | false;
  description?: string | false;
  desc?: string | false;
  choices?: readonly unknown[];
  default?: unknown;
  demandOption?: boolean | string;
  required?: boolean;
  hidden?: boolean;
}

function list(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : [...value];
}

function describeOf(o: RawOption): string {
  const d = o.describe ?? o.description ?? o.desc;
  return typeof d === 'string' ? d : '';
}

export function optionSpec(name: string, o: RawOption): OptionSpec {
  const type: ValueType = (o.type as ValueType | undefined) ?? (o.boolean ? 'boolean' : o.number ? 'number' : o.count ? 'count' : o.array ? 'array' : 'string');
  return {
    name,
    aliases: list(o.alias),
    type: type === 'array' ? 'string' : type,
    array: Boolean(o.array) || type === 'array',
    describe: describeOf(o),
    ...(o.choices ? { choices: o.choices.map(String) } : {}),
    ...(o.default !== undefined ? { default: o.default } : {}),
    required: Boolean(o.demandOption ?? o.required),
    hidden: Boolean(o.hidden) || o.describe === false,
  };
}

/** Positionals as the command string declares them: `<a>` required, `[b]` optional, `..` variadic. */
function declaredPositionals(usage: string): Array<{ name: string; required: boolean; variadic: boolean }> {
  return [...usage.matchAll(/([<[])([^>\]]+)[>\]]/g)].map((m) => {
    const raw = m[2]!.split('|')[0]!;
    return { name: raw.replace(/\.\.$/, ''), required: m[1] === '<', variadic: raw.endsWith('..') };
  });
}

/** An `Argv` stand-in that records what a builder declares; unknown calls are accepted and ignored. */
function recorder(into: CommandSpec, positionals: Map<string, RawOption>): unknown {
  const options = new Map<string, RawOption>();
  const handlers: Record<string, (...args: never[]) => void> = {
    positional: (name: string, o: RawOption) => positionals.set(name, o),
    option: (name: string | Record<string, RawOption>, o?: RawOption) => {
      if (typeof name === 'string') options.set(name, { ...options.get(name), ...o });
      else for (const [k, v] of Object.entries(name)) options.set(k, v);
    },
    example: (command: string | Array<[string, string?]>, describe?: string) => {
      if (Array.isArray(command)) for (const [c, d] of command) into.examples.push({ command: c, describe: d ?? '' });
      else into.examples.push({ command, describe: describe ?? '' });
    },
    epilogue: (text: string) => (into.epilogue = text),
    alias: (name: string, alias: string | string[]) => options.set(name, { ...options.get(name), alias: [...list(options.get(name)?.alias), ...list(alias)] }),
    choices: (name: string, choices: string[]) => options.set(name, { ...options.get(name), choices }),
    describe: (name: string, text: string) => options.set(name, { ...options.get(name), describe: text }),
  };
  handlers.options = handlers.option!;
  handlers.epilog = handlers.epilogue!;
  const proxy: unknown = new Proxy(
    {},
    {
      get: (_t, prop) => {
        if (prop === 'then') return undefined; // not a thenable
        if (prop === '__options') return options;
        const h = typeof prop === 'string' ? handlers[prop] : undefined;
        return (...args: never[]) => {
          h?.(...args);
          return proxy;
        };
      },
    },
  );
  return proxy;
}

export function commandSpec(module: AnyCommand): CommandSpec {
  const usage = list(module.command)[0] ?? '';
  const spec: CommandSpec = {
    name: usage.split(' ')[0] ?? '',
    aliases: list(module.aliases),
    usage,
    describe: typeof module.describe === 'string' ? module.describe : '',
    hidden: module.describe === false,
    positionals: [],
    options: [],
    examples: [],
  };
  const positionals = new Map<string, RawOption>();
  const rec = recorder(spec, positionals) as { __options: Map<string, RawOption> };
  const builder = module.builder;
  if (typeof builder === 'function') (builder as (y: unknown) => unknown)(rec);
  else if (builder) for (const [k, v] of Object.entries(builder)) rec.__options.set(k, v as RawOption);
  spec.positionals = declaredPositionals(usage).map((p) => {
    const o = positionals.get(p.name) ?? {};
    return { ...p, describe: describeOf(o), ...(o.choices ? { choices: o.choices.map(String) } : {}) };
  });
  spec.options = [...rec.__options].map(([name, o]) => optionSpec(name, o));
  return spec;
}

export function cliSpec(modules: AnyCommand[], root: { scriptName: string; describe: string; epilogue: string; globalOptions: Record<string, RawOption> }): CliSpec {
  return {
    scriptName: root.scriptName,
    describe: root.describe,
    epilogue: root.epilogue,
    globalOptions: Object.entries(root.globalOptions).map(([name, o]) => optionSpec(name, o)),
    commands: modules.map(commandSpec),
  };
}

/** The command a word names (its name or an alias), if any. */
export function findCommand(spec: CliSpec, word: string | undefined): CommandSpec | undefined {
  if (!word) return undefined;
  return spec.commands.find((c) => c.name === word || c.aliases.includes(word));
}

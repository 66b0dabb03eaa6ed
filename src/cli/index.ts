/**
 * The command line: read from the command's declaration without yargs where
 * it is plain (cli/fast-args.ts), else by yargs, which declares every command
 * and gives the errors; handlers call services and render.
 */
import type { AppContext } from '../context.ts';
import { UsageError } from '../core/errors.ts';
import { VERSION } from '../version.ts';
import { commandModules, GLOBAL_OPTIONS, ROOT_DESCRIPTION, ROOT_EPILOGUE, SCRIPT_NAME } from './registry.ts';
import type { SteppedCommand } from './command.ts';
import { argsBySpec } from './fast-args.ts';
import { type AnyCommand, commandSpec, optionSpec } from './spec.ts';

/** yargs reads a lone `-` as a positional; keep `--file -` (stdin) attached to its flag (`import -`: markLiterals). */
function attachStdinDash(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    const prev = out[out.length - 1];
    if (arg === '-' && (prev === '--file' || prev === '-F')) out[out.length - 1] = `${prev}=-`;
    else out.push(arg);
  }
  return out;
}

/** Marks a word that yargs must take as a value, not an option, even though it starts with `-`; removed before handlers run. */
const LITERAL = '\uE000';

/**
 * Words that start with `-` but are values: the text after an option that
 * takes one (`-m '- first point'`), and everything after `--` (a summary that
 * starts with a dash). yargs would read them as options; marked, they are
 * values, and the marker is removed before the command runs.
 */
export function markLiterals(argv: readonly string[], takesValue: ReadonlySet<string>, dashPositional = false): string[] {
  const end = argv.indexOf('--');
  const out: string[] = [];
  argv.forEach((arg, i) => {
    if (end >= 0 && i === end) return;
    const afterEnd = end >= 0 && i > end;
    const isValue = i > 0 && takesValue.has(argv[i - 1]!) && (end < 0 || i < end);
    // With `dashPositional` (a command that reads a lone `-` as stdin: `import -`), a `-` that is no
    // option's value is kept as a positional, which yargs would read as an empty string.
    const stdinDash = dashPositional && arg === '-' && !isValue;
    out.push(stdinDash || ((afterEnd || isValue) && arg.startsWith('-') && arg !== '-') ? `${LITERAL}${arg}` : arg);
  });
  return out;
}

function unmark(value: unknown): unknown {
  if (typeof value === 'string') return value.startsWith(LITERAL) ? value.slice(LITERAL.length) : value;
  if (Array.isArray(value)) return value.map(unmark);
  return value;
}

/** `-m`, `--message`...: the options of a command that take a value (not booleans or counts). */
function valueOptions(command: AnyCommand | undefined): Set<string> {
  const out = new Set<string>();
  if (!command) return out;
  for (const o of commandSpec(command).options) {
    if (o.type === 'boolean' || o.type === 'count') continue;
    for (const name of [o.name, ...o.aliases]) out.add(name.length === 1 ? `-${name}` : `--${name}`);
  }
  return out;
}

function namesOf(c: AnyCommand): string[] {
  const command = Array.isArray(c.command) ? c.command[0] : c.command;
  return [String(command ?? '').split(' ')[0]!, ...[c.aliases ?? []].flat()];
}

/**
 * yargs' "Not enough non-option arguments: got 1, need at least 2" as one line naming what is
 * what is missing: "missing <summary>: git mem capture <namespace> <summary..>".
 */
function missingPositionals(command: AnyCommand, message: string | undefined): string | undefined {
  const counts = /^Not enough non-option arguments: got (\d+), need at least (\d+)/.exec(message ?? '');
  if (!counts) return undefined;
  const usage = String((Array.isArray(command.command) ? command.command[0] : command.command) ?? '');
  const required = usage.match(/<[^>]+>/g) ?? [];
  const lacking = required.slice(Number(counts[1])).map((p) => p.replace('..', ''));
  if (!lacking.length) return undefined;
  const list = lacking.length === 1 ? lacking[0]! : `${lacking.slice(0, -1).join(', ')} and ${lacking[lacking.length - 1]}`;
  return `missing ${list}: git mem ${usage}`;
}

/** The commands the first word names (one, or none when it is an option or no command's name). */
function commandsNamed(all: readonly AnyCommand[], argv: readonly string[]): AnyCommand[] {
  const first = argv[0];
  return first && !first.startsWith('-') ? all.filter((c) => namesOf(c).includes(first)) : [];
}

/** The command these words name and yargs' arguments for it, when the line is plain enough to read without yargs (cli/fast-args.ts). */
function plainCommandLine(argv: readonly string[], ctx: AppContext): { command: AnyCommand; args: Record<string, unknown> } | undefined {
  const chosen = commandsNamed(commandModules(ctx), argv);
  if (chosen.length !== 1) return undefined;
  const globals = Object.entries(GLOBAL_OPTIONS).map(([name, o]) => optionSpec(name, o));
  const args = argsBySpec(argv, commandSpec(chosen[0]!), globals, SCRIPT_NAME);
  return args ? { command: chosen[0]!, args } : undefined;
}

/** The yargs parser for these words, with `dispatch` in place of the chosen command's handler. yargs is loaded only here. */
async function commandLineParser(argv: readonly string[], ctx: AppContext, dispatch: (command: AnyCommand, args: Record<string, unknown>) => void) {
  const { default: yargs } = await import('yargs');
  // Commands are listed in registry.ts, which the help, man page and completions read too.
  // Register only the command being run when it is known: yargs renders (and caches) help for
  // every registered command before a handler runs, which costs tens of milliseconds for all.
  const all = commandModules(ctx);
  const chosen = commandsNamed(all, argv);
  const dashPositional = chosen.length === 1 && (chosen[0] as Partial<SteppedCommand<unknown, unknown>>).dashPositional === true;
  const parser = yargs(markLiterals(attachStdinDash(argv), valueOptions(chosen[0]), dashPositional))
    .scriptName(SCRIPT_NAME)
    .usage(`$0 <command> [options]\n\n${ROOT_DESCRIPTION}`)
    .middleware((args) => {
      for (const [k, v] of Object.entries(args)) args[k] = unmark(v);
    }, true);
  for (const command of chosen.length ? chosen : all) parser.command({ ...command, handler: (args: Record<string, unknown>) => dispatch(command, args) });
  skipHelpCache(parser);
  return parser
    .options(GLOBAL_OPTIONS)
    .demandCommand(1, 'give a command')
    .recommendCommands()
    .strict()
    .help()
    .alias('help', 'h')
    .version(VERSION)
    .epilogue(ROOT_EPILOGUE)
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, err) => {
      if (err) throw err;
      const missing = chosen.length === 1 ? missingPositionals(chosen[0]!, message) : undefined;
      if (missing) throw new UsageError(missing, `see git mem ${namesOf(chosen[0]!)[0]} --help`);
      throw new UsageError((message ?? 'bad usage').replace(/\s*\n\s*/g, ' '), 'see git mem --help');
    });
}

/**
 * yargs renders the chosen command's help after its handler returns and caches it, to print should
 * the handler's promise reject; ours never reaches yargs (runCli awaits it outside, main.ts reports
 * errors), so that render (string widths and wrapping of every option: 3-5 ms a command) is skipped.
 * `--help` is unaffected: an uncached help is rendered when asked for.
 */
function skipHelpCache(parser: unknown): void {
  const usage = (parser as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.().getUsageInstance?.();
  if (usage && typeof usage.cacheHelpMessage === 'function') usage.cacheHelpMessage = () => {};
}

export async function runCli(argv: string[], ctx: AppContext): Promise<void> {
  const plain = plainCommandLine(argv, ctx);
  if (plain) {
    await plain.command.handler(plain.args as never);
    return;
  }
  // Each handler runs outside yargs' sight, awaited below: given a handler's promise, yargs renders
  // and caches the command's help text at once, in case the promise rejects (15-25 ms of wrapping
  // text on every run), and our errors are reported by main.ts, not by yargs.
  let running: Promise<unknown> = Promise.resolve();
  const parser = await commandLineParser(argv, ctx, (command, args) => {
    running = Promise.resolve(command.handler(args as never));
    // Awaited below: not an unhandled rejection meanwhile.
    running.catch(() => {});
  });
  await parser.parseAsync();
  await running;
}

/**
 * The command these words name and the options its `parse` step makes of
 * them (cli/command.ts), running nothing: for table tests of argv → options.
 * Every command has a parse step (test/unit/cli-argv.test.ts holds them to it);
 * one without would give yargs' arguments.
 */
export async function parseCommandLine(argv: string[], ctx: AppContext, by: 'any' | 'yargs' = 'any'): Promise<{ command: string; options: unknown }> {
  const step = (command: AnyCommand, args: Record<string, unknown>) => {
    const parse = (command as Partial<SteppedCommand<unknown, unknown>>).parse;
    return Promise.resolve(parse ? parse(args) : args).then((options) => ({ command: namesOf(command)[0]!, options }));
  };
  const plain = by === 'any' ? plainCommandLine(argv, ctx) : undefined;
  if (plain) return step(plain.command, plain.args);
  let parsed: Promise<{ command: string; options: unknown }> | undefined;
  const parser = await commandLineParser(argv, ctx, (command, args) => {
    parsed = step(command, args);
    parsed.catch(() => {});
  });
  await parser.parseAsync();
  if (!parsed) throw new UsageError('no command was parsed');
  return parsed;
}

/** The yargs root: declares every command; handlers call services and render. */
import yargs from 'yargs';
import type { AppContext } from '../context.ts';
import { UsageError } from '../core/errors.ts';
import { VERSION } from '../version.ts';
import { type AnyCommand, commandModules, GLOBAL_OPTIONS, ROOT_DESCRIPTION, ROOT_EPILOGUE, SCRIPT_NAME } from './registry.ts';

/** yargs reads a lone `-` as a positional; keep `--file -` (stdin) attached to its flag, and `import -` a positional. */
function attachStdinDash(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    const prev = out[out.length - 1];
    if (arg === '-' && (prev === '--file' || prev === '-F')) out[out.length - 1] = `${prev}=-`;
    else out.push(arg);
  }
  return out;
}

function namesOf(c: AnyCommand): string[] {
  const command = Array.isArray(c.command) ? c.command[0] : c.command;
  return [String(command ?? '').split(' ')[0]!, ...[c.aliases ?? []].flat()];
}

export async function runCli(argv: string[], ctx: AppContext): Promise<void> {
  const parser = yargs(attachStdinDash(argv))
    .scriptName(SCRIPT_NAME)
    .usage(`$0 <command> [options]\n\n${ROOT_DESCRIPTION}`);
  // Commands are listed in registry.ts, which the help, man page and completions read too.
  // Register only the command being run when it is known: yargs renders (and caches) help for
  // every registered command before a handler runs, which costs tens of milliseconds for all.
  const all = commandModules(ctx);
  const first = argv[0] && !argv[0].startsWith('-') ? argv[0] : undefined;
  const chosen = first ? all.filter((c) => namesOf(c).includes(first)) : [];
  for (const command of chosen.length ? chosen : all) parser.command(command);
  parser
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
      throw new UsageError((message ?? 'bad usage').replace(/\s*\n\s*/g, ' '), 'see git mem --help');
    });
  await parser.parseAsync();
}

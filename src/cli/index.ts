/** The yargs root: declares every command; handlers call services and render. */
import yargs from 'yargs';
import type { AppContext } from '../context.ts';
import { UsageError } from '../core/errors.ts';
import { VERSION } from '../version.ts';
import { captureCommand } from './commands/capture.ts';
import { editCommand, resolveCommand } from './commands/edit.ts';
import { forgetCommand } from './commands/forget.ts';
import { hookCommand } from './commands/hook.ts';
import { hydrateCommand } from './commands/hydrate.ts';
import { indexCommand } from './commands/index-cmd.ts';
import { initCommand } from './commands/init.ts';
import { listCommand } from './commands/list.ts';
import { namespacesCommand } from './commands/namespaces.ts';
import { showCommand } from './commands/show.ts';
import { recallCommand } from './commands/recall.ts';
import { pullCommand, pushCommand, syncCommand } from './commands/sync.ts';

/** yargs reads a lone `-` as a positional; keep `--file -` (stdin) attached to its flag. */
function attachStdinDash(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (const arg of argv) {
    const prev = out[out.length - 1];
    if (arg === '-' && (prev === '--file' || prev === '-F')) out[out.length - 1] = `${prev}=-`;
    else out.push(arg);
  }
  return out;
}

export async function runCli(argv: string[], ctx: AppContext): Promise<void> {
  const parser = yargs(attachStdinDash(argv))
    .scriptName('git mem')
    .usage('$0 <command> [options]\n\nPersistent, searchable memory for AI coding agents, stored in git notes (refs/notes/mem/<namespace>).')
    .command(captureCommand(ctx))
    .command(showCommand(ctx))
    .command(listCommand(ctx))
    .command(editCommand(ctx))
    .command(resolveCommand(ctx))
    .command(forgetCommand(ctx))
    .command(namespacesCommand(ctx))
    .command(recallCommand(ctx))
    .command(hydrateCommand(ctx))
    .command(indexCommand(ctx))
    .command(initCommand(ctx))
    .command(pullCommand(ctx))
    .command(pushCommand(ctx))
    .command(syncCommand(ctx))
    .command(hookCommand(ctx))
    .option('color', { type: 'boolean', describe: 'Colour output (default: on a TTY, unless NO_COLOR is set); --no-color turns it off' })
    .demandCommand(1, 'give a command; see git mem --help')
    .recommendCommands()
    .strict()
    .help()
    .alias('help', 'h')
    .version(VERSION)
    .epilogue('Exit codes: 0 ok, 1 error, 2 bad usage or input.')
    .wrap(Math.min(100, process.stdout.columns || 100))
    .exitProcess(false)
    .fail((message, err) => {
      if (err) throw err;
      throw new UsageError((message ?? 'bad usage').replace(/\s*\n\s*/g, ' '), 'see git mem --help');
    });
  await parser.parseAsync();
}

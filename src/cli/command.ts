/**
 * A command in three steps, each testable on its own: `parse` turns yargs'
 * arguments into the options of the use case (checking and converting them:
 * namespaces, dates, tags, bodies), `run` calls the services and prints
 * nothing, `render` prints. The handler yargs calls is the three in a row;
 * cli/index.ts `parseCommandLine` stops after `parse`, so a table test can
 * check argv → options for every command without running any.
 */
import type { CommandModule } from 'yargs';

export interface CommandSteps<A, O, R> {
  command: string;
  describe: string;
  aliases?: string[];
  /** A lone `-` on the command line is a positional (stdin, as in `git mem import -`), not an empty string. */
  dashPositional?: boolean;
  builder: CommandModule<object, A>['builder'];
  /** yargs' arguments → the use case's options; throws a UsageError on bad input. */
  parse: (argv: A) => O | Promise<O>;
  run: (options: O) => Promise<R>;
  render: (result: R, options: O) => void | Promise<void>;
}

/** A yargs command module that also carries its `parse` step. */
export type SteppedCommand<A, O> = CommandModule<object, A> & { parse: (argv: A) => O | Promise<O>; dashPositional?: boolean };

export function defineCommand<A, O, R>(steps: CommandSteps<A, O, R>): SteppedCommand<A, O> {
  return {
    command: steps.command,
    describe: steps.describe,
    ...(steps.aliases ? { aliases: steps.aliases } : {}),
    ...(steps.dashPositional ? { dashPositional: true } : {}),
    builder: steps.builder,
    parse: steps.parse,
    handler: async (argv) => {
      const options = await steps.parse(argv as A);
      await steps.render(await steps.run(options), options);
    },
  };
}

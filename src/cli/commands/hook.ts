import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { HOOK_EVENTS } from '../../core/hook-events.ts';

export function hookCommand(ctx: AppContext): CommandModule<object, { event: string }> {
  return {
    command: 'hook <event>',
    describe: 'Answer a Claude Code hook event (reads its JSON on stdin; always exits 0)',
    builder: (y) =>
      y
        .positional('event', { type: 'string', demandOption: true, describe: `One of ${HOOK_EVENTS.join(', ')} (kebab-case works too)` })
        .epilogue('Installed by git mem init --claude. Prints only documented hook output fields; failures are one line on stderr.') as never,
    handler: async (argv) => {
      const { runHook } = await import('../../hooks/index.ts');
      await runHook(argv.event, ctx.io, ctx.env, ctx.now);
    },
  };
}

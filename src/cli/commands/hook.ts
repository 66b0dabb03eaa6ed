import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { HOOK_EVENTS } from '../../core/hook-events.ts';
import { AGENTS } from '../../agents/event.ts';

export function hookCommand(ctx: AppContext): CommandModule<object, { event: string; agent?: string }> {
  return {
    command: 'hook <event>',
    describe: 'Answer a Claude Code hook event (reads its JSON on stdin; always exits 0)',
    builder: (y) =>
      y
        .positional('event', { type: 'string', demandOption: true, describe: `One of ${HOOK_EVENTS.join(', ')} (kebab-case works too), or the client's own name for it` })
        .option('agent', { type: 'string', describe: `The client that runs the hook: ${AGENTS.join(', ')} (default: copilot when COPILOT_CLI=1 is set, else claude)` })
        .epilogue('Installed by git mem init --claude (or --codex, --copilot, --agents). Reads the client\'s event JSON and prints only the fields its hook contract documents; failures are one line on stderr.') as never,
    handler: async (argv) => {
      const { runHook } = await import('../../hooks/index.ts');
      await runHook(argv.event, ctx.io, ctx.env, ctx.now, argv.agent);
    },
  };
}

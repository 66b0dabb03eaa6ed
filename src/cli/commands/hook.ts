import type { AppContext } from '../../context.ts';
import { HOOK_EVENTS } from '../../core/hook-events.ts';
import { AGENTS } from '../../agents/event.ts';
import { defineCommand } from '../command.ts';

export function hookCommand(ctx: AppContext) {
  return defineCommand({
    command: 'hook <event>',
    describe: "Answer an agent client's hook event: Claude Code's, or another client's with --agent (reads its JSON on stdin; always exits 0)",
    builder: (y) =>
      y
        .positional('event', { type: 'string', demandOption: true, describe: `One of ${HOOK_EVENTS.join(', ')} (kebab-case works too), or the client's own name for it` })
        .option('agent', { type: 'string', describe: `The client that runs the hook: ${AGENTS.join(', ')} (default: copilot when COPILOT_CLI=1 is set, else claude)` })
        .epilogue('Installed by git mem init --claude (or --codex, --copilot, --agents). Reads the client\'s event JSON and prints only the fields its hook contract documents; failures are one line on stderr.') as never,
    parse: (argv: { event: string; agent?: string }) => ({ event: argv.event, ...(argv.agent !== undefined ? { agent: argv.agent } : {}) }),
    run: async (o: { event: string; agent?: string }) => {
      const { runHook } = await import('../../hooks/index.ts');
      await runHook(o.event, ctx.io, ctx.env, ctx.now, o.agent);
    },
    render: () => {},
  });
}

import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { formatId } from '../../core/memory.ts';
import { json } from '../../render/render.ts';
import { forgetMemory } from '../../services/memories.ts';
import { jsonOption } from '../shared.ts';

export function forgetCommand(ctx: AppContext): CommandModule<object, { id: string; json: boolean }> {
  return {
    command: 'forget <id>',
    describe: 'Remove a memory, leaving a tombstone so merges do not bring it back',
    builder: (y) => y.positional('id', { type: 'string', demandOption: true, describe: 'Memory id' }).option('json', jsonOption) as never,
    handler: async (argv) => {
      const m = await forgetMemory(ctx, argv.id);
      ctx.io.out(argv.json ? json({ id: formatId(m), forgotten: true }) : `forgot ${formatId(m)}`);
    },
  };
}

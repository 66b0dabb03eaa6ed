import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { json } from '../../render/render.ts';
import { renderRelated, relatedJson } from '../../render/lifecycle.ts';
import { related } from '../../services/connect.ts';
import { findMemory } from '../../services/memories.ts';
import { jsonOption } from '../shared.ts';

interface RelatedArgs {
  id: string;
  limit: number;
  json: boolean;
}

export function relatedCommand(ctx: AppContext): CommandModule<object, RelatedArgs> {
  return {
    command: 'related <id>',
    describe: "A memory's links both ways, and the nearest memories not linked yet",
    builder: (y) =>
      y
        .positional('id', { type: 'string', demandOption: true, describe: 'Memory id' })
        .option('limit', { alias: 'l', type: 'number', default: 10, describe: 'At most this many unlinked neighbours' })
        .option('json', jsonOption)
        .epilogue(
          'Linked: the memories this one names (relates_to, consolidates, supersedes) and those that name it. Similar: memories of the same namespace at or above mem.lifecycle.connect in word similarity, or, with the embedding model (mem.recall.mode not lexical), at or above mem.lifecycle.connectCosine in cosine similarity.',
        ) as never,
    handler: async (argv) => {
      if (!Number.isInteger(argv.limit) || argv.limit < 0) throw new UsageError('--limit must be a whole number');
      const target = await findMemory(ctx, argv.id);
      const result = await related(ctx, target, { limit: argv.limit });
      if (result.notice) ctx.io.err(`git-mem: ${result.notice}`);
      ctx.io.out(argv.json ? json(relatedJson(result)) : renderRelated(result, ctx.io.color));
    },
  };
}

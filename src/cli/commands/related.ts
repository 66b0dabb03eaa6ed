import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { json } from '../../render/render.ts';
import { renderRelated, relatedJson } from '../../render/lifecycle.ts';
import { related } from '../../services/lifecycle/connect.ts';
import { findMemory } from '../../services/memories.ts';
import { defineCommand } from '../command.ts';
import { jsonOption } from '../shared.ts';

interface RelatedArgs {
  id: string;
  limit: number;
  json: boolean;
}

export function relatedCommand(ctx: AppContext) {
  return defineCommand({
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
    parse: (argv: RelatedArgs) => {
      if (!Number.isInteger(argv.limit) || argv.limit < 0) throw new UsageError('--limit must be a whole number');
      return { id: argv.id, limit: argv.limit, json: argv.json };
    },
    run: async (o) => related(ctx, await findMemory(ctx, o.id), { limit: o.limit }),
    render: (result, o) => {
      if (result.notice) ctx.io.err(`git-mem: ${result.notice}`);
      ctx.io.out(o.json ? json(relatedJson(result)) : renderRelated(result, ctx.io.color));
    },
  });
}

import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { formatId } from '../../core/memory.ts';
import { checkNamespace, checkStatus, parseTags } from '../../core/validate.ts';
import { bulkForgetJson, renderBulkForget } from '../../render/lifecycle.ts';
import { json } from '../../render/render.ts';
import { forgetMatching, forgetMemory } from '../../services/memories.ts';
import { defineCommand } from '../command.ts';
import { dateOption, jsonOption } from '../shared.ts';

interface ForgetArgs {
  id?: string;
  before?: string;
  namespace?: string[];
  status?: string[];
  tags?: string;
  query?: string;
  'dry-run': boolean;
  json: boolean;
}

/** One memory by id, or every memory a filter takes. */
type ForgetOptions = { id: string; json: boolean } | { filter: Parameters<typeof forgetMatching>[1]; dryRun: boolean; json: boolean };

export function forgetCommand(ctx: AppContext) {
  return defineCommand({
    command: 'forget [id]',
    describe: 'Remove a memory, or every memory a filter takes, leaving tombstones so merges do not bring them back',
    builder: (y) =>
      y
        .positional('id', { type: 'string', describe: 'Memory id (or give filters instead)' })
        .option('before', { type: 'string', describe: 'Captured before: a date, an ISO time or an age (90d)' })
        .option('namespace', { alias: 'n', type: 'string', array: true, describe: 'Only this namespace (repeatable)' })
        .option('status', { alias: 's', type: 'string', array: true, describe: 'Only this status: active, resolved, archived (repeatable)' })
        .option('tags', { alias: 't', type: 'string', describe: 'Only memories carrying all these tags (comma-separated)' })
        .option('query', { alias: 'q', type: 'string', describe: 'Only memories holding every one of these words (stemmed)' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'Print what would be forgotten; write nothing' })
        .option('json', jsonOption)
        .example('git mem forget decisions:1a2b3c4:5d6e7f8a9b', '')
        .example('git mem forget --before 180d --namespace progress --status resolved --dry-run', '')
        .epilogue('With filters, every one must hold; forget refuses to run with none. One notes commit per namespace.') as never,
    parse: (argv: ForgetArgs): ForgetOptions => {
      const filtered = argv.before !== undefined || argv.namespace?.length || argv.status?.length || argv.tags !== undefined || argv.query !== undefined;
      if (argv.id !== undefined) {
        if (filtered || argv['dry-run']) throw new UsageError('give a memory id or filters, not both');
        return { id: argv.id, json: argv.json };
      }
      const filter = {
        before: dateOption(argv.before, 'before', ctx.now()),
        namespaces: argv.namespace?.map((n) => checkNamespace(n, ctx.settings.namespaces)),
        statuses: argv.status?.map(checkStatus),
        tags: argv.tags !== undefined ? parseTags(argv.tags) : undefined,
        query: argv.query,
      };
      return { filter, dryRun: argv['dry-run'], json: argv.json };
    },
    run: async (o) => ('id' in o ? { one: await forgetMemory(ctx, o.id) } : { many: await forgetMatching(ctx, o.filter, o.dryRun) }),
    render: (r, o) => {
      if ('one' in r && r.one) ctx.io.out(o.json ? json({ id: formatId(r.one), forgotten: true }) : `forgot ${formatId(r.one)}`);
      else if ('many' in r && r.many) ctx.io.out(o.json ? json(bulkForgetJson(r.many)) : renderBulkForget(r.many, ctx.io.color, ctx.now()));
    },
  });
}

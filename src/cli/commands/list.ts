import { tracePhase } from '../../io/trace.ts';
import type { ChalkInstance } from 'chalk';
import type { Reach } from '../../core/history/anchor.ts';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { checkNamespace, checkStatus } from '../../core/validate.ts';
import { outPaged } from '../../io/pager.ts';
import { json, memoryJson, trustJson, memoryLine } from '../../render/render.ts';
import { asShown, type Shown } from '../../services/shown.ts';
import { listMemories } from '../../services/memories.ts';
import type { ListFilter } from '../../stores/index/filter.ts';
import { defineCommand } from '../command.ts';
import { dateOption, jsonOption } from '../shared.ts';

interface ListArgs {
  namespace?: string[];
  status?: string[];
  since?: string;
  until?: string;
  limit?: number;
  json: boolean;
}


export function listCommand(ctx: AppContext) {
  return defineCommand({
    command: 'list',
    aliases: ['ls'],
    describe: 'List memories, newest first',
    builder: (y) =>
      y
        .option('namespace', { alias: 'n', type: 'string', array: true, describe: 'Only this namespace (repeatable)' })
        .option('status', { alias: 's', type: 'string', array: true, describe: 'Only this status: active, resolved, archived (repeatable)' })
        .option('since', { type: 'string', describe: 'Created at or after: a date, an ISO time or an age (7d, 2w)' })
        .option('until', { type: 'string', describe: 'Created at or before' })
        .option('limit', { alias: 'l', type: 'number', describe: 'At most this many' })
        .option('json', jsonOption) as never,
    parse: (argv: ListArgs) => parseList(ctx, argv),
    run: (options) => runList(ctx, options.filter),
    render: async (rows, options) => {
      if (options.json) ctx.io.out(json(rows.map((r) => ({ ...memoryJson(r.memory), stale: r.stale ?? null, reach: r.reach, ...trustJson(r.trust) }))));
      else if (rows.length) await outPaged(ctx, renderList(rows, ctx.io.color, ctx.now()));
    },
  });
}

/** Parse: argv to the listing's filter (namespaces, statuses and dates checked). */
export function parseList(ctx: AppContext, argv: ListArgs): { filter: ListFilter; json: boolean } {
  const now = ctx.now();
  if (argv.limit !== undefined && (!Number.isInteger(argv.limit) || argv.limit < 0)) throw new UsageError('--limit must be a whole number');
  return {
    filter: {
      namespaces: argv.namespace?.map((n) => checkNamespace(n, ctx.settings.namespaces)),
      statuses: argv.status?.map(checkStatus),
      since: dateOption(argv.since, 'since', now),
      until: dateOption(argv.until, 'until', now),
      limit: argv.limit,
    },
    json: argv.json,
  };
}

/** A listed memory, with where its commit stands, whether its files changed since, and its trust. */
type ListRow = Shown & { reach: Reach };

/** Run: the memories, and what each line says of them. Prints nothing. */
export async function runList(ctx: AppContext, filter: ListFilter): Promise<ListRow[]> {
  const memories = await listMemories(ctx, filter);
  tracePhase('listed');
  const rows = asShown(ctx, memories, { reach: true, staleness: true, trust: true });
  tracePhase('shown');
  return rows.map((r) => ({ ...r, reach: r.reach ?? 'missing' }));
}

/** Render: one line a memory, newest first. */
export function renderList(rows: readonly ListRow[], c: ChalkInstance, now: Date): string {
  return rows.map((r) => memoryLine(r.memory, now, c, { stale: r.stale, reach: r.reach, trust: r.trust })).join('\n');
}

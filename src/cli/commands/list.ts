import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { checkNamespace, checkStatus } from '../../core/validate.ts';
import { canonicalTime, parseDateArg } from '../../core/time.ts';
import { outPaged } from '../../io/pager.ts';
import { json, memoryJson, memoryLine, staleJson } from '../../render/render.ts';
import { placementsOf } from '../../services/anchors.ts';
import { stalenessOf } from '../../services/staleness.ts';
import type { Memory } from '../../core/memory.ts';
import { listMemories } from '../../services/memories.ts';
import { jsonOption } from '../shared.ts';

interface ListArgs {
  namespace?: string[];
  status?: string[];
  since?: string;
  until?: string;
  limit?: number;
  json: boolean;
}

export function dateOption(text: string | undefined, flag: string, now: Date): string | undefined {
  if (text === undefined) return undefined;
  const date = parseDateArg(text, now);
  if (!date) throw new UsageError(`--${flag} '${text}' is not a date; use 2026-01-31, an ISO time, or an age like 7d`);
  return canonicalTime(date);
}

export function listCommand(ctx: AppContext): CommandModule<object, ListArgs> {
  return {
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
    handler: async (argv) => {
      const now = ctx.now();
      if (argv.limit !== undefined && (!Number.isInteger(argv.limit) || argv.limit < 0)) throw new UsageError('--limit must be a whole number');
      const namespaces = argv.namespace?.map((n) => checkNamespace(n, ctx.settings.namespaces));
      const memories = await listMemories(ctx, {
        namespaces,
        statuses: argv.status?.map(checkStatus),
        since: dateOption(argv.since, 'since', now),
        until: dateOption(argv.until, 'until', now),
        limit: argv.limit,
      });
      const stale = stalenessOf(ctx.repo, memories);
      const placed = placementsOf(ctx.repo, memories.map((m) => m.object));
      const reach = (m: Memory) => placed.get(m.object)?.reach ?? 'missing';
      if (argv.json) ctx.io.out(json(memories.map((m) => ({ ...memoryJson(m), stale: staleJson(stale.get(m.key)), reach: reach(m) }))));
      else if (memories.length) await outPaged(ctx, memories.map((m) => memoryLine(m, now, ctx.io.color, { stale: stale.get(m.key), reach: reach(m) })).join('\n'));
    },
  };
}

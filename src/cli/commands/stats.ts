import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { json } from '../../render/render.ts';
import { renderStats, statsJson } from '../../render/stats.ts';
import { memoryStats } from '../../services/stats.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface StatsArgs {
  weeks: number;
  json: boolean;
}

export function statsCommand(ctx: AppContext) {
  return defineCommand({
    command: 'stats',
    describe: 'Counts by namespace and status, captures per week, index and model state',
    builder: (y) =>
      y
        .option('weeks', { type: 'number', default: 12, describe: 'Weeks of captures to chart' })
        .option('json', jsonOption) as never,
    parse: (argv: StatsArgs) => {
      if (!Number.isInteger(argv.weeks) || argv.weeks < 1 || argv.weeks > 520) throw new UsageError('--weeks must be a whole number from 1 to 520');
      return { weeks: argv.weeks, json: argv.json };
    },
    run: (o) => memoryStats(ctx, o.weeks),
    render: (report, o) => {
      if (o.json) {
        ctx.io.out(json(statsJson(report)));
        return;
      }
      const unicode = ctx.io.stdoutIsTTY && /utf-?8/i.test(`${ctx.env.LC_ALL ?? ''}${ctx.env.LC_CTYPE ?? ''}${ctx.env.LANG ?? ''}`);
      ctx.io.out(renderStats(report, ctx.io.color, unicode));
    },
  });
}

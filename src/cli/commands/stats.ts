import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { json } from '../../render/render.ts';
import { renderStats, statsJson } from '../../render/stats.ts';
import { memoryStats } from '../../services/stats.ts';
import { jsonOption } from '../shared.ts';

interface StatsArgs {
  weeks: number;
  json: boolean;
}

export function statsCommand(ctx: AppContext): CommandModule<object, StatsArgs> {
  return {
    command: 'stats',
    describe: 'Counts by namespace and status, captures per week, index and model state',
    builder: (y) =>
      y
        .option('weeks', { type: 'number', default: 12, describe: 'Weeks of captures to chart' })
        .option('json', jsonOption) as never,
    handler: async (argv) => {
      if (!Number.isInteger(argv.weeks) || argv.weeks < 1 || argv.weeks > 520) throw new UsageError('--weeks must be a whole number from 1 to 520');
      const report = await memoryStats(ctx, argv.weeks);
      if (argv.json) {
        ctx.io.out(json(statsJson(report)));
        return;
      }
      const unicode = ctx.io.stdoutIsTTY && /utf-?8/i.test(`${ctx.env.LC_ALL ?? ''}${ctx.env.LC_CTYPE ?? ''}${ctx.env.LANG ?? ''}`);
      ctx.io.out(renderStats(report, ctx.io.color, unicode));
    },
  };
}

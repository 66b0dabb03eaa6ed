import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { STATUSES } from '../../core/memory.ts';
import { json } from '../../render/render.ts';
import { memoryStats, type StatsReport } from '../../services/stats.ts';
import { jsonOption } from '../shared.ts';

interface StatsArgs {
  weeks: number;
  json: boolean;
}

/** A bar of `n` out of `max`, at most `width` cells; any non-zero count shows at least one. */
function bar(n: number, max: number, width: number, cell: string): string {
  if (n === 0 || max === 0) return '';
  return cell.repeat(Math.max(1, Math.round((n / max) * width)));
}

export function renderStats(r: StatsReport, c: AppContext['io']['color'], unicode: boolean): string {
  const lines: string[] = [];
  const statusText = (by: Record<string, number>) => STATUSES.filter((s) => by[s]).map((s) => `${by[s]} ${s}`).join(', ') || 'none';
  lines.push(c.bold(`${r.total} memor${r.total === 1 ? 'y' : 'ies'}`) + (r.total ? `: ${statusText(r.byStatus)}` : ''));
  if (r.namespaces.length) {
    const w = Math.max(...r.namespaces.map((n) => n.name.length));
    const cols = STATUSES.map((s) => s.padStart(10)).join('');
    lines.push('', c.dim(`  ${'namespace'.padEnd(w)}  ${'total'.padStart(6)}${cols}`));
    for (const n of r.namespaces) lines.push(`  ${c.cyan(n.name.padEnd(w))}  ${String(n.total).padStart(6)}${STATUSES.map((s) => String(n.byStatus[s]).padStart(10)).join('')}`);
  }
  const max = Math.max(0, ...r.weeks.map((w) => w.count));
  lines.push('', c.dim(`captures per week (created, UTC; ${r.earlier} earlier)`));
  for (const w of r.weeks) lines.push(`  ${w.week}  ${String(w.count).padStart(5)}  ${c.green(bar(w.count, max, 40, unicode ? '█' : '#'))}`);
  const mb = (r.index.bytes / 1024 / 1024).toFixed(1);
  lines.push('', `index  ${r.index.memories} memories, ${r.index.revisions} revisions, ${r.index.tombstones} tombstones, ${mb} MB${r.index.updated ? ' (just caught up with the notes)' : ''}`);
  lines.push(c.dim(`       ${r.index.file}`));
  lines.push(`model  ${r.model.state}: ${r.model.detail}`);
  return lines.join('\n');
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
        ctx.io.out(json(report));
        return;
      }
      const unicode = ctx.io.stdoutIsTTY && /utf-?8/i.test(`${ctx.env.LC_ALL ?? ''}${ctx.env.LC_CTYPE ?? ''}${ctx.env.LANG ?? ''}`);
      ctx.io.out(renderStats(report, ctx.io.color, unicode));
    },
  };
}

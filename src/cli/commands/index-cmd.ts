import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { progressBar } from '../../io/progress.ts';
import { json } from '../../render/render.ts';
import { refreshIndex } from '../../services/reindex.ts';
import { jsonOption } from '../shared.ts';

interface IndexArgs {
  rebuild: boolean;
  json: boolean;
}

export function indexCommand(ctx: AppContext): CommandModule<object, IndexArgs> {
  return {
    command: 'index',
    describe: 'Bring the search index up to date with the notes now, or --rebuild it; prints what it holds',
    builder: (y) =>
      y
        .option('rebuild', { type: 'boolean', default: false, describe: 'Discard the index and rebuild it from the notes' })
        .option('json', jsonOption) as never,
    handler: async (argv) => {
      const started = performance.now();
      const bar = progressBar(ctx.io, argv.rebuild ? 'rebuilding index' : 'indexing', 'notes');
      let report;
      try {
        report = await refreshIndex(ctx, { rebuild: argv.rebuild, progress: (done, total) => bar.update(done, total) });
      } finally {
        bar.finish();
      }
      const ms = Math.round(performance.now() - started);
      if (argv.json) {
        ctx.io.out(json({ ...report, ms }));
        return;
      }
      const c = ctx.io.color;
      const what = report.rebuilt ? 'rebuilt from the notes' : report.updated ? 'updated' : 'already up to date';
      const nsCount = Object.keys(report.namespaces).length;
      const lines = [
        `index ${what}: ${report.memories} memor${report.memories === 1 ? 'y' : 'ies'} in ${nsCount} namespace${nsCount === 1 ? '' : 's'}, ${report.revisions} revision${report.revisions === 1 ? '' : 's'}, ${report.tombstones} tombstone${report.tombstones === 1 ? '' : 's'} (${ms} ms)`,
      ];
      const width = Math.max(0, ...Object.keys(report.namespaces).map((n) => n.length));
      for (const [ns, n] of Object.entries(report.namespaces)) lines.push(`  ${c.cyan(ns.padEnd(width))}  ${String(n).padStart(7)}`);
      lines.push(c.dim(`  ${report.file}`));
      ctx.io.out(lines.join('\n'));
    },
  };
}

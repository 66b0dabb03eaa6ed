import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { progressBar } from '../../io/progress.ts';
import { indexJson, renderIndex } from '../../render/index-report.ts';
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
      ctx.io.out(argv.json ? json(indexJson(report, ms)) : renderIndex(report, ms, ctx.io.color));
    },
  };
}

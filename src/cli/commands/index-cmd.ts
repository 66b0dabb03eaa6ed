import type { AppContext } from '../../context.ts';
import { progressBar } from '../../io/progress.ts';
import { indexJson, renderIndex } from '../../render/index-report.ts';
import { json } from '../../render/render.ts';
import { refreshIndex } from '../../services/reindex.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface IndexArgs {
  rebuild: boolean;
  json: boolean;
}

export function indexCommand(ctx: AppContext) {
  return defineCommand({
    command: 'index',
    describe: 'Bring the search index up to date with the notes now, or --rebuild it; prints what it holds',
    builder: (y) =>
      y
        .option('rebuild', { type: 'boolean', default: false, describe: 'Discard the index and rebuild it from the notes' })
        .option('json', jsonOption) as never,
    parse: (argv: IndexArgs) => ({ rebuild: argv.rebuild, json: argv.json }),
    run: async (o) => {
      const started = performance.now();
      const bar = progressBar(ctx.io, o.rebuild ? 'rebuilding index' : 'indexing', 'notes');
      try {
        const report = await refreshIndex(ctx, { rebuild: o.rebuild, progress: (done, total) => bar.update(done, total) });
        return { report, ms: Math.round(performance.now() - started) };
      } finally {
        bar.finish();
      }
    },
    render: ({ report, ms }, o) => ctx.io.out(o.json ? json(indexJson(report, ms)) : renderIndex(report, ms, ctx.io.color)),
  });
}

import type { AppContext } from '../../context.ts';
import { GitMemError } from '../../core/errors.ts';
import { progressBar } from '../../io/progress.ts';
import { json } from '../../render/render.ts';
import { type ModelResult, modelJson, modelNotices, renderModel } from '../../render/model.ts';
import { distillModel, embedAll, FETCH_PROGRESS, locateModel, modelStatus, pullModel } from '../../services/search/model.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

const ACTIONS = ['status', 'pull', 'embed', 'distill'] as const;

interface ModelArgs {
  action: (typeof ACTIONS)[number];
  json: boolean;
  check: boolean;
  force: boolean;
}

/** Each action with the flags it reads (`--check` is status's, `--force` pull's). */
export type ModelOptions =
  | { action: 'status'; check: boolean; json: boolean }
  | { action: 'pull'; force: boolean; json: boolean }
  | { action: 'embed'; json: boolean }
  | { action: 'distill'; json: boolean };

export function parseModel(argv: ModelArgs): ModelOptions {
  if (argv.action === 'status') return { action: 'status', check: argv.check, json: argv.json };
  if (argv.action === 'pull') return { action: 'pull', force: argv.force, json: argv.json };
  return argv.action === 'embed' ? { action: 'embed', json: argv.json } : { action: 'distill', json: argv.json };
}

export function modelCommand(ctx: AppContext) {
  /** Runs `work` with a progress bar on stderr (a terminal only), erased when it ends, however it ends. */
  const withBar = async <T>(label: string, unit: string, work: (update: (done: number, total: number) => void) => Promise<T>): Promise<T> => {
    const bar = progressBar(ctx.io, label, unit);
    try {
      return await work((done, total) => bar.update(done, total));
    } finally {
      bar.finish();
    }
  };

  const run = async (o: ModelOptions): Promise<ModelResult> => {
    if (o.action === 'pull') {
      const loc = locateModel(ctx);
      if (loc.state.complete && loc.source === 'cache' && !o.force) return { action: 'pull', fetched: false, path: loc.state.dir, bytes: loc.state.bytes };
      const started = performance.now();
      let result: { bytes: number; dir: string };
      try {
        result = await withBar(FETCH_PROGRESS.label, FETCH_PROGRESS.unit, (progress) => pullModel(ctx, loc, { progress }));
      } catch (err) {
        throw new GitMemError(`cannot fetch the embedding model: ${(err as Error).message}`, 'check the network, or copy the model and set mem.modelPath');
      }
      const elsewhere = loc.source !== 'cache' ? { elsewhere: { source: loc.source, dir: loc.state.dir } } : {};
      return { action: 'pull', fetched: true, path: result.dir, bytes: result.bytes, ms: performance.now() - started, ...elsewhere };
    }
    if (o.action === 'embed') {
      // Two bars, one after the other: the memories, then (the first time) the static query table.
      const bar = progressBar(ctx.io, 'embedding', 'memories');
      let table: ReturnType<typeof progressBar> | undefined;
      try {
        const report = await embedAll(
          ctx,
          (done, total) => bar.update(done, total),
          (done, total) => {
            if (!table) {
              bar.finish();
              table = progressBar(ctx.io, 'distilling the static query table', 'tokens');
            }
            table.update(done, total);
          },
        );
        return { action: 'embed', report };
      } finally {
        bar.finish();
        table?.finish();
      }
    }
    if (o.action === 'distill') return { action: 'distill', report: await withBar('distilling the static query table', 'tokens', (progress) => distillModel(ctx, progress)) };
    return { action: 'status', status: await modelStatus(ctx, { check: o.check }) };
  };

  return defineCommand({
    command: 'model <action>',
    describe: 'The embedding model of semantic search: status (where it is), pull (fetch it now), embed (vectors for all memories now), distill (the static query table again)',
    builder: (y) =>
      y
        .positional('action', { type: 'string', choices: ACTIONS, demandOption: true, describe:
            'status: where the model is and whether it is there; pull: fetch it into the cache; embed: compute missing vectors (and the static query table if missing); distill: make the static query table again',
        })
        .option('check', { type: 'boolean', default: false, describe: 'status: also load the model and embed a sentence, with timings' })
        .option('force', { type: 'boolean', default: false, describe: 'pull: fetch even if the model is already there' })
        .option('json', jsonOption)
        .example('git mem model status', 'Where the model is looked for, and whether it is there')
        .example('git mem model pull', 'Fetch Xenova/all-MiniLM-L6-v2 (about 23 MB) now, with a progress bar')
        .example('git mem model embed', 'Vectors for every memory, and the static query table the first time (recall then embeds a query in milliseconds)')
        .epilogue(
          'Settings: mem.modelPath / GIT_MEM_MODEL_PATH (a local copy of the model directory: config.json, tokenizer.json, tokenizer_config.json, onnx/model_quantized.onnx), mem.modelDownload / GIT_MEM_MODEL_DOWNLOAD (false: never fetch on first use), mem.modelUrl / GIT_MEM_MODEL_URL (a mirror). The cache is $XDG_CACHE_HOME/git-mem/models (default ~/.cache). The static query table (git-mem-static.bin beside the model, or in the cache) embeds queries without the model; mem.recall.queryEmbedding model / GIT_MEM_RECALL_QUERY_EMBEDDING=model uses the model instead.',
        ) as never,
    parse: parseModel,
    run,
    render: (r: ModelResult, o: ModelOptions) => {
      ctx.io.out(o.json ? json(modelJson(r)) : renderModel(r, ctx.io.color));
      for (const notice of modelNotices(r, o.json)) ctx.io.err(`git-mem: ${notice}`);
      // Exit 1 once the status is printed (main.ts prints the line).
      if (r.action === 'status' && r.status.check && !r.status.check.ok) throw new GitMemError(`the model check failed: ${r.status.check.error}`);
    },
  });
}

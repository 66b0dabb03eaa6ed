import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { GitMemError } from '../../core/errors.ts';
import { progressBar } from '../../io/progress.ts';
import { json } from '../../render/render.ts';
import { distillModel, embedAll, locateModel, modelStatus, pullModel } from '../../services/search/model.ts';
import { jsonOption } from '../shared.ts';

const ACTIONS = ['status', 'pull', 'embed', 'distill'] as const;

interface ModelArgs {
  action: (typeof ACTIONS)[number];
  json: boolean;
  check: boolean;
  force: boolean;
}

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (x: number) => `${Math.round(x)} ms`;

export function modelCommand(ctx: AppContext): CommandModule<object, ModelArgs> {
  return {
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
    handler: async (argv) => {
      const c = ctx.io.color;
      if (argv.action === 'pull') {
        const loc = locateModel(ctx);
        if (loc.state.complete && loc.source === 'cache' && !argv.force) {
          if (argv.json) ctx.io.out(json({ fetched: false, path: loc.state.dir, bytes: loc.state.bytes }));
          else ctx.io.out(`model already present: ${loc.state.dir} (${mb(loc.state.bytes)}); --force fetches it again`);
          return;
        }
        const started = performance.now();
        let result;
        try {
          result = await pullModel(ctx, loc);
        } catch (err) {
          throw new GitMemError(`cannot fetch the embedding model: ${(err as Error).message}`, 'check the network, or copy the model and set mem.modelPath');
        }
        const took = performance.now() - started;
        if (argv.json) ctx.io.out(json({ fetched: true, path: result.dir, bytes: result.bytes, ms: Math.round(took) }));
        else {
          ctx.io.out(`fetched ${mb(result.bytes)} into ${result.dir} (${ms(took)})`);
          if (loc.source !== 'cache') ctx.io.err(`git-mem: note: ${loc.source} points at ${loc.state.dir}, which recall uses instead of the cache`);
        }
        return;
      }

      if (argv.action === 'embed') {
        const bar = progressBar(ctx.io, 'embedding', 'memories');
        let table: ReturnType<typeof progressBar> | undefined;
        let report;
        try {
          report = await embedAll(
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
        } finally {
          bar.finish();
          table?.finish();
        }
        if (argv.json) ctx.io.out(json({ ...report, embedMs: Math.round(report.embedMs), ...(report.distilled ? { distilled: { ...report.distilled, ms: Math.round(report.distilled.ms) } } : {}) }));
        else {
          const each = report.embedded ? ` (${(report.embedMs / report.embedded).toFixed(1)} ms each)` : '';
          ctx.io.out(`${report.embedded} memor${report.embedded === 1 ? 'y' : 'ies'} embedded in ${ms(report.embedMs)}${each}; ${report.reused} already had a vector; model ${report.modelId}`);
          if (report.distilled) ctx.io.out(`static query table: ${report.distilled.tokens} tokens distilled in ${ms(report.distilled.ms)} into ${report.distilled.file} (${mb(report.distilled.bytes)})`);
        }
        if (report.distillError) ctx.io.err(`git-mem: no static query table (${report.distillError}); recall embeds queries with the model`);
        return;
      }

      if (argv.action === 'distill') {
        const bar = progressBar(ctx.io, 'distilling the static query table', 'tokens');
        let report;
        try {
          report = await distillModel(ctx, (done, total) => bar.update(done, total));
        } finally {
          bar.finish();
        }
        if (argv.json) ctx.io.out(json({ ...report, ms: Math.round(report.ms) }));
        else ctx.io.out(`static query table: ${report.tokens} tokens distilled in ${ms(report.ms)} into ${report.file} (${mb(report.bytes)})`);
        return;
      }

      const s = await modelStatus(ctx, { check: argv.check });
      if (argv.json) {
        ctx.io.out(json(s));
        return;
      }
      const where = s.source === 'cache' ? 'cache' : s.source;
      const lines = [
        `model      ${s.model}${s.dimension ? ` (${s.dimension} dimensions)` : ''}`,
        `path       ${s.path} (${where})`,
        `status     ${s.present ? c.green(`present, ${mb(s.bytes)}`) : c.yellow(`missing ${s.files.filter((f) => f.bytes === null).map((f) => f.file).join(', ')}`)}`,
      ];
      if (s.modelId) lines.push(`id         ${s.modelId}`);
      if (!s.present) {
        lines.push(
          s.source === 'cache'
            ? `fetch      ${s.download.allowed ? 'on first semantic recall, or now with git mem model pull' : 'off (mem.modelDownload); git mem model pull fetches it'} from ${s.download.url}`
            : `fetch      copy the model directory there, or unset ${s.source} to use the cache`,
        );
      }
      if (s.download.lastFailure && s.source === 'cache') lines.push(`last fetch ${c.dim(`failed ${s.download.lastFailure.at}: ${s.download.lastFailure.reason}`)}`);
      if (s.vectors) lines.push(`vectors    ${s.vectors.embedded} of ${s.vectors.memories} memories embedded`);
      if (s.staticTable !== undefined) {
        lines.push(
          s.staticTable
            ? `queries    static table ${s.staticTable.file} (${mb(s.staticTable.bytes)})${s.staticTable.used ? '' : c.dim(', unused: mem.recall.queryEmbedding is model')}`
            : `queries    embedded by the model (no static table yet: git mem model embed makes it)`,
        );
      }
      if (s.check) {
        lines.push(
          s.check.ok
            ? `check      ok: runtime ${ms(s.check.runtimeMs)}, tokenizer ${ms(s.check.tokenizerMs)}, model ${ms(s.check.sessionMs)}, one sentence ${ms(s.check.embedMs)}`
            : `check      ${c.red(`failed: ${s.check.error}`)}`,
        );
      }
      ctx.io.out(lines.join('\n'));
      if (s.check && !s.check.ok) throw new GitMemError(`the model check failed: ${s.check.error}`);
    },
  };
}

/** `git mem model <action>`: what each action did, as JSON and as text, and its notices for stderr. */
import type { ChalkInstance } from 'chalk';
import type { EmbedReport, ModelSource, ModelStatus } from '../services/search/model.ts';
import type { DistillReport } from '../services/search/static-query.ts';

/** What one action of `git mem model` did (the run step's result). */
export type ModelResult =
  | { action: 'status'; status: ModelStatus }
  /** The model was already in the cache: nothing fetched. */
  | { action: 'pull'; fetched: false; path: string; bytes: number }
  /** `elsewhere`: mem.modelPath or GIT_MEM_MODEL_PATH points at another copy, which recall uses instead. */
  | { action: 'pull'; fetched: true; path: string; bytes: number; ms: number; elsewhere?: { source: Exclude<ModelSource, 'cache'>; dir: string } }
  | { action: 'embed'; report: EmbedReport }
  | { action: 'distill'; report: DistillReport };

const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
const ms = (x: number) => `${Math.round(x)} ms`;

/** The JSON `--json` prints: the status as the service gives it; times in whole milliseconds. */
export function modelJson(r: ModelResult): unknown {
  switch (r.action) {
    case 'status':
      return r.status;
    case 'pull':
      return r.fetched ? { fetched: true, path: r.path, bytes: r.bytes, ms: Math.round(r.ms) } : { fetched: false, path: r.path, bytes: r.bytes };
    case 'embed': {
      const report = r.report;
      return { ...report, embedMs: Math.round(report.embedMs), ...(report.distilled ? { distilled: { ...report.distilled, ms: Math.round(report.distilled.ms) } } : {}) };
    }
    case 'distill':
      return { ...r.report, ms: Math.round(r.report.ms) };
  }
}

const distilledLine = (d: DistillReport) => `static query table: ${d.tokens} tokens distilled in ${ms(d.ms)} into ${d.file} (${mb(d.bytes)})`;

export function renderModel(r: ModelResult, c: ChalkInstance): string {
  switch (r.action) {
    case 'status':
      return renderModelStatus(r.status, c);
    case 'pull':
      return r.fetched ? `fetched ${mb(r.bytes)} into ${r.path} (${ms(r.ms)})` : `model already present: ${r.path} (${mb(r.bytes)}); --force fetches it again`;
    case 'embed': {
      const report = r.report;
      const each = report.embedded ? ` (${(report.embedMs / report.embedded).toFixed(1)} ms each)` : '';
      const lines = [`${report.embedded} memor${report.embedded === 1 ? 'y' : 'ies'} embedded in ${ms(report.embedMs)}${each}; ${report.reused} already had a vector; model ${report.modelId}`];
      if (report.distilled) lines.push(distilledLine(report.distilled));
      return lines.join('\n');
    }
    case 'distill':
      return distilledLine(r.report);
  }
}

/** Lines for stderr (each printed after `git-mem: `), after the output: in text mode, or in both where said. */
export function modelNotices(r: ModelResult, json: boolean): string[] {
  if (r.action === 'pull' && r.fetched && r.elsewhere && !json) return [`note: ${r.elsewhere.source} points at ${r.elsewhere.dir}, which recall uses instead of the cache`];
  if (r.action === 'embed' && r.report.distillError) return [`no static query table (${r.report.distillError}); recall embeds queries with the model`];
  return [];
}

function renderModelStatus(s: ModelStatus, c: ChalkInstance): string {
  const lines = [
    `model      ${s.model}${s.dimension ? ` (${s.dimension} dimensions)` : ''}`,
    `path       ${s.path} (${s.source})`,
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
  return lines.join('\n');
}

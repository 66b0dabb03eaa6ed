/**
 * The embedding model as a use case: where it is, fetching it (on first
 * semantic use where a network exists, or with `git mem model pull`), and
 * loading it. Configuration: mem.modelPath / GIT_MEM_MODEL_PATH (a local copy,
 * for machines without a network), mem.modelDownload / GIT_MEM_MODEL_DOWNLOAD
 * (false: never fetch on first use), mem.modelUrl / GIT_MEM_MODEL_URL (a mirror).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from '../deps.ts';
import { errorMessage, GitMemError } from '../../core/errors.ts';
import { DownloadError, downloadModel, type FailureRecord, readFailure, recordFailure, RETRY_AFTER_MS } from '../../stores/embed/download.ts';
import type { Embedder, LoadedEmbedder, LoadTimings } from '../../stores/embed/embedder.ts';
import { cachedModelDir, cacheRoot, DEFAULT_MODEL, inspectModel, type ModelInfo, modelInfo, type ModelState } from '../../stores/embed/model-files.ts';
import { tracePhase } from '../../io/trace.ts';
import type { DistillReport } from './static-query.ts';

/** What this file's services use. */
export type ModelDeps = Pick<Deps, 'env' | 'index' | 'indexFile' | 'io' | 'notes' | 'now' | 'progress' | 'repo' | 'settings'>;

export type ModelSource = 'GIT_MEM_MODEL_PATH' | 'mem.modelPath' | 'cache';

export interface ModelConfig {
  /** A local copy given by the user, and where that came from. */
  modelPath?: { dir: string; source: 'GIT_MEM_MODEL_PATH' | 'mem.modelPath' };
  /** Fetch the model on first semantic use (default true). */
  download: boolean;
  url: string;
}

/** The model settings, from the one table of settings (services/settings.ts). */
export function readModelConfig(ctx: ModelDeps): ModelConfig {
  const s = ctx.settings;
  return { ...(s.modelPath ? { modelPath: s.modelPath } : {}), download: s.modelDownload, url: s.modelUrl };
}

export interface ModelLocation {
  config: ModelConfig;
  source: ModelSource;
  state: ModelState;
  cacheDir: string;
}

export function locateModel(ctx: ModelDeps): ModelLocation {
  const config = readModelConfig(ctx);
  const dir = config.modelPath?.dir ?? cachedModelDir(ctx.env);
  return { config, source: config.modelPath?.source ?? 'cache', state: inspectModel(dir), cacheDir: cacheRoot(ctx.env) };
}

/** Timeouts of the automatic fetch on first use: short, so a recall never hangs on a network that is not there. */
const AUTO = { connectMs: 3000, stallMs: 10_000 };
/** `git mem model pull`: asked for, so more patient. */
const PULL = { connectMs: 15_000, stallMs: 30_000 };

/** The label and unit of the progress of a fetch (`progress` of pullModel counts KiB). */
export const FETCH_PROGRESS = { label: `fetching ${DEFAULT_MODEL}`, unit: 'KiB' } as const;

/**
 * Fetches the default model into the cache. Errors are DownloadError with one
 * line; a failure is recorded so that automatic attempts pause for an hour.
 * `progress` hears the KiB fetched (the caller draws it; this prints nothing).
 */
export async function pullModel(
  ctx: ModelDeps,
  loc: ModelLocation,
  options: { auto?: boolean; onStart?: () => void; progress?: (doneKiB: number, totalKiB: number) => void } = {},
): Promise<{ bytes: number; dir: string }> {
  const dir = cachedModelDir(ctx.env);
  const progress = options.progress;
  try {
    const { bytes } = await downloadModel({
      baseUrl: loc.config.url,
      dir,
      ...(options.auto ? AUTO : PULL),
      ...(options.onStart ? { onStart: options.onStart } : {}),
      ...(progress ? { progress: (done: number, total: number) => progress(Math.round(done / 1024), Math.round(total / 1024)) } : {}),
    });
    recordFailure(loc.cacheDir, null);
    return { bytes, dir };
  } catch (err) {
    const reason = err instanceof DownloadError ? err.message : errorMessage(err);
    recordFailure(loc.cacheDir, { at: ctx.now().toISOString(), reason });
    throw new DownloadError(reason);
  }
}

export type EmbedderResult = { embedder: LoadedEmbedder; info: ModelInfo; location: ModelLocation } | { notice: string; location: ModelLocation };

/**
 * The embedder, or why there is none (one line, for stderr). With
 * `download`, a missing default model is fetched first when the settings allow
 * it and no attempt failed within the hour; hooks never pass it.
 */
export async function openEmbedder(ctx: ModelDeps, options: { download?: boolean; threads?: number } = {}): Promise<EmbedderResult> {
  const location = locateModel(ctx);
  const { config, state } = location;
  if (!state.complete) {
    if (config.modelPath) return { notice: `no embedding model at ${state.dir} (${config.modelPath.source}); it needs ${missingFiles(state)}`, location };
    let why = 'git mem model pull fetches it';
    const last = readFailure(location.cacheDir);
    const recent = last && ctx.now().getTime() - Date.parse(last.at) < RETRY_AFTER_MS;
    if (options.download && config.download && !recent) {
      const bar = ctx.progress(FETCH_PROGRESS.label, FETCH_PROGRESS.unit);
      try {
        // Said only once a server answered: where there is no network, the notice below is the one line printed.
        await pullModel(ctx, location, {
          auto: true,
          onStart: () => ctx.io.err(`git-mem: fetching the embedding model ${DEFAULT_MODEL} (about 23 MB, once) into ${state.dir}`),
          progress: (done, total) => bar.update(done, total),
        });
      } catch (err) {
        why = `fetching it failed: ${errorMessage(err)}`;
      } finally {
        bar.finish();
      }
    } else if (recent && config.download) {
      why = `the last fetch failed: ${last.reason}; git mem model pull retries`;
    }
    location.state = inspectModel(state.dir);
    if (!location.state.complete) return { notice: `no embedding model is available (${why})`, location };
  }
  try {
    const info = modelInfo(location.state.dir, location.source === 'cache' ? DEFAULT_MODEL : path.basename(location.state.dir));
    const { loadEmbedder } = await import('../../stores/embed/embedder.ts');
    const embedder = await loadEmbedder(info, ctx.env, { threads: options.threads });
    tracePhase(`embedding model loaded: ${info.modelId}`);
    return { embedder, info, location };
  } catch (err) {
    return { notice: `the embedding model at ${location.state.dir} could not be loaded (${oneLine(errorMessage(err))})`, location };
  }
}

/**
 * What a search embeds with (services/search/semantic.ts SearchEmbedders), or why
 * nothing (one line). With mem.recall.queryEmbedding static and the model's
 * static table present, the query costs milliseconds and the model is loaded
 * only if a memory lacks a vector; `model: false` (the hooks) never loads it,
 * and without a table there is then nothing to search with.
 */
export async function openSearchEmbedders(
  ctx: ModelDeps,
  options: { download?: boolean; threads?: number; model?: boolean } = {},
): Promise<{ query: Embedder; documents: () => Promise<Embedder | null>; kind: 'static' | 'model' } | { notice: string; location: ModelLocation }> {
  if (ctx.settings.queryEmbedding === 'static' || options.model === false) {
    const location = locateModel(ctx);
    if (location.state.complete) {
      try {
        const info = modelInfo(location.state.dir, location.source === 'cache' ? DEFAULT_MODEL : path.basename(location.state.dir));
        const { openStaticEmbedder } = await import('./static-query.ts');
        const query = openStaticEmbedder(info, ctx.env, location.source === 'cache');
        if (query) {
          tracePhase(`static query table loaded: ${query.file}`);
          let documents: Promise<Embedder | null> | undefined;
          const open = () => openEmbedder(ctx, { threads: options.threads }).then((o) => ('embedder' in o ? o.embedder : null));
          return { query, documents: options.model === false ? async () => null : () => (documents ??= open()), kind: 'static' };
        }
      } catch {
        // An unreadable config.json: the full path below says why.
      }
    }
    if (options.model === false) return { notice: 'no static query table (git mem model embed makes it)', location };
  }
  const opened = await openEmbedder(ctx, options);
  if (!('embedder' in opened)) return opened;
  return { query: opened.embedder, documents: async () => opened.embedder, kind: 'model' };
}

function missingFiles(state: ModelState): string {
  return state.files
    .filter((f) => f.bytes === null)
    .map((f) => f.file)
    .join(', ');
}

function oneLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim()) ?? text;
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

export function lastFailure(loc: ModelLocation): FailureRecord | null {
  return readFailure(loc.cacheDir);
}

export interface ModelStatus {
  model: string;
  /** Where the files are looked for, and why there. */
  path: string;
  source: ModelSource;
  present: boolean;
  files: Array<{ file: string; bytes: number | null }>;
  bytes: number;
  modelId: string | null;
  dimension: number | null;
  download: { allowed: boolean; url: string; lastFailure: FailureRecord | null };
  /** In a repository: how many current memories have a vector of this model. */
  vectors?: { embedded: number; memories: number; file: string };
  /** The static query table (git mem model embed or distill makes it), when the model is present. */
  staticTable?: { file: string; bytes: number; used: boolean } | null;
  /** With --check: the model loaded and embedded a sentence (or why not). */
  check?: { ok: true; runtimeMs: number; tokenizerMs: number; sessionMs: number; embedMs: number } | { ok: false; error: string };
}

export async function modelStatus(ctx: ModelDeps, options: { check?: boolean } = {}): Promise<ModelStatus> {
  const loc = locateModel(ctx);
  let info: ModelInfo | null = null;
  if (loc.state.complete) {
    try {
      info = modelInfo(loc.state.dir, loc.source === 'cache' ? DEFAULT_MODEL : path.basename(loc.state.dir));
    } catch {
      // Reported as not loadable by --check; status stays cheap.
    }
  }
  const status: ModelStatus = {
    model: loc.source === 'cache' ? DEFAULT_MODEL : (info?.name ?? path.basename(loc.state.dir)),
    path: loc.state.dir,
    source: loc.source,
    present: loc.state.complete,
    files: loc.state.files,
    bytes: loc.state.bytes,
    modelId: info?.modelId ?? null,
    dimension: info?.dimension || null,
    download: { allowed: loc.config.download, url: loc.config.url, lastFailure: readFailure(loc.cacheDir) },
  };
  if (info) {
    const vectors = await vectorCoverage(ctx, info.modelId);
    if (vectors) status.vectors = vectors;
    const { openStaticEmbedder } = await import('./static-query.ts');
    const table = openStaticEmbedder(info, ctx.env, loc.source === 'cache');
    status.staticTable = table ? { file: table.file, bytes: fs.statSync(table.file).size, used: ctx.settings.queryEmbedding === 'static' } : null;
  }
  if (options.check) {
    if (!loc.state.complete) status.check = { ok: false, error: `missing ${missingFiles(loc.state)}` };
    else {
      const opened = await openEmbedder(ctx);
      if (!('embedder' in opened)) status.check = { ok: false, error: opened.notice };
      else {
        const t0 = performance.now();
        try {
          await opened.embedder.embed(['Why did we choose sql.js for the index?']);
          const t = opened.embedder.timings;
          const round = (x: number) => Math.round(x * 10) / 10;
          status.check = { ok: true, runtimeMs: round(t.runtimeMs), tokenizerMs: round(t.tokenizerMs), sessionMs: round(t.sessionMs), embedMs: round(performance.now() - t0) };
        } catch (err) {
          status.check = { ok: false, error: oneLine(errorMessage(err)) };
        }
      }
    }
  }
  return status;
}

/** Null outside a repository. */
async function vectorCoverage(ctx: ModelDeps, modelId: string): Promise<ModelStatus['vectors'] | null> {
  try {
    void ctx.repo;
  } catch {
    return null;
  }
  const [{ VectorStore }, { vectorsFile }] = await Promise.all([import('../../stores/index/vectors/vector-store.ts'), import('./semantic.ts')]);
  const candidates = await ctx.index.candidates({});
  const vectors = await new VectorStore(vectorsFile(ctx)).vectors(modelId);
  return { embedded: candidates.filter((c) => vectors.has(c.key, c.hash)).length, memories: candidates.length, file: vectorsFile(ctx) };
}

export interface EmbedReport {
  modelId: string;
  memories: number;
  embedded: number;
  /** Already had a vector. */
  reused: number;
  embedMs: number;
  load: LoadTimings;
  /** The static query table, when this run distilled it (it was missing). */
  distilled?: DistillReport;
  /** Why the static query table could not be made (recall then embeds queries with the model). */
  distillError?: string;
}

/**
 * `git mem model embed`: a vector for every current memory now, with no time
 * budget; drops vectors of memories gone or changed; and distils the static
 * query table when the model has none yet.
 */
export async function embedAll(ctx: ModelDeps, progress?: (done: number, total: number) => void, distillProgress?: (done: number, total: number) => void): Promise<EmbedReport> {
  const opened = await openEmbedder(ctx);
  if (!('embedder' in opened)) throw new GitMemError(opened.notice, 'git mem model pull, or set mem.modelPath');
  const { backfill, tipsDigest } = await import('./semantic.ts');
  const coveredTips = tipsDigest(ctx);
  const candidates = await ctx.index.candidates({});
  const { report } = await backfill(ctx, opened.embedder, candidates, { complete: true, progress, coveredTips });
  const out: EmbedReport = { modelId: opened.embedder.modelId, memories: report.total, embedded: report.embedded, reused: report.total - report.embedded, embedMs: report.embedMs, load: opened.embedder.timings };
  const { openStaticEmbedder, distillStaticTable } = await import('./static-query.ts');
  if (!openStaticEmbedder(opened.info, ctx.env, opened.location.source === 'cache')) {
    try {
      out.distilled = await distillStaticTable(opened.info, opened.embedder, ctx.env, opened.location.source === 'cache', distillProgress);
    } catch (err) {
      out.distillError = oneLine(errorMessage(err));
    }
  }
  return out;
}

/** `git mem model distill`: the static query table of the model, made again. */
export async function distillModel(ctx: ModelDeps, progress?: (done: number, total: number) => void): Promise<DistillReport> {
  const opened = await openEmbedder(ctx);
  if (!('embedder' in opened)) throw new GitMemError(opened.notice, 'git mem model pull, or set mem.modelPath');
  const { distillStaticTable } = await import('./static-query.ts');
  try {
    return await distillStaticTable(opened.info, opened.embedder, ctx.env, opened.location.source === 'cache', progress);
  } catch (err) {
    throw new GitMemError(oneLine(errorMessage(err)), 'set mem.recall.queryEmbedding model: queries are then embedded by the model');
  }
}

/**
 * One-line model state for `git mem doctor` and `git mem stats`
 * (services/search/model-status.ts has the same shape): cheap and synchronous, never
 * loads or fetches. "ready" means the files are all there (`git mem model
 * status --check` loads it); "missing": some are not, named as `git mem model
 * status` names them (recall fetches the default model on first use where it may).
 */
export function describeModel(ctx: ModelDeps): { state: 'ready' | 'missing'; detail: string; location: string | null } {
  const loc = locateModel(ctx);
  const where = loc.source === 'cache' ? 'cache' : loc.source;
  if (loc.state.complete) return { state: 'ready', detail: `${loc.source === 'cache' ? DEFAULT_MODEL : path.basename(loc.state.dir)} (${where}, ${(loc.state.bytes / 1024 / 1024).toFixed(1)} MB)`, location: loc.state.dir };
  if (loc.config.modelPath) return { state: 'missing', detail: `missing ${missingFiles(loc.state)}: ${loc.source} points at ${loc.state.dir}; recall uses lexical search`, location: loc.state.dir };
  const last = readFailure(loc.cacheDir);
  const fetch = !loc.config.download ? 'automatic fetch is off (mem.modelDownload)' : last ? `last fetch failed: ${last.reason}` : 'fetched on first semantic recall';
  return { state: 'missing', detail: `missing ${missingFiles(loc.state)}: ${DEFAULT_MODEL} is not in the cache (${fetch}); git mem model pull fetches it; until then recall uses lexical search`, location: loc.state.dir };
}

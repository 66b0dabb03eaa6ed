/**
 * The embed store: sentence embeddings behind a small interface. The model
 * runs with onnxruntime (native, through transformers.js 2.x's backend) and is
 * tokenized by transformers.js; both load only when something is embedded.
 */
import path from 'node:path';
import { meanPool } from '../../core/search/embedding.ts';
import { cacheRoot, type ModelInfo } from './model-files.ts';

export interface Embedder {
  /** Identifies the model and its exact files (see ModelInfo.modelId). */
  readonly modelId: string;
  /** Length of every vector embed() returns. */
  readonly dimension: number;
  /** One unit-length vector per text, in order. */
  embed(texts: string[]): Promise<Float32Array[]>;
}

/** MiniLM's sentence-transformers setting: longer inputs are cut to this many word pieces. */
export const MAX_TOKENS = 256;
/** Texts per model run. Texts are sorted by length first, so a batch pads little. */
export const BATCH_SIZE = 16;

/** A loaded model: sentences, and single tokens (for the static query table, services/search/static-query.ts). */
export interface LoadedEmbedder extends Embedder {
  timings: LoadTimings;
  /**
   * For each token id, the model's mean-pooled output (not scaled to unit
   * length) for the sequence `[cls, id, sep]`: what embedding that token alone
   * as a sentence gives.
   */
  embedTokens(ids: readonly number[], special: { cls: number; sep: number }): Promise<Float32Array[]>;
  /** The model's mean-pooled output (not scaled to unit length) for `[cls, sep]` alone: what an empty sentence gives. */
  embedBare(special: { cls: number; sep: number }): Promise<Float32Array>;
}

/** Timings of the last load, for `git mem model status --check` and the benchmarks. */
export interface LoadTimings {
  runtimeMs: number;
  tokenizerMs: number;
  sessionMs: number;
}

/** True inside the binary made by `bun build --compile` (its modules live under /$bunfs/). */
export function isCompiledBinary(): boolean {
  return import.meta.url.includes('$bunfs') || import.meta.url.includes('~BUN');
}

/**
 * Loads the model in `info.dir`. Throws (with a one-line message) when the
 * runtime or the files cannot be loaded; callers fall back to lexical search.
 */
export async function loadEmbedder(info: ModelInfo, env: NodeJS.ProcessEnv, options: { threads?: number } = {}): Promise<LoadedEmbedder> {
  const t0 = performance.now();
  if (isCompiledBinary()) {
    const { preloadOnnxRuntime } = await import('./ort-runtime.ts');
    const sub = path.join('runtime', 'onnxruntime-1.14.0-linux-x64');
    try {
      await preloadOnnxRuntime(path.join(cacheRoot(env), sub));
    } catch (err) {
      // A cache directory we cannot write to: the temporary directory, per user.
      if ((err as NodeJS.ErrnoException).code === undefined) throw err;
      const os = await import('node:os');
      await preloadOnnxRuntime(path.join(os.tmpdir(), `git-mem-${process.getuid?.() ?? 'user'}`, sub));
    }
  }
  const fs = await import('node:fs');
  const [{ AutoTokenizer, PreTrainedTokenizer }, { ONNX }] = await Promise.all([
    import('@xenova/transformers/src/tokenizers.js'),
    import('@xenova/transformers/src/backends/onnx.js'),
  ]).catch((err: unknown) => {
    // An optional dependency: npm leaves it out when its own dependency sharp fails to install.
    if (/Cannot find (?:package|module) '@xenova\/transformers/.test(String(err))) {
      throw new Error('the optional package @xenova/transformers is not installed (npm leaves it out when sharp cannot download libvips); the release binary has it built in');
    }
    throw err;
  });
  const t1 = performance.now();

  const readJson = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(info.dir, file), 'utf8')) as Record<string, unknown>;
  const tokenizerConfig = readJson('tokenizer_config.json');
  const className = typeof tokenizerConfig.tokenizer_class === 'string' ? tokenizerConfig.tokenizer_class.replace(/Fast$/, '') : '';
  const Tokenizer = AutoTokenizer.TOKENIZER_CLASS_MAPPING[className] ?? PreTrainedTokenizer;
  const tokenizer = new Tokenizer(readJson('tokenizer.json'), tokenizerConfig);
  // padding: true pads to the longest text of a batch, capped at model_max_length.
  tokenizer.model_max_length = Math.min(tokenizer.model_max_length || MAX_TOKENS, MAX_TOKENS);
  const t2 = performance.now();

  const session = await ONNX.InferenceSession.create(info.onnxFile, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    // Errors only: onnxruntime's warnings (e.g. about unused initializers) are not for our users.
    logSeverityLevel: 3,
    // One thread for a query: a second one spins between runs and takes the core the rest of recall needs.
    ...(options.threads ? { intraOpNumThreads: options.threads, interOpNumThreads: 1 } : {}),
  });
  const t3 = performance.now();
  const inputs = new Set(session.inputNames);
  const output = session.outputNames.includes('last_hidden_state') ? 'last_hidden_state' : session.outputNames[0]!;
  let dimension = info.dimension;

  type Tensor = InstanceType<typeof ONNX.Tensor>;
  const run = async (ids: Tensor, mask: Tensor, types: Tensor | undefined, batch: number, seq: number, normalize: boolean): Promise<Float32Array[]> => {
    const feeds: Record<string, Tensor> = {};
    if (inputs.has('input_ids')) feeds.input_ids = ids;
    if (inputs.has('attention_mask')) feeds.attention_mask = mask;
    if (inputs.has('token_type_ids')) feeds.token_type_ids = types ?? new ONNX.Tensor('int64', new BigInt64Array(batch * seq), [batch, seq]);
    const result = await session.run(feeds);
    const hidden = result[output]!;
    const dims = hidden.dims;
    if (dims.length !== 3 || dims[0] !== batch || dims[1] !== seq) throw new Error(`model output ${output} has shape [${dims.join(', ')}], expected [${batch}, ${seq}, dim]`);
    const dim = dims[2]!;
    if (dimension && dim !== dimension) throw new Error(`model output has ${dim} dimensions, config.json says ${dimension}`);
    dimension = dim;
    return meanPool(hidden.data as Float32Array, mask.data as BigInt64Array, batch, seq, dim, normalize);
  };
  const runBatch = async (texts: string[]): Promise<Float32Array[]> => {
    const enc = tokenizer(texts, { padding: true, truncation: true });
    const [batch, seq] = enc.input_ids.dims as [number, number];
    return run(enc.input_ids, enc.attention_mask, enc.token_type_ids, batch, seq, true);
  };

  return {
    modelId: info.modelId,
    get dimension() {
      return dimension;
    },
    timings: { runtimeMs: t1 - t0, tokenizerMs: t2 - t1, sessionMs: t3 - t2 },
    async embedTokens(ids: readonly number[], special: { cls: number; sep: number }): Promise<Float32Array[]> {
      const batch = ids.length;
      const data = new BigInt64Array(batch * 3);
      ids.forEach((id, b) => data.set([BigInt(special.cls), BigInt(id), BigInt(special.sep)], b * 3));
      const mask = new ONNX.Tensor('int64', new BigInt64Array(batch * 3).fill(1n), [batch, 3]);
      return batch ? run(new ONNX.Tensor('int64', data, [batch, 3]), mask, undefined, batch, 3, false) : [];
    },
    async embedBare(special: { cls: number; sep: number }): Promise<Float32Array> {
      const data = BigInt64Array.from([BigInt(special.cls), BigInt(special.sep)]);
      const mask = new ONNX.Tensor('int64', new BigInt64Array(2).fill(1n), [1, 2]);
      const [out] = await run(new ONNX.Tensor('int64', data, [1, 2]), mask, undefined, 1, 2, false);
      return out!;
    },
    async embed(texts: string[]): Promise<Float32Array[]> {
      const out: Float32Array[] = new Array(texts.length);
      // Similar lengths together: less padding per batch.
      const order = texts.map((_, i) => i).sort((a, b) => texts[a]!.length - texts[b]!.length);
      for (let i = 0; i < order.length; i += BATCH_SIZE) {
        const chunk = order.slice(i, i + BATCH_SIZE);
        const vectors = await runBatch(chunk.map((j) => texts[j] || ' '));
        chunk.forEach((j, n) => (out[j] = vectors[n]!));
      }
      return out;
    },
  };
}

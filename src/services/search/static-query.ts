/**
 * The static query embedding: a query's vector without the transformer. Once
 * per model (at `git mem model embed` when missing, or `git mem model
 * distill`), every vocabulary token goes through the installed model alone
 * (`[CLS] token [SEP]`, mean-pooled, as model2vec distils), and the table of
 * those vectors is stored beside the model (or in the cache folder for a
 * model of mem.modelPath), int8 (stores/embed/static-table.ts).
 * A query is then split into word pieces (core/search/wordpiece.ts, no
 * transformers.js) and its vector is the sum of its pieces' rows, less the
 * surplus of [CLS] and [SEP] that sum carries (each row holds one pair, the
 * model's own output one for the whole text), scaled to unit length: a few
 * milliseconds in all. Memories keep the full model's vectors; only the query
 * side is approximated (docs/semantic.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { normalizeInPlace } from '../../core/search/embedding.ts';
import { wordPieceIds } from '../../core/search/wordpiece.ts';
import type { Embedder, LoadedEmbedder } from '../../stores/embed/embedder.ts';
import { MAX_TOKENS } from '../../stores/embed/embedder.ts';
import type { ModelInfo } from '../../stores/embed/model-files.ts';
import { readStaticTable, type StaticTable, writeStaticTable } from '../../stores/embed/static-table.ts';

/** Tokens per model run while distilling. */
const DISTILL_BATCH = 256;

/** The query embedder over this model's static table, or null when there is none (not distilled yet). */
export function openStaticEmbedder(info: ModelInfo, env: NodeJS.ProcessEnv, besideModel: boolean): (Embedder & { file: string }) | null {
  const found = readStaticTable(info, env, besideModel);
  if (!found) return null;
  const { table, file } = found;
  return {
    modelId: info.modelId,
    dimension: table.dim,
    file,
    embed: async (texts: string[]) => texts.map((t) => staticVector(table, t)),
  };
}

/**
 * The text's vector, unit length; all zeros when no piece is known. Row t is
 * the mean of the model's outputs over `[CLS] t [SEP]`, (C + t + S) / 3; the
 * model pools a text of n pieces as (C + Σt + S) / (n + 2). So the sum of n
 * rows holds n - 1 pairs (C + S) too many, and the table's [CLS] row, e, the
 * output for `[CLS] [SEP]` alone, (C + S) / 2, takes them out:
 * 3 Σ rows - 2 (n - 1) e = Σt + C + S. (Exact for a model whose outputs do not
 * depend on their neighbours; for a transformer, C and S vary with the token
 * between them, and e is their value with none.)
 */
export function staticVector(table: StaticTable, text: string): Float32Array {
  const { dim, rows, scales } = table;
  const out = new Float32Array(dim);
  let n = 0;
  // [CLS] and [SEP] take two of the model's places.
  for (const id of wordPieceIds(text, table.vocab, table.unk, table.maxTokens - 2)) {
    if (id === table.unk || id < 0 || id >= scales.length) continue;
    const s = scales[id]! * 3;
    const at = id * dim;
    for (let d = 0; d < dim; d++) out[d]! += rows[at + d]! * s;
    n++;
  }
  const cls = table.cls;
  if (n > 1 && cls >= 0 && cls < scales.length) {
    const s = scales[cls]! * 2 * (n - 1);
    const at = cls * dim;
    for (let d = 0; d < dim; d++) out[d]! -= rows[at + d]! * s;
  }
  return normalizeInPlace(out);
}

interface WordPieceTokenizer {
  tokens: string[];
  cls: number;
  sep: number;
  unk: number;
}

/** The model's vocabulary and special tokens, when its tokenizer is BERT's uncased WordPiece (what wordpiece.ts reproduces); else why not. */
export function readWordPiece(dir: string): WordPieceTokenizer | { unsupported: string } {
  const json = JSON.parse(fs.readFileSync(path.join(dir, 'tokenizer.json'), 'utf8')) as {
    normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null };
    pre_tokenizer?: { type?: string };
    model?: { type?: string; vocab?: Record<string, number>; unk_token?: string; continuing_subword_prefix?: string };
  };
  const n = json.normalizer;
  if (n?.type !== 'BertNormalizer' || n.lowercase !== true || n.strip_accents === false) return { unsupported: 'its tokenizer is not an uncased BERT normalizer' };
  if (json.pre_tokenizer?.type !== 'BertPreTokenizer') return { unsupported: 'its tokenizer does not split words as BERT does' };
  const model = json.model;
  if (model?.type !== 'WordPiece' || !model.vocab || (model.continuing_subword_prefix ?? '##') !== '##') return { unsupported: 'its tokenizer is not WordPiece' };
  const tokens: string[] = [];
  for (const [token, id] of Object.entries(model.vocab)) tokens[id] = token;
  for (let i = 0; i < tokens.length; i++) tokens[i] ??= '';
  const id = (t: string | undefined) => (t !== undefined ? (model.vocab![t] ?? -1) : -1);
  const cls = id('[CLS]');
  const sep = id('[SEP]');
  const unk = id(model.unk_token ?? '[UNK]');
  if (cls < 0 || sep < 0 || unk < 0) return { unsupported: 'its vocabulary has no [CLS], [SEP] or [UNK]' };
  return { tokens, cls, sep, unk };
}

export interface DistillReport {
  file: string;
  tokens: number;
  ms: number;
  bytes: number;
}

/** Puts every vocabulary token through the model and writes the table; throws (one line) when the tokenizer is not one this reproduces. */
export async function distillStaticTable(info: ModelInfo, embedder: LoadedEmbedder, env: NodeJS.ProcessEnv, besideModel: boolean, progress?: (done: number, total: number) => void): Promise<DistillReport> {
  const started = performance.now();
  const wp = readWordPiece(info.dir);
  if ('unsupported' in wp) throw new Error(`cannot distil a static query table for ${info.name}: ${wp.unsupported}`);
  const { tokens, cls, sep, unk } = wp;
  const vectors: Float32Array[] = new Array(tokens.length);
  const ids = tokens.map((_, i) => i);
  for (let i = 0; i < ids.length; i += DISTILL_BATCH) {
    const batch = ids.slice(i, i + DISTILL_BATCH);
    const got = await embedder.embedTokens(batch, { cls, sep });
    batch.forEach((id, n) => (vectors[id] = got[n]!));
    progress?.(Math.min(ids.length, i + DISTILL_BATCH), ids.length);
  }
  const dim = embedder.dimension || vectors[0]?.length || 0;
  // Special and unused tokens never occur in a query's pieces but [UNK], which is left out: zero rows cost nothing.
  for (const special of [sep, unk]) vectors[special] = new Float32Array(dim);
  // The [CLS] row holds the output for `[CLS] [SEP]` alone, which staticVector takes out of a sum of rows.
  vectors[cls] = await embedder.embedBare({ cls, sep });
  const file = writeStaticTable(info, env, besideModel, { tokens, vectors, dim, unk, cls, maxTokens: MAX_TOKENS });
  return { file, tokens: tokens.length, ms: performance.now() - started, bytes: fs.statSync(file).size };
}

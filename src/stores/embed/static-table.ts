/**
 * The static query table: one vector per vocabulary token, distilled from the
 * installed model (services/search/static-query.ts), in one flat file beside the
 * model in git-mem's cache (`<model dir>/git-mem-static.bin`); for a model
 * elsewhere (mem.modelPath: the user's directory, perhaps shared or
 * read-only), in the cache folder (`$XDG_CACHE_HOME/git-mem/static/`). Loaded in a few milliseconds: a memory map, a split of the
 * vocabulary text; the int8 rows are read where they lie.
 *
 * Layout (little-endian): the magic `GMSTATIC`, a u32 byte length and a JSON
 * header ({version, model, dim, count, textBytes, unk, cls, maxTokens}), then the
 * vocabulary, `textBytes` of UTF-8, token i on line i; then, at a 4-byte
 * boundary, count + 1 u32 offsets of the tokens in that text, count u32 token
 * ids in the byte order of their tokens (looked up by binary search: no map
 * of 30,000 tokens is built per query), count Float32 row scales and
 * count × dim int8 components (row i ≈ scale[i] × int8 row i). Row [CLS]
 * holds the model's output for `[CLS] [SEP]` alone (services/search/static-query.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { sha1Hex } from '../../core/hash.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import { cacheRoot, type ModelInfo } from './model-files.ts';
import { headedFile, readHeadedFile } from '../headed-file.ts';

/** Version 3: the [CLS] row holds the output for `[CLS] [SEP]` (version 2 left it zero, and queries carried a pair for each word piece). */
export const STATIC_VERSION = '3';
const MAGIC = Buffer.from('GMSTATIC', 'latin1');
export const STATIC_FILE = 'git-mem-static.bin';

interface Header {
  version: string;
  model: string;
  dim: number;
  count: number;
  textBytes: number;
  unk: number;
  cls: number;
  maxTokens: number;
}

/** Token → id, for the tokenizer (core/search/wordpiece.ts). */
export interface Vocabulary {
  get(token: string): number | undefined;
}

export interface StaticTable {
  model: string;
  dim: number;
  vocab: Vocabulary;
  unk: number;
  /** The [CLS] token, whose row is the output for `[CLS] [SEP]` alone. */
  cls: number;
  /** Word pieces of a query that count (the model's own cut). */
  maxTokens: number;
  scales: Float32Array;
  rows: Int8Array;
}

/** Where the table of this model is: beside it when git-mem's cache holds the model (`besideModel`), else in the cache folder. */
export function staticTableFile(info: Pick<ModelInfo, 'dir' | 'modelId'>, env: NodeJS.ProcessEnv, besideModel: boolean): string {
  return besideModel ? path.join(info.dir, STATIC_FILE) : path.join(cacheRoot(env), 'static', `${sha1Hex(`${info.dir}\n${info.modelId}`).slice(0, 16)}.bin`);
}

/** The table of this model, or null (missing, damaged, of another model or version). */
export function readStaticTable(info: Pick<ModelInfo, 'dir' | 'modelId'>, env: NodeJS.ProcessEnv, besideModel: boolean): { table: StaticTable; file: string } | null {
  const file = staticTableFile(info, env, besideModel);
  const table = readFile(file, info.modelId);
  return table ? { table, file } : null;
}

function readFile(file: string, model: string): StaticTable | null {
  let bytes: Uint8Array;
  try {
    const bun = (globalThis as { Bun?: { mmap?: (path: string) => Uint8Array } }).Bun;
    bytes = bun?.mmap && fs.statSync(file).size > 0 ? bun.mmap(file) : fs.readFileSync(file);
  } catch {
    return null;
  }
  const framed = readHeadedFile<Header>(bytes, MAGIC);
  if (!framed) return null;
  bytes = framed.bytes;
  const h = framed.header;
  const textAt = framed.bodyAt;
  if (h.version !== STATIC_VERSION || h.model !== model || !Number.isInteger(h.cls)) return null;
  const offsetsAt = (textAt + h.textBytes + 3) & ~3;
  const sortedAt = offsetsAt + (h.count + 1) * 4;
  const scalesAt = sortedAt + h.count * 4;
  const rowsAt = scalesAt + h.count * 4;
  if (rowsAt + h.count * h.dim !== bytes.byteLength) return null;
  const text = new Uint8Array(bytes.buffer, bytes.byteOffset + textAt, h.textBytes);
  const offsets = new Uint32Array(bytes.buffer, bytes.byteOffset + offsetsAt, h.count + 1);
  const sorted = new Uint32Array(bytes.buffer, bytes.byteOffset + sortedAt, h.count);
  return {
    model: h.model,
    dim: h.dim,
    vocab: sortedVocabulary(text, offsets, sorted),
    unk: h.unk,
    cls: h.cls,
    maxTokens: h.maxTokens,
    scales: new Float32Array(bytes.buffer, bytes.byteOffset + scalesAt, h.count),
    rows: new Int8Array(bytes.buffer, bytes.byteOffset + rowsAt, h.count * h.dim),
  };
}

function compareBytes(a: Uint8Array, b: Uint8Array, from: number, to: number): number {
  const n = Math.min(a.length, to - from);
  for (let i = 0; i < n; i++) {
    const d = a[i]! - b[from + i]!;
    if (d !== 0) return d;
  }
  return a.length - (to - from);
}

/** Lookups by binary search over the tokens in byte order. */
function sortedVocabulary(text: Uint8Array, offsets: Uint32Array, sorted: Uint32Array): Vocabulary {
  return {
    get(token: string): number | undefined {
      const key = Buffer.from(token, 'utf8');
      let lo = 0;
      let hi = sorted.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const id = sorted[mid]!;
        const c = compareBytes(key, text, offsets[id]!, offsets[id + 1]! - 1);
        if (c === 0) return id;
        if (c < 0) hi = mid - 1;
        else lo = mid + 1;
      }
      return undefined;
    },
  };
}

/** Writes the table (tokens by id, one vector each) where staticTableFile says; returns the file written. */
export function writeStaticTable(
  info: Pick<ModelInfo, 'dir' | 'modelId'>,
  env: NodeJS.ProcessEnv,
  besideModel: boolean,
  table: { tokens: readonly string[]; vectors: readonly Float32Array[]; dim: number; unk: number; cls: number; maxTokens: number },
): string {
  const { tokens, vectors, dim } = table;
  const count = tokens.length;
  const lines = tokens.map((t) => Buffer.from(`${t.replace(/\n/g, ' ')}\n`, 'utf8'));
  const text = Buffer.concat(lines);
  const header: Header = { version: STATIC_VERSION, model: info.modelId, dim, count, textBytes: text.length, unk: table.unk, cls: table.cls, maxTokens: table.maxTokens };
  const layout = (textAt: number) => {
    const offsetsAt = (textAt + text.length + 3) & ~3;
    const sortedAt = offsetsAt + (count + 1) * 4;
    const scalesAt = sortedAt + count * 4;
    return { offsetsAt, sortedAt, scalesAt, rowsAt: scalesAt + count * 4 };
  };
  const { out, bodyAt: textAt } = headedFile(MAGIC, header, (at) => layout(at).rowsAt - at + count * dim);
  const { offsetsAt, sortedAt, scalesAt, rowsAt } = layout(textAt);
  const offsets = new Uint32Array(out.buffer, offsetsAt, count + 1);
  for (let i = 0; i < count; i++) offsets[i + 1] = offsets[i]! + lines[i]!.length;
  // Empty tokens (gaps in the ids) are never looked up; the rest in byte order.
  const ids = Array.from({ length: count }, (_, i) => i).sort((a, b) => Buffer.compare(lines[a]!.subarray(0, -1), lines[b]!.subarray(0, -1)));
  new Uint32Array(out.buffer, sortedAt, count).set(ids);
  out.set(text, textAt);
  const scales = new Float32Array(out.buffer, scalesAt, count);
  const rows = new Int8Array(out.buffer, rowsAt, count * dim);
  for (let i = 0; i < count; i++) {
    const v = vectors[i]!;
    let max = 0;
    for (let d = 0; d < dim; d++) max = Math.max(max, Math.abs(v[d]!));
    scales[i] = max / 127;
    if (max > 0) for (let d = 0; d < dim; d++) rows[i * dim + d] = Math.round((v[d]! * 127) / max);
  }
  const file = staticTableFile(info, env, besideModel);
  writeFileAtomic(file, out);
  return file;
}

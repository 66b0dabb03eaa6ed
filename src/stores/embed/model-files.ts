/**
 * Where the embedding model lives and whether it is complete. A model is a
 * directory laid out like its Hugging Face repository: config.json,
 * tokenizer.json, tokenizer_config.json and onnx/model_quantized.onnx.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sha1Hex } from '../../core/hash.ts';

/** The model git-mem uses unless told otherwise. */
export const DEFAULT_MODEL = 'Xenova/all-MiniLM-L6-v2';
/** Where DEFAULT_MODEL's files are fetched from (`<base>/<file>`); mem.modelUrl / GIT_MEM_MODEL_URL replace it (a mirror). */
export const DEFAULT_MODEL_URL = `https://huggingface.co/${DEFAULT_MODEL}/resolve/main`;
/** The files a model directory must hold, relative to it. */
export const MODEL_FILES = ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model_quantized.onnx'] as const;
export const ONNX_FILE = 'onnx/model_quantized.onnx';

/** `$XDG_CACHE_HOME/git-mem` (an absolute XDG_CACHE_HOME only, as the spec says), else `~/.cache/git-mem`. */
export function cacheRoot(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_CACHE_HOME;
  const home = env.HOME || os.homedir();
  return path.join(xdg && path.isAbsolute(xdg) ? xdg : path.join(home, '.cache'), 'git-mem');
}

/** The cache directory of DEFAULT_MODEL. */
export function cachedModelDir(env: NodeJS.ProcessEnv): string {
  return path.join(cacheRoot(env), 'models', ...DEFAULT_MODEL.split('/'));
}

export interface ModelFileState {
  file: string;
  bytes: number | null;
}

export interface ModelState {
  dir: string;
  /** Every file present and non-empty. */
  complete: boolean;
  files: ModelFileState[];
  bytes: number;
}

export function inspectModel(dir: string): ModelState {
  const files = MODEL_FILES.map((file) => {
    try {
      const st = fs.statSync(path.join(dir, file));
      return { file, bytes: st.isFile() && st.size > 0 ? st.size : null };
    } catch {
      return { file, bytes: null };
    }
  });
  return { dir, complete: files.every((f) => f.bytes !== null), files, bytes: files.reduce((n, f) => n + (f.bytes ?? 0), 0) };
}

export interface ModelInfo {
  dir: string;
  /**
   * Names the model and its exact files, so vectors of different models are
   * never compared: `<name>@<8 hex>`, the name from config.json
   * (`_name_or_path`) or the caller, the hex from config.json's text and the
   * ONNX file's size (cheap: no 23 MB hash on every recall).
   */
  modelId: string;
  name: string;
  /** From config.json (hidden_size); 0 when it does not say. */
  dimension: number;
  onnxFile: string;
}

/** Reads a complete model directory's identity; throws when config.json is unreadable. */
export function modelInfo(dir: string, fallbackName: string): ModelInfo {
  const configText = fs.readFileSync(path.join(dir, 'config.json'), 'utf8');
  const config = JSON.parse(configText) as { hidden_size?: unknown; _name_or_path?: unknown };
  const onnxFile = path.join(dir, ONNX_FILE);
  const size = fs.statSync(onnxFile).size;
  const fingerprint = sha1Hex(`${configText}\n${size}`).slice(0, 8);
  const dimension = typeof config.hidden_size === 'number' && Number.isInteger(config.hidden_size) ? config.hidden_size : 0;
  // The name the model's own config gives (a copy of the cached model elsewhere gets the same id), else the caller's.
  const name = typeof config._name_or_path === 'string' && config._name_or_path ? config._name_or_path : fallbackName;
  return { dir, modelId: `${name}@${fingerprint}`, name, dimension, onnxFile };
}

/**
 * Only in the compiled binary: makes onnxruntime-node's native addon loadable.
 *
 * `bun build --compile` embeds the addon (onnxruntime_binding.node) and writes
 * it to a temporary file when it is required, but not the library it links
 * against, libonnxruntime.so.1.14.0 (found through the addon's `$ORIGIN`
 * rpath in node_modules). So the library is embedded here as a file asset,
 * written once to the cache directory, and loaded with dlopen before the addon:
 * the dynamic linker then satisfies the addon's dependency by its soname.
 * Importing this module anywhere but in the compiled binary would fail (the
 * asset import is Bun's), so embedder.ts imports it only there.
 */
import fs from 'node:fs';
import path from 'node:path';
import libraryAsset from 'onnxruntime-node/bin/napi-v3/linux/x64/libonnxruntime.so.1.14.0' with { type: 'file' };
import { writeFileAtomic } from '../../io/atomic-write.ts';

const LIBRARY = 'libonnxruntime.so.1.14.0';
let loaded = false;

/** Writes the library under `dir` (once; a size check catches a partial copy) and dlopens it. */
export async function preloadOnnxRuntime(dir: string): Promise<void> {
  if (loaded) return;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`this binary carries onnxruntime for linux-x64 only, not ${process.platform}-${process.arch}`);
  }
  const bytes = fs.readFileSync(libraryAsset);
  const target = path.join(dir, LIBRARY);
  let present = false;
  try {
    present = fs.statSync(target).size === bytes.length;
  } catch {
    // Not written yet.
  }
  if (!present) writeFileAtomic(target, bytes, { mode: 0o755 });
  const { dlopen } = await import('bun:ffi');
  // One symbol is required by dlopen(); the C API entry point is always exported.
  dlopen(target, { OrtGetApiBase: { args: [], returns: 'ptr' } });
  loaded = true;
}

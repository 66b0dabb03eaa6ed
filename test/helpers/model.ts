/**
 * The generated test model (tiny-model.mjs), written once per machine into the
 * temporary directory under a name that changes with the generator, so vitest
 * workers and e2e sandboxes share one copy.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { writeTestModel } from './tiny-model.mjs';

export function testModelDir(kind: 'tiny' | 'minilm' = 'tiny'): string {
  const source = fs.readFileSync(path.join(import.meta.dirname, 'tiny-model.mjs'));
  const version = createHash('sha1').update(source).digest('hex').slice(0, 10);
  const dir = path.join(os.tmpdir(), 'git-mem-test-models', `${kind}-${version}`);
  if (fs.existsSync(path.join(dir, 'onnx', 'model_quantized.onnx'))) return dir;
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const tmp = fs.mkdtempSync(`${dir}.tmp-`);
  writeTestModel(tmp, { kind });
  try {
    fs.renameSync(tmp, dir);
  } catch {
    // Another worker got there first: theirs is the same.
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return dir;
}

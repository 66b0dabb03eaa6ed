/** Where the pinned Claude Code client is (no vitest imports: global setup and benchmarks use it too). */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** The platform's native `claude` binary: $CLAUDE_BIN, the platform package, or the wrapper's copy. */
export function claudeBin(): string {
  if (process.env.CLAUDE_BIN) return process.env.CLAUDE_BIN;
  const require = createRequire(path.join(ROOT, 'package.json'));
  const musl = process.platform === 'linux' && !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header?.glibcVersionRuntime;
  const suffix = `${process.platform}-${process.arch}${musl ? '-musl' : ''}`;
  const exe = process.platform === 'win32' ? 'claude.exe' : 'claude';
  try {
    const dir = path.dirname(require.resolve(`@anthropic-ai/claude-code-${suffix}/package.json`));
    if (fs.existsSync(path.join(dir, exe))) return path.join(dir, exe);
  } catch {
    // not installed for this platform: fall back to the wrapper
  }
  return path.join(ROOT, 'node_modules', '@anthropic-ai', 'claude-code', 'bin', 'claude.exe');
}


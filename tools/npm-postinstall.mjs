// npm postinstall: when git-mem is installed as a package (npm install -g, or as a
// dependency), compile it once with the bun dependency and put the binary in place of
// the bin/git-mem wrapper (on Windows: dist/npm/git-mem.exe, which the wrapper runs).
// A compiled binary starts 2-3x faster than the TypeScript sources run through bun.
// Never fails the install: without the binary, bin/git-mem runs the sources.
// Skipped in a checkout (npm ci / npm install in this repository).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const root = path.resolve(import.meta.dirname, '..');
const initCwd = process.env.INIT_CWD ? path.resolve(process.env.INIT_CWD) : '';
if (initCwd === root || fs.existsSync(path.join(root, '.git')) || process.env.GIT_MEM_SKIP_POSTINSTALL) process.exit(0);

function findBun() {
  try {
    const pkg = createRequire(path.join(root, 'package.json')).resolve('bun/package.json');
    const exe = path.join(path.dirname(pkg), 'bin', 'bun.exe'); // the npm package names it so on every platform
    if (fs.existsSync(exe)) return exe;
  } catch {
    // Not resolvable from here: try PATH.
  }
  return 'bun';
}

const out = path.join(root, 'dist', 'npm', process.platform === 'win32' ? 'git-mem.exe' : 'git-mem');
const started = Date.now();
const r = spawnSync(findBun(), ['build', path.join(root, 'src', 'main.ts'), '--compile', '--bytecode', '--format=esm', '--minify', '--splitting', '--outfile', out], {
  cwd: root,
  stdio: ['ignore', 'ignore', 'pipe'],
  encoding: 'utf8',
});
const works = r.status === 0 && spawnSync(out, ['--version'], { encoding: 'utf8' }).stdout?.startsWith('git-mem ');
if (works && process.platform !== 'win32') {
  // npm's link <prefix>/bin/git-mem points at bin/git-mem: put the binary there, which saves
  // the shell wrapper's few milliseconds on every run (hooks run on every prompt).
  fs.renameSync(out, path.join(root, 'bin', 'git-mem'));
  fs.rmSync(path.dirname(out), { recursive: true, force: true });
  if (fs.readdirSync(path.join(root, 'dist')).length === 0) fs.rmdirSync(path.join(root, 'dist'));
  console.log(`git-mem: compiled bin/git-mem in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} else if (works) {
  console.log(`git-mem: compiled ${path.relative(root, out)} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} else {
  let optional = '';
  try {
    createRequire(path.join(root, 'package.json')).resolve('@xenova/transformers/package.json');
  } catch {
    optional = ' (the optional @xenova/transformers is not installed, as when sharp cannot download libvips: recall is lexical only)';
  }
  const lines = (r.error?.message ?? r.stderr ?? '').trim().split('\n');
  const why = lines.find((l) => /error/i.test(l))?.trim() ?? lines.at(-1);
  console.warn(`git-mem: could not compile a binary (${why || 'unknown error'}); git-mem will run its sources through bun, which starts slower${optional}`);
}

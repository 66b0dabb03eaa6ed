/**
 * Writes the manual page and the shell completions from the command
 * definitions, or (--check) fails when the checked-in files differ from what
 * the definitions give. Run with Bun: `npm run docs`, `npm run docs:check`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildCliSpec } from '../cli/registry.ts';
import { VERSION } from '../version.ts';
import { bashCompletion, fishCompletion, fishGitDelegation, zshCompletion } from './completions.ts';
import { renderManPage } from './man.ts';
import { pluginFiles } from './plugin.ts';

/** Path (relative to the repository root) → content. */
export function generatedFiles(): Map<string, string> {
  const spec = buildCliSpec(); // declarations only: no repository, no settings
  return new Map([
    ['man/git-mem.1', renderManPage(spec, VERSION)],
    ['completions/git-mem.bash', bashCompletion(spec)],
    ['completions/_git-mem', zshCompletion(spec)],
    ['completions/git-mem.fish', fishCompletion(spec)],
    ['completions/git-mem.conf.fish', fishGitDelegation()],
    ...pluginFiles(VERSION),
  ]);
}

/** The files whose checked-in content differs from what the definitions give. */
export function staleFiles(root: string): string[] {
  const stale: string[] = [];
  for (const [rel, content] of generatedFiles()) {
    let current: string | undefined;
    try {
      current = fs.readFileSync(path.join(root, rel), 'utf8');
    } catch {
      current = undefined;
    }
    if (current !== content) stale.push(rel);
  }
  return stale;
}

function main(args: string[]): number {
  const root = path.resolve(import.meta.dirname, '../..');
  if (args.includes('--check')) {
    const stale = staleFiles(root);
    if (stale.length) {
      process.stderr.write(`out of date (run npm run docs, then commit): ${stale.join(', ')}\n`);
      return 1;
    }
    process.stdout.write('man page, completions and plugin are current\n');
    return 0;
  }
  for (const [rel, content] of generatedFiles()) {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    const before = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
    if (before !== content) fs.writeFileSync(file, content);
    process.stdout.write(`${before === content ? 'unchanged' : 'wrote    '} ${rel}\n`);
  }
  return 0;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));

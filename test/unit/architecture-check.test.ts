/**
 * tools/check-architecture.mjs reads imports with TypeScript's parser: each form of import running
 * upward, planted in a copy of src/, is a breach; words that only look like imports are not; the
 * real tree holds.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ArchitectureReport, checkArchitecture } from '../../tools/check-architecture.mjs';

const REPO = path.resolve(import.meta.dirname, '../..');

/** File (under src/) → its text. Every one of them breaks the layering in a different way. */
const PLANTED: Record<string, string> = {
  'core/planted-static.ts': `import { DEFAULT_RECALL_LIMIT } from '../services/search/recall.ts';\nexport const n = DEFAULT_RECALL_LIMIT;\n`,
  'core/planted-side-effect.ts': `import '../services/search/recall.js';\n`,
  'core/planted-dynamic.ts': `export const load = () => import('../services/search/recall.js');\n`,
  'core/planted-export-from.ts': `export { DEFAULT_RECALL_LIMIT } from '../services/search/recall.ts';\n`,
  'core/planted-export-star.ts': `export * from '../cli/index.ts';\n`,
  'core/planted-import-type.ts': `import type { RecallDeps } from '../services/search/recall.ts';\nexport type D = RecallDeps;\n`,
  'core/planted-typeof-import.ts': `export type M = typeof import('../services/search/recall.ts');\n`,
  'core/planted-extensionless.ts': `import '../services/search/recall';\n`,
  'core/planted-computed.ts': `const name = '../services/search/recall.ts';\nexport const load = () => import(name);\n`,
  'core/planted-node.ts': `import 'node:fs';\n`,
  'core/planted-cycle-a.ts': `import './planted-cycle-b.ts';\n`,
  'core/planted-cycle-b.ts': `export {} from './planted-cycle-a.ts';\n`,
  'services/planted-draws.ts': `export const bar = async () => (await import('../io/progress.ts')).default;\n`,
  // Only words: a comment and a string that spell an import are no import.
  'core/planted-words.ts': `// import '../services/search/recall.ts';\nexport const text = "import('../services/search/recall.ts')";\n`,
};

let root: string;
let report: ArchitectureReport;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-arch-'));
  fs.cpSync(path.join(REPO, 'src'), path.join(root, 'src'), { recursive: true });
  const { compilerOptions } = JSON.parse(fs.readFileSync(path.join(REPO, 'tsconfig.json'), 'utf8'));
  fs.writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
  for (const [file, text] of Object.entries(PLANTED)) fs.writeFileSync(path.join(root, 'src', file), text);
  report = checkArchitecture({ src: path.join(root, 'src') });
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const where = (key: string) => report.breaches.get(key) ?? [];

describe('check-architecture on planted imports', () => {
  it.each([
    ['a static import', 'core/planted-static.ts imports services/search/recall.ts'],
    ['a side-effect import', 'core/planted-side-effect.ts imports services/search/recall.ts'],
    ['an import()', 'core/planted-dynamic.ts imports services/search/recall.ts'],
    ['an export … from', 'core/planted-export-from.ts imports services/search/recall.ts'],
    ['an import type', 'core/planted-import-type.ts imports services/search/recall.ts'],
    ['a typeof import()', 'core/planted-typeof-import.ts imports services/search/recall.ts'],
    ['an import without extension', 'core/planted-extensionless.ts imports services/search/recall.ts'],
  ])('%s from core/ up to services/ is a breach', (_kind, line) => {
    expect(where('core -> services')).toContain(line);
  });

  it('an export * from core/ up to cli/ is a breach', () => {
    expect(where('core -> cli')).toEqual(['core/planted-export-star.ts imports cli/index.ts']);
  });

  it('a dynamic import of a computed name is a breach of its own', () => {
    expect(where('core/planted-computed.ts imports a computed module name')).toEqual(['core/planted-computed.ts:2']);
  });

  it('a side-effect import of node: in core/ is a breach', () => {
    expect(where('core imports node:fs')).toEqual(['core/planted-node.ts']);
  });

  it('a cycle through side-effect and export-from imports is a breach', () => {
    const cycles = [...report.breaches.keys()].filter((k) => k.startsWith('cycle ') && k.includes('planted-cycle'));
    expect(cycles).toEqual(['cycle core/planted-cycle-a.ts -> core/planted-cycle-b.ts -> core/planted-cycle-a.ts']);
  });

  it('a service importing the progress bar dynamically draws on the terminal', () => {
    expect(where('services/planted-draws.ts draws on the terminal')).toEqual(['services/planted-draws.ts']);
  });

  it('imports spelled in a comment or a string are not imports', () => {
    expect(where('core -> services').filter((w) => w.startsWith('core/planted-words.ts'))).toEqual([]);
  });

  it('finds nothing else in the copy', () => {
    expect([...report.breaches.keys()].sort()).toEqual(
      [
        'core -> services',
        'core -> cli',
        'core/planted-computed.ts imports a computed module name',
        'core imports node:fs',
        'cycle core/planted-cycle-a.ts -> core/planted-cycle-b.ts -> core/planted-cycle-a.ts',
        'services/planted-draws.ts draws on the terminal',
      ].sort(),
    );
  });
});

describe('check-architecture on the real tree', () => {
  it('passes, and says so on its last line', () => {
    const out = execFileSync(process.execPath, [path.join(REPO, 'tools/check-architecture.mjs')], { cwd: REPO, encoding: 'utf8' });
    expect(out.trim().split('\n').at(-1)).toMatch(/^architecture: \d+ modules hold the layering \(\d+ known exceptions\)$/);
  });
});

#!/usr/bin/env node
// Holds the layering written down in docs/architecture.md: which folder of src/ may import which,
// no import cycles between modules, processes spawned only in stores/ and io/, git config read only
// in stores/. Prints each breach with its file and exits 1 when there is any; `--list` prints the
// import graph by folder.
//
// The imports are read by TypeScript's own parser (the `typescript` devDependency, through its
// API to the compiler it ships), so every form counts: `import … from`, `import '…'` for its side
// effects, `import('…')`, `export … from`, `import type`, `typeof import('…')`. A dynamic import
// of a computed name cannot be checked, so it is a breach of its own.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { API } from 'typescript/unstable/sync';
import { SyntaxKind } from 'typescript/unstable/ast';

const REPO = path.resolve(import.meta.dirname, '..');

/** Folder (or top-level file) → the folders it may import, besides itself. Imports point down. */
const ALLOWED = {
  core: [],
  types: [],
  version: [],
  io: ['core'],
  stores: ['core', 'io'],
  services: ['core', 'io', 'stores', 'version'],
  // One seam per agent client (its events, input, reply, transcript, install, doctor): over the
  // services, under the surfaces that answer a client (hooks), install it (cli) or render what it did.
  agents: ['core', 'io', 'stores', 'services'],
  render: ['core', 'services', 'agents'],
  hooks: ['core', 'io', 'services', 'stores', 'context', 'render', 'agents'],
  mcp: ['core', 'io', 'services', 'stores', 'context', 'render', 'version'],
  ui: ['core', 'io', 'services', 'context', 'render', 'version'],
  cli: ['core', 'io', 'services', 'stores', 'context', 'render', 'hooks', 'mcp', 'ui', 'version', 'agents'],
  docs: ['cli', 'core', 'hooks', 'services', 'version', 'agents'],
  context: ['core', 'io', 'services', 'stores'],
  main: ['cli', 'context', 'core', 'hooks', 'io', 'mcp', 'stores', 'version'],
};

/**
 * Known breaches, each with the reason it stands; the check fails on any other, and on an entry
 * here that no longer happens (so the list only shrinks).
 */
const EXCEPTIONS = new Map([
]);

/**
 * Every module specifier a file names, as TypeScript's parser collects them (`SourceFile.imports`:
 * import and export declarations, side-effect imports, `import()` with a literal, import types),
 * each with whether it is type-only; plus the dynamic imports whose name is computed.
 */
function importsOf(sf) {
  const specs = sf.imports.map((lit) => {
    const decl = lit.parent;
    const typeOnly =
      (decl.kind === SyntaxKind.ImportDeclaration && decl.importClause?.isTypeOnly === true) ||
      (decl.kind === SyntaxKind.ExportDeclaration && decl.isTypeOnly === true) ||
      decl.kind === SyntaxKind.LiteralType; // typeof import('…')
    return { spec: lit.text, typeOnly };
  });
  const computed = [];
  (function walk(node) {
    if (node.kind === SyntaxKind.CallExpression && node.expression.kind === SyntaxKind.ImportKeyword) {
      const arg = node.arguments[0];
      if (!arg || (arg.kind !== SyntaxKind.StringLiteral && arg.kind !== SyntaxKind.NoSubstitutionTemplateLiteral)) {
        computed.push(sf.getLineAndCharacterOfPosition(node.end).line + 1);
      }
    }
    node.forEachChild(walk);
  })(sf);
  return { specs, computed };
}

/** The module a relative specifier names: `./x.js` is `./x.ts` (as TypeScript resolves it), `./x` is `./x.ts` or `./x/index.ts`. */
function resolve(from, spec) {
  const p = path.resolve(path.dirname(from), spec);
  const candidates = [p, p.replace(/\.(m|c)?js$/, '.$1ts'), `${p}.ts`, path.join(p, 'index.ts')];
  return candidates.find((c) => fs.existsSync(c) && fs.statSync(c).isFile()) ?? p;
}

/**
 * Checks the tree under `src` (default: this repository's src/), parsed by the TypeScript project
 * of `tsconfig` (default: the tsconfig.json beside `src`). Returns the modules, the breaches
 * (breach → where) and the import graph; prints nothing.
 */
export function checkArchitecture({ src = path.join(REPO, 'src'), tsconfig } = {}) {
  const ROOT = path.resolve(src);
  const config = path.resolve(tsconfig ?? path.join(ROOT, '..', 'tsconfig.json'));
  const files = [];
  (function walk(dir) {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.ts$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(p);
    }
  })(ROOT);

  const rel = (f) => path.relative(ROOT, f);
  const layerOf = (f) => {
    const r = rel(f);
    return r.includes('/') ? r.split('/')[0] : r.replace(/\.ts$/, '');
  };

  const breaches = new Map();
  const note = (key, where) => breaches.set(key, [...(breaches.get(key) ?? []), where]);
  const graph = new Map();

  const api = new API({ cwd: path.dirname(config) });
  try {
    const project = api.updateSnapshot({ openProjects: [config] }).getProjects()[0];
    if (!project) throw new Error(`architecture: TypeScript opened no project for ${config}`);
    for (const f of files) {
      const sf = project.program.getSourceFile(f);
      if (!sf) {
        note(`${rel(f)} is outside the TypeScript project`, `${rel(f)} is not in ${path.relative(process.cwd(), config) || config}`);
        continue;
      }
      const text = sf.text;
      const from = layerOf(f);
      const { specs, computed } = importsOf(sf);
      for (const line of computed) note(`${rel(f)} imports a computed module name`, `${rel(f)}:${line}`);
      const targets = [];
      for (const { spec, typeOnly } of specs) {
        if (!spec.startsWith('.')) {
          // Hashing is computation, not I/O: node:crypto is the one module core may use.
          if (from === 'core' && spec !== 'node:crypto' && (spec.startsWith('node:') || spec === 'bun' || spec.startsWith('bun:') || spec.startsWith('sql.js') || spec.startsWith('@xenova'))) note(`core imports ${spec}`, rel(f));
          if ((spec === 'node:child_process' || spec === 'child_process') && !['stores', 'io'].includes(from)) note(`${rel(f)} spawns`, rel(f));
          continue;
        }
        const target = resolve(f, spec);
        if (!target.startsWith(ROOT + path.sep)) continue;
        targets.push(target);
        const to = layerOf(target);
        if (to !== from && !(ALLOWED[from] ?? []).includes(to)) note(`${from} -> ${to}`, `${rel(f)} imports ${rel(target)}`);
        // A command is one module: what two commands share lives in cli/shared.ts.
        if (rel(f).startsWith('cli/commands/') && rel(target).startsWith('cli/commands/')) note('a command imports another command', `${rel(f)} imports ${rel(target)}`);
        // Progress bars and the pager are the terminal's: services are handed them (Deps.progress), they never draw.
        if (from === 'services' && !typeOnly && /^io\/(?:progress|pager)\.ts$/.test(rel(target))) note(`${rel(f)} draws on the terminal`, rel(f));
      }
      graph.set(f, targets);
      if (/node:child_process/.test(text) && !['stores', 'io'].includes(from)) note(`${rel(f)} spawns`, rel(f));
      if (/\[\s*'config'\s*,/.test(text) && from !== 'stores') note(`${rel(f)} reads git config`, rel(f));
      // Git's command lines are written in stores/git, which names what each call is for.
      if (/\bgit\.(?:run|exec|buffer)\(\s*\[/.test(text) && !['stores', 'io'].includes(from)) note(`${rel(f)} builds git command lines`, rel(f));
    }
  } finally {
    api.close();
  }

  // Cycles between modules (type imports included: they tie the modules' meaning together too).
  const state = new Map();
  const stack = [];
  function visit(f) {
    state.set(f, 'open');
    stack.push(f);
    for (const t of graph.get(f) ?? []) {
      if (!graph.has(t)) continue;
      if (state.get(t) === 'open') note(`cycle ${stack.slice(stack.indexOf(t)).map(rel).join(' -> ')} -> ${rel(t)}`, rel(f));
      else if (!state.has(t)) visit(t);
    }
    stack.pop();
    state.set(f, 'done');
  }
  for (const f of graph.keys()) if (!state.has(f)) visit(f);

  return { files: files.map(rel), breaches, graph, layerOf, exceptions: EXCEPTIONS };
}

function main() {
  const { files, breaches, graph, layerOf } = checkArchitecture();
  if (process.argv.includes('--list')) {
    const edges = new Map();
    for (const [f, ts] of graph) for (const t of ts) edges.set(`${layerOf(f)} -> ${layerOf(t)}`, (edges.get(`${layerOf(f)} -> ${layerOf(t)}`) ?? 0) + 1);
    for (const [e, n] of [...edges].sort()) console.log(`${e}  ${n}`);
  }

  let failed = 0;
  for (const [key, where] of breaches) {
    if (EXCEPTIONS.has(key)) continue;
    failed++;
    console.log(`architecture: ${key}\n  ${[...new Set(where)].slice(0, 5).join('\n  ')}`);
  }
  for (const key of EXCEPTIONS.keys()) {
    if (breaches.has(key)) continue;
    failed++;
    console.log(`architecture: the exception '${key}' no longer happens: remove it from tools/check-architecture.mjs`);
  }
  console.log(failed ? `architecture: ${failed} breach(es) of docs/architecture.md` : `architecture: ${files.length} modules hold the layering (${EXCEPTIONS.size} known exceptions)`);
  process.exit(failed ? 1 : 0);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();

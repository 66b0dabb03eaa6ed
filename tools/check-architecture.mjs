#!/usr/bin/env node
// Holds the layering written down in docs/architecture.md: which folder of src/ may import which,
// no import cycles between modules, processes spawned only in stores/ and io/, git config read only
// in stores/. Prints each breach with its file and exits 1 when there is any; `--list` prints the
// import graph by folder. No dependencies: it reads the import statements itself.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..', 'src');

/** Folder (or top-level file) → the folders it may import, besides itself. Imports point down. */
const ALLOWED = {
  core: [],
  types: [],
  version: [],
  io: ['core'],
  stores: ['core', 'io'],
  services: ['core', 'io', 'stores', 'version'],
  render: ['core', 'services'],
  hooks: ['core', 'io', 'services', 'stores', 'context', 'render'],
  mcp: ['core', 'io', 'services', 'stores', 'context', 'render', 'version'],
  cli: ['core', 'io', 'services', 'stores', 'context', 'render', 'hooks', 'mcp', 'version'],
  docs: ['cli', 'core', 'hooks', 'services', 'version'],
  context: ['core', 'io', 'services', 'stores'],
  main: ['cli', 'context', 'core', 'hooks', 'io', 'mcp', 'stores', 'version'],
};

/**
 * Known breaches, each with the reason it stands; the check fails on any other, and on an entry
 * here that no longer happens (so the list only shrinks).
 */
const EXCEPTIONS = new Map([
]);

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
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/gm;

for (const f of files) {
  const text = fs.readFileSync(f, 'utf8');
  const from = layerOf(f);
  const targets = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (!spec.startsWith('.')) {
      // Hashing is computation, not I/O: node:crypto is the one module core may use.
      if (from === 'core' && spec !== 'node:crypto' && (spec.startsWith('node:') || spec === 'bun' || spec.startsWith('sql.js') || spec.startsWith('@xenova'))) note(`core imports ${spec}`, rel(f));
      continue;
    }
    const target = path.resolve(path.dirname(f), spec);
    if (!target.startsWith(ROOT)) continue;
    targets.push(target);
    const to = layerOf(target);
    if (to !== from && !(ALLOWED[from] ?? []).includes(to)) note(`${from} -> ${to}`, `${rel(f)} imports ${rel(target)}`);
    // A command is one module: what two commands share lives in cli/shared.ts.
    if (rel(f).startsWith('cli/commands/') && rel(target).startsWith('cli/commands/')) note('a command imports another command', `${rel(f)} imports ${rel(target)}`);
  }
  graph.set(f, targets);
  if (/node:child_process/.test(text) && !['stores', 'io'].includes(from)) note(`${rel(f)} spawns`, rel(f));
  if (/\[\s*'config'\s*,/.test(text) && from !== 'stores') note(`${rel(f)} reads git config`, rel(f));
  // Progress bars and the pager are the terminal's: services are handed them (Deps.progress), they never draw.
  if (from === 'services' && /from '\.\.\/io\/(?:progress|pager)\.ts'/.test(text.replace(/import type[^;]+;/g, ''))) note(`${rel(f)} draws on the terminal`, rel(f));
  // Git's command lines are written in stores/git, which names what each call is for.
  if (/\bgit\.(?:run|exec|buffer)\(\s*\[/.test(text) && !['stores', 'io'].includes(from)) note(`${rel(f)} builds git command lines`, rel(f));
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

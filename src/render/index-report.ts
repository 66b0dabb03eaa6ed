/** `git mem index`: the JSON it prints and the text: what the index holds, per namespace. */
import type { ChalkInstance } from 'chalk';
import type { IndexReport } from '../services/reindex.ts';

export interface IndexJson {
  file: string;
  rebuilt: boolean;
  updated: boolean;
  memories: number;
  namespaces: Record<string, number>;
  revisions: number;
  tombstones: number;
  ms: number;
}

export function indexJson(r: IndexReport, ms: number): IndexJson {
  return { file: r.file, rebuilt: r.rebuilt, updated: r.updated, memories: r.memories, namespaces: { ...r.namespaces }, revisions: r.revisions, tombstones: r.tombstones, ms };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function renderIndex(r: IndexReport, ms: number, c: ChalkInstance): string {
  const what = r.rebuilt ? 'rebuilt from the notes' : r.updated ? 'updated' : 'already up to date';
  const names = Object.keys(r.namespaces);
  const lines = [
    `index ${what}: ${plural(r.memories, 'memory', 'memories')} in ${plural(names.length, 'namespace', 'namespaces')}, ${plural(r.revisions, 'revision', 'revisions')}, ${plural(r.tombstones, 'tombstone', 'tombstones')} (${ms} ms)`,
  ];
  const width = Math.max(0, ...names.map((n) => n.length));
  for (const [ns, n] of Object.entries(r.namespaces)) lines.push(`  ${c.cyan(ns.padEnd(width))}  ${String(n).padStart(7)}`);
  lines.push(c.dim(`  ${r.file}`));
  return lines.join('\n');
}

/**
 * The labelled corpus (tools/capture-model/data/*.jsonl, see its README) and
 * its split into a tuning and a checking half by source group: no thread,
 * repository or written batch is in both.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Passage {
  text: string;
  keep: boolean;
  namespace: string | null;
  hard: string | null;
  source: string;
  group: string;
  origin: string;
  file: string;
}

export const DATA_DIR = path.join(import.meta.dirname, 'data');
export const NAMESPACES = ['decisions', 'learnings', 'blockers', 'patterns', 'progress'];

export function loadCorpus(dir = process.env.CAPTURE_DATA ?? DATA_DIR): Passage[] {
  const seen = new Set<string>();
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .sort()
    .flatMap((file) => loadFile(path.join(dir, file), seen, dir));
}

/**
 * One file's passages (named in `file` by its path in the folder `base`: `threads.jsonl`,
 * `extra/threads4.jsonl`), less the texts `seen` already holds, which it then holds too: the same
 * text twice (two queries found one comment) is read once.
 */
export function loadFile(filePath: string, seen = new Set<string>(), base = DATA_DIR): Passage[] {
  const file = path.relative(base, filePath);
  const out: Passage[] = [];
  for (const [i, line] of fs.readFileSync(filePath, 'utf8').split('\n').entries()) {
    if (!line.trim()) continue;
    const p = JSON.parse(line) as Passage;
    if (typeof p.text !== 'string' || typeof p.keep !== 'boolean' || !p.group) throw new Error(`${file}:${i + 1}: needs text, keep and group`);
    if (p.keep && !NAMESPACES.includes(p.namespace ?? '')) throw new Error(`${file}:${i + 1}: a kept passage needs one of ${NAMESPACES.join(', ')}`);
    const key = p.text.trim();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...p, file });
  }
  return out;
}

/** A passage's name, by its text (loadCorpus reads a text once): what other files label passages by. */
export function passageId(text: string): string {
  return createHash('sha1').update(text.trim()).digest('hex').slice(0, 16);
}

/** Which half a source group is in: a hash of its name, so the split never depends on order or on the other groups. */
export function halfOf(group: string): 'tuning' | 'checking' {
  return createHash('sha1').update(group).digest()[0]! % 2 === 0 ? 'tuning' : 'checking';
}

export function split(corpus: readonly Passage[]): { tuning: Passage[]; checking: Passage[] } {
  return { tuning: corpus.filter((p) => halfOf(p.group) === 'tuning'), checking: corpus.filter((p) => halfOf(p.group) === 'checking') };
}

/** Folds of the tuning half for cross-validation, again by group. */
export function foldOf(group: string, folds: number): number {
  return createHash('sha1').update(`fold:${group}`).digest().readUInt32BE(0) % folds;
}

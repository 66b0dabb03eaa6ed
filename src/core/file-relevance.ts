/**
 * Which memories a file's context shows, best first (issue 28): those whose scope holds the
 * edited lines, then those whose scope holds the file and whose words name it, then those whose
 * words name it, then the rest of the commits that touched it. Pure.
 */
import type { Memory } from './memory.ts';
import { analyzeText, termOf } from './rank.ts';
import { parseScope, SMALL_COMMIT } from './scope.ts';

/** Path parts that name no subject: matching them would tie a file to every memory that says "src" or "test". */
const GENERIC_PARTS = new Set(['src', 'lib', 'test', 'tests', 'spec', 'dist', 'build', 'app', 'pkg', 'internal', 'index', 'main', 'ts', 'js', 'tsx', 'jsx', 'py', 'go', 'rs', 'md', 'mjs', 'cjs', 'json', 'yaml', 'yml', 'toml', 'init']);

/** Search words from a file path: its last directories and its name's parts (camelCase and snake_case split), without the generic ones. */
export function pathWords(file: string): string[] {
  const words = file
    .split(/[\\/]/)
    .slice(-4)
    .flatMap((part) => part.split(/[_\-.\s]+/))
    .flatMap((part) => part.split(/(?<=[a-z])(?=[A-Z])/))
    .map((w) => w.toLowerCase())
    .filter((w) => w.length > 1 && !GENERIC_PARTS.has(w));
  return [...new Set(words)];
}

/** Why a memory is a candidate for a file's context; each source that found it sets its flag. */
export interface FileCandidate {
  memory: Memory;
  /** Attached to a commit that wrote the lines being edited (blame). */
  onEditedLines?: boolean;
  /** Attached to a commit that changed the file. */
  onFileCommit?: boolean;
  /** Found by a search for the file's path words (the index's own scoring, synonyms included). */
  searchHit?: boolean;
}

export interface FileTarget {
  /** The file, relative to the top of the working tree, with `/`: as `paths` records it. */
  path: string;
  /** Outside the working tree (or its top unknown): `path` is only a name, for words; no scope holds it. */
  outside?: boolean;
  /** The lines being edited, when known. */
  lines?: ReadonlyArray<readonly [number, number]>;
}

/**
 * Points per reason. A scope that holds the edited lines was written about them: nothing beats it.
 * Words come before a bare file scope: until scopes are chosen per memory, a memory's paths are its
 * commit's files, so a file scope alone says little more than "same commit" (the gunicorn decision
 * on the commit that added cache.py); a file scope and words together beat words alone.
 */
const W = { lines: 6, file: 2, words: 3, wordsMore: 0.5, wordsMax: 4.5, tag: 0.5, body: 1.5, blame: 1.5, search: 1, commit: 0.5 } as const;

/** A candidate scoring under this share of the best is left out: a commit-only tie never rides along with a memory about the file. */
export const FILE_RELEVANCE_FLOOR = 0.4;

function stems(words: readonly string[]): Set<string> {
  return new Set(words.map(termOf));
}

function overlaps(a: readonly [number, number], b: readonly [number, number]): boolean {
  return a[0] <= b[1] && b[0] <= a[1];
}

/** How well a memory fits the file: 0 when nothing ties it to the file. */
export function fileRelevance(c: FileCandidate, target: FileTarget, fileTerms: ReadonlySet<string>): number {
  const m = c.memory;
  let score = 0;
  const entries = target.outside ? [] : (m.paths ?? []).map(parseScope);
  const scope = entries.filter((e) => e.path === target.path);
  if (scope.length) {
    // A scope of many files is a big commit's, not something the memory says about this one.
    score += new Set(entries.map((e) => e.path)).size <= SMALL_COMMIT ? W.file : W.file / 2; // a scope of a few files is about each of them
    const edited = target.lines ?? [];
    if (edited.some((l) => scope.some((e) => e.start !== undefined && overlaps([e.start, e.end ?? e.start], l)))) score += W.lines;
  }
  if (fileTerms.size) {
    const summary = stems(analyzeText(m.summary));
    const tags = stems(m.tags.flatMap((t) => analyzeText(t)));
    const hits = [...fileTerms].filter((t) => summary.has(t) || tags.has(t));
    if (hits.length) {
      score += Math.min(W.wordsMax, W.words + W.wordsMore * (hits.length - 1));
      if (hits.some((t) => tags.has(t))) score += W.tag;
    } else if (m.body) {
      // The start of the body only: a long body names many things in passing.
      const body = stems(analyzeText(m.body.slice(0, 4000)));
      if ([...fileTerms].some((t) => body.has(t))) score += W.body;
    }
  }
  if (c.onEditedLines) score += W.blame;
  if (c.searchHit && score === 0) score += W.search;
  if (c.onFileCommit) score += W.commit;
  return score;
}

/**
 * Candidates ranked for the file, best first, without those far below the best (FILE_RELEVANCE_FLOOR);
 * equal scores keep the order they came in. A memory found by several sources comes once, with all its reasons.
 */
export function rankForFile(candidates: readonly FileCandidate[], target: FileTarget): Memory[] {
  const merged = new Map<string, FileCandidate>();
  for (const c of candidates) {
    const seen = merged.get(c.memory.key);
    merged.set(c.memory.key, seen ? { memory: seen.memory, onEditedLines: seen.onEditedLines || c.onEditedLines, onFileCommit: seen.onFileCommit || c.onFileCommit, searchHit: seen.searchHit || c.searchHit } : c);
  }
  const fileTerms = stems(pathWords(target.path));
  const scored = [...merged.values()].map((c, i) => ({ memory: c.memory, score: fileRelevance(c, target, fileTerms), i })).filter((s) => s.score > 0);
  const best = Math.max(0, ...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score >= best * FILE_RELEVANCE_FLOOR)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((s) => s.memory);
}

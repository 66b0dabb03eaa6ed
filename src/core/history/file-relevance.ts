/**
 * Which memories a file's context shows, best first (issue 28): those whose scope holds the
 * edited lines, then those whose scope holds the file and whose words name it, then those whose
 * words name it, then the rest of the commits that touched it. A memory tied to the file by
 * nothing but words must name the file itself, not only its directories (issue 38): "node" and
 * "plugins" in `src/node/plugins/css.ts` would match every dependency bump. Pure.
 */
import type { Memory } from '../memory.ts';
import { analyzeText, termOf } from '../search/analyzer.ts';
import { commitScope, parseScope, SMALL_COMMIT } from './scope.ts';

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

/** The words of a file's own name (`typeUtils.ts` → type, utils): what a memory must say to be about the file by words alone. */
export function nameWords(file: string): string[] {
  return pathWords(file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1));
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
  /**
   * The files the memory's commit changed (up to SMALL_COMMIT + 1 of them), when known: a memory
   * without recorded paths is about its commit's files when they are few (scope.ts commitScope).
   */
  commitFiles?: readonly string[];
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

/** True when `terms` hold `run` in a row (an empty run is held nowhere: a name of generic words names nothing). */
function holdsRun(terms: readonly string[], run: readonly string[]): boolean {
  if (!run.length) return false;
  for (let i = 0; i + run.length <= terms.length; i++) if (run.every((t, j) => terms[i + j] === t)) return true;
  return false;
}

/**
 * How well a memory fits the file: 0 when nothing ties it to the file. `nameTerms`: the stemmed
 * words of the file's name, in order (rankForFile gives them); without them any path word ties.
 */
export function fileRelevance(c: FileCandidate, target: FileTarget, fileTerms: ReadonlySet<string>, nameTerms?: readonly string[]): number {
  const m = c.memory;
  let score = 0;
  const recorded = m.paths?.length ? m.paths : commitScope(c.commitFiles ?? []);
  const entries = target.outside ? [] : recorded.map(parseScope);
  const scope = entries.filter((e) => e.path === target.path);
  if (scope.length) {
    // A scope of many files is a big commit's, not something the memory says about this one.
    score += new Set(entries.map((e) => e.path)).size <= SMALL_COMMIT ? W.file : W.file / 2; // a scope of a few files is about each of them
    const edited = target.lines ?? [];
    if (edited.some((l) => scope.some((e) => e.start !== undefined && overlaps([e.start, e.end ?? e.start], l)))) score += W.lines;
  }
  // Tied to the file by its scope or its history: any of its path words counts. Else only the
  // file's own name does, its words in a row (`typeUtils`, "type utils"): directories alone, or
  // the name's words apart ("types from utils"), tie nothing.
  const tied = scope.length > 0 || !!c.onEditedLines || !!c.onFileCommit;
  const name = nameTerms ?? [...fileTerms];
  if (fileTerms.size) {
    const summaryTerms = analyzeText(m.summary).map(termOf);
    const tagTerms = m.tags.map((t) => analyzeText(t).map(termOf));
    const summary = new Set(summaryTerms);
    const tags = new Set(tagTerms.flat());
    const hits = [...fileTerms].filter((t) => summary.has(t) || tags.has(t));
    const named = tied || (nameTerms ? holdsRun(summaryTerms, name) || tagTerms.some((t) => holdsRun(t, name)) : hits.length > 0);
    if (hits.length && named) {
      score += Math.min(W.wordsMax, W.words + W.wordsMore * (hits.length - 1));
      if (hits.some((t) => tags.has(t))) score += W.tag;
    } else if (m.body && (tied ? !hits.length : true)) {
      // The start of the body only: a long body names many things in passing.
      const body = analyzeText(m.body.slice(0, 4000)).map(termOf);
      if (tied ? body.some((t) => fileTerms.has(t)) : nameTerms ? holdsRun(body, name) : body.some((t) => fileTerms.has(t))) score += W.body;
    }
  }
  if (!tied && score === 0) return 0;
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
    merged.set(c.memory.key, seen ? { memory: seen.memory, onEditedLines: seen.onEditedLines || c.onEditedLines, onFileCommit: seen.onFileCommit || c.onFileCommit, searchHit: seen.searchHit || c.searchHit, commitFiles: seen.commitFiles ?? c.commitFiles } : c);
  }
  const fileTerms = stems(pathWords(target.path));
  const nameTerms = nameWords(target.path).map(termOf);
  const scored = [...merged.values()].map((c, i) => ({ memory: c.memory, score: fileRelevance(c, target, fileTerms, nameTerms), i })).filter((s) => s.score > 0);
  const best = Math.max(0, ...scored.map((s) => s.score));
  return scored
    .filter((s) => s.score >= best * FILE_RELEVANCE_FLOOR)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((s) => s.memory);
}

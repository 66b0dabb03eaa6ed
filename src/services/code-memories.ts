/**
 * Memories found through the code: the ones behind some lines of a file
 * (git mem blame), and the ones on the commits of a branch or range (git mem
 * log, a reviewer's digest). Both read the term index; a memory counts for
 * every commit it has a copy on.
 */
import { formatRange, lineRanges, parseBlameTarget } from '../core/history/blame.ts';
import { UsageError } from '../core/errors.ts';
import type { Memory } from '../core/memory.ts';
import type { Deps } from './deps.ts';
import { blameLines, commitsInRange, defaultRange } from '../stores/git/history.ts';
import type { MemoryReader } from '../stores/index/index.ts';

/** What this file's services use. */
export type CodeMemoriesDeps = Pick<Deps, 'repo' | 'index'>;

/** The commits among `wanted` a memory sits on: its anchor, and every copy. */
function commitsOf(terms: MemoryReader, memory: Memory, wanted: ReadonlySet<string>): string[] {
  const copies = terms.copies.get(`${memory.namespace}:${memory.key}`) ?? [];
  return [...new Set([memory.object, ...copies])].filter((o) => wanted.has(o));
}

export interface BlameEntry {
  memory: Memory;
  /** The commits behind the lines that this memory sits on. */
  commits: string[];
  /** The lines those commits wrote, as inclusive ranges. */
  ranges: Array<[number, number]>;
}

export interface BlameResult {
  file: string;
  from?: number;
  to?: number;
  /** Commits behind the lines asked about. */
  commits: number;
  /** Newest memory first. */
  entries: BlameEntry[];
}

export async function blameMemories(ctx: CodeMemoriesDeps, target: string): Promise<BlameResult> {
  const t = parseBlameTarget(target);
  if (!t) throw new UsageError(`'${target}' is not <file>[:<line>[,<line>]]`);
  const lines = blameLines(ctx.repo, t.file, t.from === undefined ? [] : [[t.from, t.to ?? t.from]]);
  const byCommit = new Map<string, number[]>();
  for (const l of lines) byCommit.set(l.commit, [...(byCommit.get(l.commit) ?? []), l.line]);
  const wanted = new Set(byCommit.keys());
  const terms = await ctx.index.current();
  const entries = (wanted.size ? terms.list({ objects: [...wanted] }) : []).map((memory) => {
    const commits = commitsOf(terms, memory, wanted);
    return { memory, commits, ranges: lineRanges(commits.flatMap((c) => byCommit.get(c) ?? [])) };
  });
  return { file: t.file, from: t.from, to: t.to, commits: wanted.size, entries };
}

export function describeRanges(ranges: ReadonlyArray<readonly [number, number]>): string {
  return ranges.map(formatRange).join(', ');
}

/** "line 2", "lines 2-4", "lines 2, 7": the lines of a file a memory's commits changed. */
export function linesLabel(ranges: ReadonlyArray<readonly [number, number]>): string {
  const one = ranges.length === 1 && ranges[0]![0] === ranges[0]![1];
  return `${one ? 'line' : 'lines'} ${describeRanges(ranges)}`;
}

export interface LogEntry {
  commit: string;
  subject: string;
  /** Its parents: two or more for a merge. */
  parents: string[];
  memories: Memory[];
}

export interface LogResult {
  range: string;
  /** Commits in the range, oldest first, with the memories on each (commits without any included). */
  commits: LogEntry[];
}

export async function branchLog(ctx: CodeMemoriesDeps, range?: string): Promise<LogResult> {
  const chosen = range ?? defaultRange(ctx.repo);
  if (!chosen) throw new UsageError('on the default branch with no upstream: name a range, e.g. git mem log main~10..HEAD');
  const commits = commitsInRange(ctx.repo, chosen);
  const wanted = new Set(commits.map((c) => c.commit));
  const terms = await ctx.index.current();
  const position = new Map(commits.map((c, i) => [c.commit, i]));
  const byCommit = new Map<string, Memory[]>();
  // Oldest first within a commit, as the branch told its story.
  for (const memory of wanted.size ? terms.list({ objects: [...wanted] }).reverse() : []) {
    // A memory copied onto several commits of the range is told once, on the first.
    const first = commitsOf(terms, memory, wanted).sort((a, b) => position.get(a)! - position.get(b)!)[0];
    if (first) byCommit.set(first, [...(byCommit.get(first) ?? []), memory]);
  }
  return { range: chosen, commits: commits.map((c) => ({ ...c, memories: byCommit.get(c.commit) ?? [] })) };
}

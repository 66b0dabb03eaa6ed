/**
 * Staleness: a memory whose files changed after its commit may no longer
 * hold. Pure: computed from how each of its files differs between its commit
 * and where it is measured (HEAD, or the branch that holds it), and from the
 * commits since that touched them (services/history/staleness.ts gathers both).
 */

export interface Stale {
  /** Commits since the memory's commit that changed its files (counted among the newest MAX_TOUCHING commits where it is measured). */
  commits: number;
  /** Those commits did not reach back to the memory's: there are at least `commits`. */
  atLeast?: boolean;
  /** Lines added plus removed in those files between the memory's commit and where it is measured; absent when not counted (a long list counts the first ones only). */
  lines?: number;
  /** Its files that HEAD (or the branch that holds the memory) no longer has. */
  deleted: string[];
  /** Its files that were renamed since, and where to. */
  moved?: Array<{ from: string; to: string }>;
}

export interface FileChange {
  path: string;
  /** Lines added and removed; absent when not counted. */
  added?: number;
  removed?: number;
  /** git's status letter: M, A, D, T... */
  status: string;
}

export interface TouchingCommit {
  commit: string;
  time: number;
  paths: readonly string[];
  /** Of `paths`, those the commit deleted. */
  deleted?: readonly string[];
}

/** Commits since are counted among at most this many of the newest commits where a memory is measured: one `git log` of them costs tens of milliseconds whatever the history's length. */
export const MAX_TOUCHING = 2000;

/** The window of commits by path, made once for many memories: each counts only the commits of its own files. */
export class TouchIndex {
  readonly size: number;
  /** Time of the oldest commit in the window (0 when empty). */
  readonly oldest: number;
  private readonly byPath = new Map<string, TouchingCommit[]>();

  constructor(touching: readonly TouchingCommit[]) {
    this.size = touching.length;
    this.oldest = touching.at(-1)?.time ?? 0;
    for (const t of touching) for (const p of new Set(t.paths)) (this.byPath.get(p) ?? this.byPath.set(p, []).get(p)!).push(t);
    // Newest first (git log's order, but clocks can disagree with it): a count is then a binary search.
    for (const list of this.byPath.values()) list.sort((a, b) => b.time - a.time);
  }

  /** Commits since `since` (not it) that changed any of `paths`. */
  count(paths: readonly string[], since: { commit: string; time: number }): number {
    const unique = new Set(paths);
    if (unique.size === 1) {
      // One file, as most memories have: the commits at or after `since.time`, less `since` itself.
      const list = this.byPath.get(paths[0]!) ?? [];
      const n = newerCount(list, since.time);
      for (let i = n - 1; i >= 0 && list[i]!.time === since.time; i--) if (list[i]!.commit === since.commit) return n - 1;
      return n;
    }
    const seen = new Set<string>();
    for (const p of unique) {
      const list = this.byPath.get(p) ?? [];
      const n = newerCount(list, since.time);
      for (let i = 0; i < n; i++) if (list[i]!.commit !== since.commit) seen.add(list[i]!.commit);
    }
    return seen.size;
  }
}

/** How many of `list` (newest first) are at or after `time`. */
function newerCount(list: readonly TouchingCommit[], time: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.time >= time) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Null when the memory's files are as its commit left them. `touching`: the
 * newest commits (at most MAX_TOUCHING) of where it is measured, with the files
 * each changed. `moves`: old path → new path of the files renamed since, so a
 * moved file is not called deleted.
 */
export function staleness(
  paths: readonly string[],
  since: { commit: string; time: number },
  changes: readonly FileChange[],
  touching: readonly TouchingCommit[] | TouchIndex,
  moves: ReadonlyMap<string, string> = new Map(),
): Stale | null {
  const mine = new Set(paths);
  let lines: number | undefined = 0;
  let edited = false;
  const deleted: string[] = [];
  const moved: Array<{ from: string; to: string }> = [];
  for (const c of changes) {
    if (!mine.has(c.path)) continue;
    const to = c.status === 'D' ? moves.get(c.path) : undefined;
    // A move is no edit: the lines counted are those changed where it now is, which its own paths do not name.
    if (to !== undefined) moved.push({ from: c.path, to });
    else {
      const counted = c.added === undefined || c.removed === undefined ? undefined : c.added + c.removed;
      // Not counted: changed all the same (its blob differs).
      edited ||= counted === undefined || counted > 0;
      lines = lines === undefined || counted === undefined ? undefined : lines + counted;
      if (c.status === 'D') deleted.push(c.path);
    }
  }
  if (!edited && deleted.length === 0 && moved.length === 0) return null;
  const window = touching instanceof TouchIndex ? touching : new TouchIndex(touching);
  const commits = window.count(paths, since);
  // The window ends before the memory's commit: more commits lie beyond it.
  const atLeast = window.size >= MAX_TOUCHING && window.oldest > since.time;
  return {
    commits: Math.max(commits, 1),
    ...(atLeast ? { atLeast } : {}),
    ...(lines === undefined ? {} : { lines }),
    deleted: deleted.sort(),
    ...(moved.length ? { moved: moved.sort((a, b) => (a.from < b.from ? -1 : 1)) } : {}),
  };
}

/**
 * A memory's staleness one step further: `before` was measured at an
 * ancestor of the new place, and `touched` commits between the two changed
 * its files. `now` is how its files differ at the new place (without counting
 * the commits since).
 */
export function advance(before: Stale | null, touched: number, now: Stale | null): Stale | null {
  if (!now) return null;
  const commits = (before?.commits ?? 0) + touched;
  return { ...now, commits: Math.max(commits, 1), ...(before?.atLeast ? { atLeast: true } : {}) };
}

/** `3 commits, 41 lines since`, `file deleted` or `file moved to other`: what a person (or an agent) reads. */
export function describeStale(s: Stale): string {
  if (s.deleted.length) return `${s.deleted.length === 1 ? `${s.deleted[0]} deleted` : `${s.deleted.length} files deleted`} since`;
  if (s.moved?.length && !s.lines) return `${s.moved.length === 1 ? `${s.moved[0]!.from} moved to ${s.moved[0]!.to}` : `${s.moved.length} files moved`} since`;
  const commits = `${s.atLeast ? 'at least ' : ''}${s.commits} ${s.commits === 1 ? 'commit' : 'commits'}`;
  const counted = s.lines === undefined ? `${commits} since` : `${commits}, ${s.lines} ${s.lines === 1 ? 'line' : 'lines'} since`;
  return s.moved?.length ? `${counted}; ${s.moved.length === 1 ? `${s.moved[0]!.from} moved to ${s.moved[0]!.to}` : `${s.moved.length} files moved`}` : counted;
}

/** `git diff-tree -r -M --diff-filter=R --name-status -z` output → old path → new path. */
export function parseRenames(text: string): Map<string, string> {
  const out = new Map<string, string>();
  const fields = text.split('\0');
  for (let i = 0; i < fields.length; i++) {
    if (/^R\d*$/.test(fields[i]!) && fields[i + 1] && fields[i + 2]) {
      out.set(fields[i + 1]!, fields[i + 2]!);
      i += 2;
    }
  }
  return out;
}

/** A hunk of `git diff -U0`: the old side's first line and count, the new side's count. */
export interface Hunk {
  start: number;
  removed: number;
  added: number;
}

/** The `@@ -a,b +c,d @@` headers of a `git diff -U0`. */
export function parseHunks(text: string): Hunk[] {
  const out: Hunk[] = [];
  for (const m of text.matchAll(/^@@ -(\d+)(?:,(\d+))? \+\d+(?:,(\d+))? @@/gm)) {
    out.push({ start: Number(m[1]), removed: m[2] === undefined ? 1 : Number(m[2]), added: m[3] === undefined ? 1 : Number(m[3]) });
  }
  return out;
}

/**
 * Lines changed within the lines a memory is about (1-based, inclusive, as
 * they were at its commit): the hunks that remove one of them or insert
 * between two of them.
 */
export function linesChangedWithin(hunks: readonly Hunk[], ranges: ReadonlyArray<readonly [number, number]>): number {
  let lines = 0;
  for (const h of hunks) {
    // A pure insertion (removed 0) goes after old line `start`.
    const touches = ranges.some(([from, to]) => (h.removed === 0 ? h.start >= from && h.start < to : h.start <= to && h.start + h.removed - 1 >= from));
    if (touches) lines += h.added + h.removed;
  }
  return lines;
}

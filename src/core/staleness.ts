/**
 * Staleness: a memory whose files changed after its commit may no longer
 * hold. Pure: computed from the diff of each memory's commit to HEAD and the
 * commits since that touched its files (stores/git/history.ts reads both).
 */

export interface Stale {
  /** Commits since the memory's commit that changed its files (counted among HEAD's newest MAX_TOUCHING commits). */
  commits: number;
  /** The count reached MAX_TOUCHING: there are at least that many. */
  atLeast?: boolean;
  /** Lines added plus removed in those files between the memory's commit and HEAD. */
  lines: number;
  /** Its files that HEAD no longer has. */
  deleted: string[];
}

export interface FileChange {
  path: string;
  added: number;
  removed: number;
  /** git's status letter: M, A, D, T... */
  status: string;
}

export interface TouchingCommit {
  commit: string;
  time: number;
  paths: readonly string[];
}

/** Commits since are counted among at most this many of HEAD's newest commits: enough to tell, and bounded in time whatever the history. */
export const MAX_TOUCHING = 300;

/** Null when the memory's files are as its commit left them. `touching`: HEAD's newest commits (at most MAX_TOUCHING) with the files each changed. */
export function staleness(paths: readonly string[], since: { commit: string; time: number }, changes: readonly FileChange[], touching: readonly TouchingCommit[]): Stale | null {
  const mine = new Set(paths);
  let lines = 0;
  const deleted: string[] = [];
  for (const c of changes) {
    if (!mine.has(c.path)) continue;
    lines += c.added + c.removed;
    if (c.status === 'D') deleted.push(c.path);
  }
  if (lines === 0 && deleted.length === 0) return null;
  const commits = touching.filter((t) => t.commit !== since.commit && t.time >= since.time && t.paths.some((p) => mine.has(p))).length;
  // The window ends before the memory's commit: more commits lie beyond it.
  const atLeast = touching.length >= MAX_TOUCHING && (touching.at(-1)?.time ?? 0) > since.time;
  return { commits: Math.max(commits, 1), ...(atLeast ? { atLeast } : {}), lines, deleted: deleted.sort() };
}

/** `3 commits, 41 lines since` or `file deleted`: what a person (or an agent) reads. */
export function describeStale(s: Stale): string {
  if (s.deleted.length) return `${s.deleted.length === 1 ? `${s.deleted[0]} deleted` : `${s.deleted.length} files deleted`} since`;
  return `${s.commits}${s.atLeast ? '+' : ''} ${s.commits === 1 && !s.atLeast ? 'commit' : 'commits'}, ${s.lines} ${s.lines === 1 ? 'line' : 'lines'} since`;
}

/**
 * Reads `git diff-tree --stdin --always -r --raw --numstat` output for lines
 * "HEAD <commit>", one block per line in input order (each opens with HEAD's id).
 */
export function parseDiffBlocks(text: string, head: string): FileChange[][] {
  const blocks: FileChange[][] = [];
  let status = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line === head) {
      blocks.push([]);
      status = new Map();
      continue;
    }
    const block = blocks[blocks.length - 1];
    if (!block || !line) continue;
    if (line.startsWith(':')) {
      const tab = line.indexOf('\t');
      status.set(line.slice(tab + 1), line.slice(0, tab).split(' ')[4] ?? 'M');
      continue;
    }
    const [added = '', removed = '', path = ''] = line.split('\t');
    // Binary files show "-": they changed; count them as one line.
    block.push({ path, added: added === '-' ? 1 : Number(added), removed: removed === '-' ? 0 : Number(removed), status: status.get(path) ?? 'M' });
  }
  return blocks;
}

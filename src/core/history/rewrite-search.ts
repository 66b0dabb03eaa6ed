/**
 * Bounding the search for the live commit that now holds an orphaned commit's
 * change (core/history/rewrite-match.ts matches; this says where to look). A rewrite
 * (rebase, amend, squash, cherry-pick) is newer than what it rewrote and
 * touches the same files, so the search walks only the live commits of that
 * window that touch those files, and pays for a patch-id only where the
 * changed files are the same. Its cost follows what is dead and recent, not
 * the length of history. Pure: the service runs git.
 */

/** Slack on the window: clocks differ between machines, and rebases keep author dates. */
export const WINDOW_SLACK_S = 86_400;
/** Past this many files a pathspec costs more to match than it saves (and the command line grows). */
export const MAX_PATHSPEC = 200;

export interface SearchOrphan {
  /** Committer time (s) of the orphaned commit, while it exists. */
  time?: number;
  /** Creation time (s) of the oldest memory on it: the bound when the commit is gone. */
  created?: number;
  /** Files it changed, else the files its memories recorded; empty: unknown. */
  paths: readonly string[];
}

/**
 * The oldest committer time a match can have: the oldest orphan's commit
 * time (else its memory's creation), less the slack. Undefined when no
 * orphan has a time: there is nothing bounded to search.
 */
export function searchSince(orphans: readonly SearchOrphan[]): number | undefined {
  let since: number | undefined;
  for (const o of orphans) {
    const t = o.time ?? o.created;
    if (t !== undefined && Number.isFinite(t) && (since === undefined || t < since)) since = t;
  }
  return since === undefined ? undefined : since - WINDOW_SLACK_S;
}

/**
 * The files to restrict the walk to: every orphan's, when each orphan's are
 * known and they are few. Undefined: walk every commit of the window (an
 * orphan whose files are unknown may still be named by a squash message).
 */
export function searchPaths(orphans: readonly SearchOrphan[]): string[] | undefined {
  const all = new Set<string>();
  for (const o of orphans) {
    if (o.paths.length === 0) return undefined;
    for (const p of o.paths) all.add(p);
  }
  return all.size > 0 && all.size <= MAX_PATHSPEC ? [...all].sort() : undefined;
}

/** The key of a set of changed files: two commits with the same patch changed the same files. */
export function pathsKey(paths: readonly string[]): string {
  return [...new Set(paths)].sort().join('\0');
}

/**
 * The candidates worth a patch-id: those whose changed files are exactly
 * some orphan's (a patch-id costs a full diff; a file list is cheap).
 */
export function worthPatchId(orphanPaths: ReadonlyArray<readonly string[]>, candidates: ReadonlyMap<string, readonly string[]>): string[] {
  const wanted = new Set(orphanPaths.filter((p) => p.length > 0).map(pathsKey));
  return [...candidates].filter(([, paths]) => paths.length > 0 && wanted.has(pathsKey(paths))).map(([c]) => c);
}

/**
 * The candidates worth a patch-id for orphans known only from what their
 * memories recorded (the commit is gone: its files are the memories'
 * scope, not the commit's exact list): those whose changed files include
 * every one of some orphan's, newest first, at most `max`.
 */
export function coveringPaths(orphanPaths: ReadonlyArray<readonly string[]>, candidates: ReadonlyMap<string, readonly string[]>, max: number): string[] {
  const wanted = orphanPaths.filter((p) => p.length > 0);
  const out: string[] = [];
  for (const [c, paths] of candidates) {
    if (out.length >= max) break;
    const held = new Set(paths);
    if (wanted.some((w) => w.every((p) => held.has(p)))) out.push(c);
  }
  return out;
}

/** Seconds since the epoch of an ISO-8601 time, or undefined when it is not one. */
export function epochSeconds(iso: string): number | undefined {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? Math.floor(ms / 1000) : undefined;
}

/**
 * Whether a memory's author is this clone's user: the e-mail addresses
 * match (case aside), else the whole identities. A memory of this user on a
 * commit this clone lacks was most likely here and pruned; a teammate's may
 * only not be fetched yet.
 */
export function sameAuthor(author: string | undefined, me: string): boolean {
  if (!author) return false;
  const email = (ident: string) => /<([^>]*)>/.exec(ident)?.[1]?.trim().toLowerCase();
  const a = email(author);
  const b = email(me);
  return a && b ? a === b : author.trim() === me.trim();
}

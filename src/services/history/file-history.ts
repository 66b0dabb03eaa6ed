/**
 * A file's history as far as memories go: the commits with memories that changed the file, newest
 * first, over the whole history and without walking it (issue 38). A path-limited `git log` bounded
 * by count walks every commit for a file changed a few times (110 ms on a 9,600-commit repository
 * without a commit-graph); bounded by the wall clock it loses any file untouched for a year.
 * Instead, what each memory's commit changed, and when, is kept in `<git common dir>/mem/commit-files.json`:
 * a commit never changes, so an entry never goes stale, and only the commits of memories new since
 * the last look (and a new HEAD) cost a `git diff-tree`, one for all of them.
 */
import { JsonFile } from '../../stores/cache/json-file.ts';
import { type CommitFacts, commitFacts } from '../../stores/git/file-history.ts';
import type { Repo } from '../../stores/git/repo.ts';
import type { MemoryReader } from '../../stores/index/index.ts';
import { objectKey } from '../../stores/index/terms/format.ts';

interface CommitFilesCache {
  /** commit → [committer time (s), ...files]; [0] for an object that is not a commit. */
  commits: Record<string, [number, ...string[]]>;
}

/** Version 1; bumped when what an entry holds changes. */
function cacheFile(repo: Repo): JsonFile<CommitFilesCache> {
  return new JsonFile<CommitFilesCache>(repo.mem, 'commitFiles', 1, (c) => Boolean(c.commits && typeof c.commits === 'object'));
}

/** The cache as this process last read it (or filled it): several services ask in one command. */
const read = new WeakMap<Repo, CommitFilesCache>();

function readCache(repo: Repo): CommitFilesCache {
  let cache = read.get(repo);
  if (!cache) read.set(repo, (cache = cacheFile(repo).read() ?? { commits: {} }));
  return cache;
}

/** commit → committer time of the commits the cache knows (every current memory's, once `git mem index` or a hook has filled it). */
export function knownCommits(repo: Repo): Map<string, number> {
  const out = new Map<string, number>();
  const { commits } = readCache(repo);
  for (const c in commits) if (commits[c]![0] > 0) out.set(c, commits[c]![0]);
  return out;
}

/** A commit that changed the file, with every file it changed (a scope when they are few: core/history/scope.ts commitScope). */
export interface FileCommit {
  commit: string;
  files: readonly string[];
}

/** The commits in `cache` that changed `file`, committed no later than `until` (s), newest first. Pure. */
export function commitsChanging(commits: CommitFilesCache['commits'], file: string, until: number): FileCommit[] {
  const found: Array<[string, number]> = [];
  for (const sha in commits) {
    const entry = commits[sha]!;
    if (entry[0] > 0 && entry[0] <= until && entry.indexOf(file, 1) > 0) found.push([sha, entry[0]]);
  }
  return found.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).map(([commit]) => ({ commit, files: commits[commit]!.slice(1) as string[] }));
}

/**
 * The commits holding memories that changed `file` (relative to the top of the work tree, with `/`),
 * newest first, each with the files it changed. Those committed after HEAD are left out: at an
 * older checkout (a release tag) a memory of a later change is not about the file as it is
 * (commit time stands for ancestry here: exact would walk the history again).
 */
export function memoryCommitsChanging(repo: Repo, index: MemoryReader, file: string): FileCommit[] {
  if (!repo.head) return [];
  const commits = commitFiles(repo, index);
  return commitsChanging(commits, file, commits[repo.head]?.[0] || Infinity);
}

/**
 * The cache, with every current memory's commit and HEAD in it: those missing are asked of git
 * (one `diff-tree` for all) and written back. `git mem index` calls it too, so the first hook in a
 * repository with thousands of memories does not pay for them all.
 */
export function commitFiles(repo: Repo, index: MemoryReader): CommitFilesCache['commits'] {
  const cache = readCache(repo);
  const known = new Set<number>();
  for (const sha in cache.commits) known.add(objectKey(sha));
  const unknown = new Set([...index.objectPrefixes()].filter((k) => !known.has(k)));
  const missing = unknown.size ? index.objectsWithPrefixes(unknown).filter((o) => !(o in cache.commits)) : [];
  if (repo.head && !(repo.head in cache.commits)) missing.push(repo.head);
  fill(repo, cache, missing);
  return cache.commits;
}

/** commit → the files it changed (none for an object that is not a commit), from the cache, asking git for those it lacks. */
export function filesOf(repo: Repo, commits: readonly string[]): Map<string, readonly string[]> {
  const cache = readCache(repo);
  fill(
    repo,
    cache,
    [...new Set(commits)].filter((c) => !(c in cache.commits)),
  );
  return new Map(commits.map((c) => [c, (cache.commits[c]?.slice(1) ?? []) as string[]]));
}

/** Asks git for the commits missing from the cache (one `diff-tree` for all) and writes it back. */
function fill(repo: Repo, cache: CommitFilesCache, missing: readonly string[]): void {
  if (missing.length === 0) return;
  const facts = commitFacts(repo, missing);
  for (const o of missing) cache.commits[o] = entryOf(facts.get(o));
  cacheFile(repo).write(cache);
}

function entryOf(facts: CommitFacts | undefined): [number, ...string[]] {
  return facts ? [facts.time, ...facts.files] : [0];
}

/**
 * A file's history as far as memories go: the commits with memories that changed the file, newest
 * first, over the whole history and without walking it (issue 38). A path-limited `git log` bounded
 * by count walks every commit for a file changed a few times (110 ms on a 9,600-commit repository
 * without a commit-graph); bounded by the wall clock it loses any file untouched for a year.
 * Instead, what each memory's commit changed, and when, is kept in `<git common dir>/mem/commit-files.tab`:
 * a commit never changes, so an entry never goes stale, and only the commits of memories new since
 * the last look (and a new HEAD) cost a `git diff-tree`, one for all of them.
 */
import { SortedTablesFile, type Table } from '../../stores/cache/sorted-tables.ts';
import { type CommitFacts, commitFacts } from '../../stores/git/file-history.ts';
import type { Repo } from '../../stores/git/repo.ts';
import type { MemoryReader } from '../../stores/index/index.ts';
import { objectKey } from '../../stores/index/terms/format.ts';

/** [committer time (s), ...files]; [0] for an object that is not a commit. */
type Entry = [number, ...string[]];

/**
 * Version 2: one sorted table `commits` (stores/cache/sorted-tables.ts), so a command that wants
 * a few commits' files reads those rows alone. Version 1 was commit-files.json, one JSON value
 * (6.6 MB at 100,000 memories) parsed whole.
 */
function cacheFile(repo: Repo): SortedTablesFile {
  return new SortedTablesFile(repo.mem, 'commitFiles', 2, 'commit-files.json');
}

/** The file's rows and what this process added to them. */
class CommitFilesCache {
  readonly added = new Map<string, Entry>();
  /** knownCommits() as last made, and how many rows had been added then: `git mem index` asks twice. */
  known?: { added: number; commits: Map<string, number> };

  constructor(readonly rows: Table<Entry> | null) {}

  get(commit: string): Entry | undefined {
    return this.added.get(commit) ?? this.rows?.get(commit);
  }

  *entries(): IterableIterator<[string, Entry]> {
    if (this.rows) yield* this.rows.entries();
    yield* this.added;
  }

  *keys(): IterableIterator<string> {
    if (this.rows) yield* this.rows.keys();
    yield* this.added.keys();
  }

  /** Entries that may list `file` (its JSON text is in them), checked by the caller. */
  *naming(file: string): IterableIterator<[string, Entry]> {
    if (this.rows) yield* this.rows.containing(JSON.stringify(file));
    yield* this.added;
  }

  /** The rows read copied as they are (never decoded), with those added. */
  write(repo: Repo): void {
    cacheFile(repo).write({}, [['commits', { base: this.rows, rows: this.added }]]);
  }
}

/** The cache as this process last read it (or filled it): several services ask in one command. */
const read = new WeakMap<Repo, CommitFilesCache>();

function readCache(repo: Repo): CommitFilesCache {
  let cache = read.get(repo);
  if (!cache) read.set(repo, (cache = new CommitFilesCache(cacheFile(repo).read()?.table<Entry>('commits') ?? null)));
  return cache;
}

/** commit → committer time of the commits the cache knows (every current memory's, once `git mem index` or a hook has filled it). */
export function knownCommits(repo: Repo): ReadonlyMap<string, number> {
  const cache = readCache(repo);
  if (cache.known?.added !== cache.added.size) {
    const commits = new Map<string, number>();
    // The time alone read from each row of the file (the digits after its `[`), not the whole row.
    cache.rows?.forEachRaw((c, value) => {
      const time = leadingNumber(value) ?? timeOf(value);
      if (time > 0) commits.set(c, time);
    });
    for (const [c, entry] of cache.added) if (entry[0] > 0) commits.set(c, entry[0]);
    cache.known = { added: cache.added.size, commits };
  }
  return cache.known.commits;
}

/** The whole number a row's value starts with (`[1700000000,...`), or undefined when it does not start so. */
function leadingNumber(value: Buffer): number | undefined {
  if (value[0] !== 0x5b) return undefined;
  let n = 0;
  let i = 1;
  for (; i < value.length && value[i]! >= 0x30 && value[i]! <= 0x39; i++) n = n * 10 + value[i]! - 0x30;
  return i > 1 && i < 17 && (value[i] === 0x2c || value[i] === 0x5d) ? n : undefined;
}

/** A row's time decoded from its whole value; 0 for a damaged row (as entries() skips it). */
function timeOf(value: Buffer): number {
  try {
    const entry = JSON.parse(value.toString('utf8')) as unknown;
    return Array.isArray(entry) && typeof entry[0] === 'number' ? entry[0] : 0;
  } catch {
    return 0;
  }
}

/** A commit that changed the file, with every file it changed (a scope when they are few: core/history/scope.ts commitScope). */
export interface FileCommit {
  commit: string;
  files: readonly string[];
}

/** The commits of `commits` that changed `file`, committed no later than `until` (s), newest first. Pure. */
export function commitsChanging(commits: Iterable<readonly [string, Entry]>, file: string, until: number): FileCommit[] {
  const found: Array<[string, Entry]> = [];
  for (const [sha, entry] of commits) if (entry[0] > 0 && entry[0] <= until && entry.indexOf(file, 1) > 0) found.push([sha, entry]);
  return found.sort((a, b) => b[1][0] - a[1][0] || (a[0] < b[0] ? -1 : 1)).map(([commit, entry]) => ({ commit, files: entry.slice(1) as string[] }));
}

/**
 * The commits holding memories that changed `file` (relative to the top of the work tree, with `/`),
 * newest first, each with the files it changed. Those committed after HEAD are left out: at an
 * older checkout (a release tag) a memory of a later change is not about the file as it is
 * (commit time stands for ancestry here: exact would walk the history again).
 */
export function memoryCommitsChanging(repo: Repo, index: MemoryReader, file: string): FileCommit[] {
  if (!repo.head) return [];
  const cache = commitFiles(repo, index);
  return commitsChanging(cache.naming(file), file, cache.get(repo.head)?.[0] || Infinity);
}

/**
 * The cache, with every current memory's commit and HEAD in it: those missing are asked of git
 * (one `diff-tree` for all) and written back. `git mem index` calls it too, so the first hook in a
 * repository with thousands of memories does not pay for them all.
 */
export function commitFiles(repo: Repo, index: MemoryReader): CommitFilesCache {
  const cache = readCache(repo);
  const known = new Set<number>();
  for (const sha of cache.keys()) known.add(objectKey(sha));
  const unknown = new Set([...index.objectPrefixes()].filter((k) => !known.has(k)));
  const missing = unknown.size ? index.objectsWithPrefixes(unknown).filter((o) => cache.get(o) === undefined) : [];
  if (repo.head && cache.get(repo.head) === undefined) missing.push(repo.head);
  fill(repo, cache, missing);
  return cache;
}

/** commit → the files it changed (none for an object that is not a commit), from the cache, asking git for those it lacks. */
export function filesOf(repo: Repo, commits: readonly string[]): Map<string, readonly string[]> {
  const cache = readCache(repo);
  fill(
    repo,
    cache,
    [...new Set(commits)].filter((c) => cache.get(c) === undefined),
  );
  return new Map(commits.map((c) => [c, (cache.get(c)?.slice(1) ?? []) as string[]]));
}

/** Asks git for the commits missing from the cache (one `diff-tree` for all) and writes it back. */
function fill(repo: Repo, cache: CommitFilesCache, missing: readonly string[]): void {
  if (missing.length === 0) return;
  const facts = commitFacts(repo, missing);
  for (const o of missing) cache.added.set(o, entryOf(facts.get(o)));
  cache.write(repo);
}

function entryOf(facts: CommitFacts | undefined): Entry {
  return facts ? [facts.time, ...facts.files] : [0];
}

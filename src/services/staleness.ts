/**
 * Which memories' files changed since their commit (core/staleness.ts), for
 * the memories about to be shown. Batched: the commits' own files (when a
 * memory recorded none), their times, the diffs to HEAD and the commits
 * since, four processes at most whatever the count. Kept per HEAD in
 * `<git common dir>/mem/staleness.json`, so an unchanged HEAD pays one small read.
 */
import fs from 'node:fs';
import type { Memory } from '../core/memory.ts';
import { commitScope, scopeFiles, SMALL_COMMIT } from '../core/scope.ts';
import { MAX_TOUCHING, type Stale, staleness } from '../core/staleness.ts';
import { sha1Hex } from '../core/hash.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { changedPaths } from '../stores/git/changes.ts';
import { changesSince, recentChanges } from '../stores/git/history.ts';
import { readFacts } from '../stores/git/reachability.ts';
import type { Repo } from '../stores/git/repo.ts';

interface StaleCache {
  head: string;
  /** `<commit>:<digest of paths>` → staleness (null: fresh). */
  entries: Record<string, Stale | null>;
}

/** Entries kept per HEAD: the memories shown recently, not every memory. */
const MAX_ENTRIES = 5000;

function entryKey(commit: string, paths: readonly string[]): string {
  return `${commit}:${sha1Hex(paths.join('\0')).slice(0, 12)}`;
}

/** key → staleness, for memories on commits; memories without files or not on a commit are left out. */
export function stalenessOf(repo: Repo, memories: readonly Memory[]): Map<string, Stale | null> {
  const out = new Map<string, Stale | null>();
  const head = repo.head;
  if (!head || memories.length === 0) return out;
  const file = repo.mem.file('staleness');
  let cache: StaleCache = { head, entries: {} };
  try {
    const read = JSON.parse(fs.readFileSync(file, 'utf8')) as StaleCache;
    if (read.head === head && read.entries) cache = read;
  } catch {
    // None yet: computed now.
  }

  // A memory without recorded paths (an older one's, an import's) is judged by its commit's files only when the commit is small.
  const needPaths = [...new Set(memories.filter((m) => !m.paths?.length).map((m) => m.object))];
  const ownPaths = needPaths.length ? changedPaths(repo, needPaths, SMALL_COMMIT + 1) : new Map<string, string[]>();
  const pathsOf = (m: Memory) => (m.paths?.length ? scopeFiles(m.paths) : commitScope(ownPaths.get(m.object) ?? []));

  const todo = memories.filter((m) => pathsOf(m).length && m.object !== head && !(entryKey(m.object, pathsOf(m)) in cache.entries));
  if (todo.length) {
    const commits = [...new Set(todo.map((m) => m.object))];
    const facts = readFacts(repo, commits);
    const onCommits = commits.filter((c) => facts.get(c)?.type === 'commit');
    const diffs = new Map(changesSince(repo, head, onCommits).map((changes, i) => [onCommits[i]!, changes]));
    // Only memories whose files differ need the commits since counted: one git log, back to the oldest of them.
    const changed = todo.filter((m) => facts.get(m.object)?.type === 'commit' && staleness(pathsOf(m), { commit: m.object, time: 0 }, diffs.get(m.object) ?? [], []));
    const oldest = Math.min(...changed.map((m) => facts.get(m.object)!.time));
    const touching = changed.length ? recentChanges(repo, oldest, MAX_TOUCHING) : [];
    for (const m of todo) {
      const f = facts.get(m.object);
      if (f?.type !== 'commit') continue;
      cache.entries[entryKey(m.object, pathsOf(m))] = staleness(pathsOf(m), { commit: m.object, time: f.time }, diffs.get(m.object) ?? [], touching);
    }
    const keys = Object.keys(cache.entries);
    if (keys.length > MAX_ENTRIES) for (const k of keys.slice(0, keys.length - MAX_ENTRIES)) delete cache.entries[k];
    try {
      if (repo.mem.writable()) writeFileAtomic(file, JSON.stringify(cache));
    } catch {
      // A cache: computed again next time.
    }
  }
  for (const m of memories) {
    const paths = pathsOf(m);
    if (!paths.length) continue;
    if (m.object === head) out.set(m.key, null);
    const entry = cache.entries[entryKey(m.object, paths)];
    if (entry !== undefined) out.set(m.key, entry);
  }
  return out;
}

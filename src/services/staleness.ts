/**
 * Which memories' files changed since their commit (core/staleness.ts), for
 * the memories about to be shown. Batched: the commits' own files (when a
 * memory recorded none), their times, which of them HEAD does not reach,
 * the diffs and the commits since: five processes whatever the count. Only
 * the few that need it pay more (bounded by MAX_LOOKUPS): a commit off HEAD
 * looks for the branch that holds it, a line range diffs its file, a deleted
 * file looks for where it moved. Kept per state of the refs (HEAD and the
 * branches, read once per process for placements anyway) in
 * `<git common dir>/mem/staleness.json`, so unchanged refs pay one small read.
 */
import fs from 'node:fs';
import type { Memory } from '../core/memory.ts';
import { commitScope, parseScope, scopeFiles, SMALL_COMMIT } from '../core/scope.ts';
import { type FileChange, linesChangedWithin, MAX_TOUCHING, type Stale, staleness } from '../core/staleness.ts';
import { sha1Hex } from '../core/hash.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { changedPaths } from '../stores/git/changes.ts';
import { branchHolding, changesSince, hunksBetween, offHead, recentChanges, renamesBetween } from '../stores/git/history.ts';
import { readFacts, refsState } from '../stores/git/reachability.ts';
import type { Repo } from '../stores/git/repo.ts';

interface StaleCache {
  /** refsState: HEAD and every branch, since a memory off HEAD is measured against the branch that holds it. */
  refs: string;
  version?: number;
  /** `<commit>:<digest of paths>` → staleness (null: fresh). */
  entries: Record<string, Stale | null>;
}

/** Entries kept per state of the refs: the memories shown recently, not every memory. */
const MAX_ENTRIES = 5000;

function entryKey(commit: string, paths: readonly string[]): string {
  return `${commit}:${sha1Hex(paths.join('\0')).slice(0, 12)}`;
}

/** Entries computed by another rule are not reused: bumped when the rule changes. */
const CACHE_VERSION = 2;

/** At most this many memories' commits off HEAD get a branch looked up (one `for-each-ref` each), and as many files their line ranges diffed. */
const MAX_LOOKUPS = 20;

/** key → staleness, for memories on commits; memories without files or not on a commit are left out. */
export function stalenessOf(repo: Repo, memories: readonly Memory[]): Map<string, Stale | null> {
  const out = new Map<string, Stale | null>();
  const head = repo.head;
  if (!head || memories.length === 0) return out;
  const file = repo.mem.file('staleness');
  const refs = refsState(repo);
  let cache: StaleCache = { refs, version: CACHE_VERSION, entries: {} };
  try {
    const read = JSON.parse(fs.readFileSync(file, 'utf8')) as StaleCache;
    if (read.refs === refs && read.version === CACHE_VERSION && read.entries) cache = read;
  } catch {
    // None yet: computed now.
  }

  // A memory without recorded paths (an older one's, an import's) is judged by its commit's files only when the commit is small.
  const needPaths = [...new Set(memories.filter((m) => !m.paths?.length).map((m) => m.object))];
  const ownPaths = needPaths.length ? changedPaths(repo, needPaths, SMALL_COMMIT + 1) : new Map<string, string[]>();
  const scopeOf = (m: Memory) => (m.paths?.length ? m.paths : commitScope(ownPaths.get(m.object) ?? []));

  const todo = memories.filter((m) => scopeOf(m).length && m.object !== head && !(entryKey(m.object, scopeOf(m)) in cache.entries));
  if (todo.length) {
    for (const [k, v] of computeStaleness(repo, head, todo, scopeOf)) cache.entries[k] = v;
    const keys = Object.keys(cache.entries);
    if (keys.length > MAX_ENTRIES) for (const k of keys.slice(0, keys.length - MAX_ENTRIES)) delete cache.entries[k];
    try {
      if (repo.mem.writable()) writeFileAtomic(file, JSON.stringify(cache));
    } catch {
      // A cache: computed again next time.
    }
  }
  for (const m of memories) {
    const scope = scopeOf(m);
    if (!scope.length) continue;
    if (m.object === head) out.set(m.key, null);
    const entry = cache.entries[entryKey(m.object, scope)];
    if (entry !== undefined) out.set(m.key, entry);
  }
  return out;
}

/**
 * Entry key → staleness for memories not yet cached. Each is measured from its
 * commit to HEAD, or, for a commit HEAD does not reach, to the tip of a branch
 * that holds it: a file that exists where the memory lives is not deleted.
 */
function computeStaleness(repo: Repo, head: string, todo: readonly Memory[], scopeOf: (m: Memory) => readonly string[]): Map<string, Stale | null> {
  const result = new Map<string, Stale | null>();
  const commits = [...new Set(todo.map((m) => m.object))];
  const facts = readFacts(repo, commits);
  const onCommits = commits.filter((c) => facts.get(c)?.type === 'commit');
  const target = new Map(onCommits.map((c) => [c, head]));
  // On HEAD's history is the common case: one rev-list says which are not, and only those look for a branch.
  const off = [...offHead(repo, onCommits)];
  off.forEach((c, i) => {
    const tip = i < MAX_LOOKUPS ? branchHolding(repo, c) : null;
    // On no branch: nothing to measure against.
    if (tip) target.set(c, tip);
    else target.delete(c);
  });
  const measured = onCommits.filter((c) => target.has(c));
  const diffs = new Map(changesSince(repo, measured.map((c) => ({ target: target.get(c)!, commit: c }))).map((changes, i) => [measured[i]!, changes]));

  let lookups = 0;
  const renames = new Map<string, Map<string, string>>();
  const changesOf = (m: Memory): FileChange[] => {
    const scope = scopeOf(m).map(parseScope);
    const files = new Set(scope.map((e) => e.path));
    const to = target.get(m.object)!;
    const mine = (diffs.get(m.object) ?? []).filter((c) => files.has(c.path));
    return mine.flatMap((c) => {
      const ranges = scope.filter((e) => e.path === c.path && e.start !== undefined).map((e) => [e.start!, e.end ?? e.start!] as const);
      // A memory about the whole file (or about a file since deleted) takes the whole change.
      if (scope.some((e) => e.path === c.path && e.start === undefined) || ranges.length === 0 || c.status === 'D' || lookups >= MAX_LOOKUPS) return [c];
      lookups++;
      const lines = linesChangedWithin(hunksBetween(repo, m.object, to, c.path), ranges);
      return lines ? [{ ...c, added: lines, removed: 0 }] : [];
    });
  };
  const movesOf = (m: Memory, changes: readonly FileChange[]): Map<string, string> => {
    if (!changes.some((c) => c.status === 'D')) return new Map();
    const key = `${m.object} ${target.get(m.object)}`;
    if (!renames.has(key)) renames.set(key, lookups++ < MAX_LOOKUPS * 2 ? renamesBetween(repo, m.object, target.get(m.object)!) : new Map());
    return renames.get(key)!;
  };

  const pending: Array<{ m: Memory; changes: FileChange[]; moves: Map<string, string> }> = [];
  for (const m of todo) {
    if (!target.has(m.object)) continue;
    const changes = changesOf(m);
    const files = scopeFiles(scopeOf(m));
    const moves = movesOf(m, changes);
    if (staleness(files, { commit: m.object, time: 0 }, changes, [], moves)) pending.push({ m, changes, moves });
    else result.set(entryKey(m.object, scopeOf(m)), null);
  }
  // Only memories whose files differ need the commits since counted: one git log per place measured, back to the oldest of them.
  const byTarget = new Map<string, number>();
  for (const { m } of pending) {
    const t = target.get(m.object)!;
    byTarget.set(t, Math.min(byTarget.get(t) ?? Infinity, facts.get(m.object)!.time));
  }
  const touching = new Map([...byTarget].map(([t, oldest]) => [t, recentChanges(repo, oldest, MAX_TOUCHING, t)]));
  for (const { m, changes, moves } of pending) {
    const since = { commit: m.object, time: facts.get(m.object)!.time };
    result.set(entryKey(m.object, scopeOf(m)), staleness(scopeFiles(scopeOf(m)), since, changes, touching.get(target.get(m.object)!) ?? [], moves));
  }
  return result;
}

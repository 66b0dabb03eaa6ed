/**
 * Which memories' files changed since their commit (core/history/staleness.ts), for
 * the memories about to be shown, paid by what changed rather than by the
 * length of the history:
 *
 * - A memory is measured at HEAD when HEAD reaches its commit, else at the tip
 *   of a branch that holds it (placements come from services/history/anchors.ts).
 * - What is measured depends only on the memory's commit, its files and the
 *   place, so results are kept under those three ids, whatever the refs
 *   (`<git common dir>/mem/staleness.json`): switching back to a branch finds
 *   them again.
 * - When HEAD moves on (a new commit), a result at the old HEAD carries over
 *   unless the commits in between touched the memory's files; only those are
 *   measured again, and their count of commits grows by the ones that did.
 * - Measuring compares each file's blob at the commit and at the place (one
 *   `cat-file` for all), counts lines in-process from the two blobs, and
 *   counts the commits since in one `git log` of the newest MAX_TOUCHING
 *   commits.
 */
import path from 'node:path';
import type { Memory } from '../../core/memory.ts';
import { type LineCounts, lineCounts, lineSimilarity, textLines } from '../../core/history/line-diff.ts';
import { commitScope, parseScope, scopeFiles } from '../../core/history/scope.ts';
import { advance, type FileChange, linesChangedWithin, type Stale, staleness, TouchIndex, type TouchingCommit } from '../../core/history/staleness.ts';
import { sha1Hex } from '../../core/hash.ts';
import { filesOf } from './file-history.ts';
import { blobsAt, hunksBetween, isAncestor, recentChanges, renamesIn, tipsHolding, treeBlobs } from '../../stores/git/history.ts';
import { readObjects } from '../../stores/git/objects.ts';
import { refsState } from '../../stores/git/reachability.ts';
import type { Repo } from '../../stores/git/repo.ts';
import { JsonFile } from '../../stores/cache/json-file.ts';
import { placementsOf } from './anchors.ts';
import { MAX_STEP, STEP_AGE, windowAt } from './commit-window.ts';

interface StaleCache {
  /** `<commit>:<digest of its paths>@<place>` → staleness (null: fresh), oldest use first. */
  entries: Record<string, Stale | null>;
  /** The places measured at, most recent last: a new HEAD starts from the last one it descends from. */
  places: string[];
  /** `<commit>:<digest of its paths>@` → the blob of each of its files at its commit (null: none), in scope order. */
  olds: Record<string, Array<string | null>>;
  /** Under `refs` only: commit off HEAD → the branch tip it is measured at ('' when no branch holds it). */
  refs?: string;
  tips?: Record<string, string>;
}

/** Bounds of the cache file: enough for every memory of a large repository at a few places. */
const MAX_ENTRIES = 20_000;
const MAX_PLACES = 8;

/** Lines are counted for at most this many memories a call (in the order given: what is shown first: a screen of a list); the rest say "N commits since" until shown again among few. */
const MAX_LINE_COUNTS = 40;

/** At most this many files have their line ranges diffed per call. */
const MAX_RANGE_DIFFS = 5;

/** Beyond this many files to look up at one place, its tree is listed instead. */
const MANY_FILES = 200;

/** A call showing at most this many memories completes those measured in part before. */
const FEW = 20;

/**
 * `<commit>:<digest of its paths>@<place>`, 64 bits of each id (enough to
 * tell apart within one repository, and half the size of the file). Keys are
 * asked for many times a call: each memory's first part is made once.
 */
function keyMaker(scopeOf: (m: Memory) => readonly string[]): (m: Memory, place: string) => string {
  const prefixes = new Map<Memory, string>();
  return (m, place) => {
    let prefix = prefixes.get(m);
    if (prefix === undefined) prefixes.set(m, (prefix = `${m.object.slice(0, 16)}:${sha1Hex(scopeOf(m).join('\0')).slice(0, 8)}@`));
    return prefix + place.slice(0, 16);
  };
}

/** Version 5: entries computed by another rule are not reused, so it is bumped when the rule changes. */
function cacheFile(repo: Repo): JsonFile<StaleCache> {
  return new JsonFile<StaleCache>(repo.mem, 'staleness', 5, (c) => Boolean(c.entries && Array.isArray(c.places) && c.olds));
}

/** Drops the oldest keys of a record beyond `max` (insertion order is use order). */
/** The last `max` entries (the most recently used), as a new record: deleting keys one by one from a large object is slow. */
function keepLast<T>(record: Record<string, T>, max: number): Record<string, T> {
  const keys = Object.keys(record);
  if (keys.length <= max) return record;
  return Object.fromEntries(keys.slice(keys.length - max).map((k) => [k, record[k]!]));
}

/** key → staleness, for memories on commits; memories without files or not on a branch are left out. */
export function stalenessOf(repo: Repo, memories: readonly Memory[]): Map<string, Stale | null> {
  const out = new Map<string, Stale | null>();
  const head = repo.head;
  if (!head || memories.length === 0) return out;
  const cache = cacheFile(repo).read() ?? { entries: {}, places: [], olds: {} };
  let dirty = false;

  // A memory without recorded paths (an older one's, an import's) is judged by its commit's files only when the commit is small.
  const commitFiles = filesOf(
    repo,
    memories.filter((m) => !m.paths?.length).map((m) => m.object),
  );
  const scopes = new Map<Memory, readonly string[]>();
  const scopeOf = (m: Memory): readonly string[] => {
    let scope = scopes.get(m);
    if (scope === undefined) scopes.set(m, (scope = m.paths?.length ? m.paths : commitScope(commitFiles.get(m.object) ?? [])));
    return scope;
  };
  const entryKey = keyMaker(scopeOf);
  const shown = memories.filter((m) => scopeOf(m).length);
  for (const m of shown) if (m.object === head) out.set(m.key, null);
  const measured = shown.filter((m) => m.object !== head);
  if (measured.length === 0) return save(repo, cache, dirty, out);

  const placed = placementsOf(repo, measured.map((m) => m.object));
  const refs = refsState(repo);
  if (cache.refs !== refs) {
    cache.refs = refs;
    cache.tips = {};
  }
  const tips = cache.tips!;
  const onBranch = [...new Set(measured.map((m) => m.object))].filter((c) => ['branch', 'remote'].includes(placed.get(c)?.reach ?? '') && !(c in tips));
  if (onBranch.length) {
    const found = tipsHolding(repo, onBranch);
    for (const c of onBranch) tips[c] = found.get(c) ?? '';
    dirty = true;
  }
  // HEAD's history, else the branch that holds it; on no branch (a tag, nothing, or gone), there is nothing to measure against.
  const placeOf = (c: string): string | null => {
    const reach = placed.get(c)?.reach;
    if (reach === 'head') return head;
    return reach === 'branch' || reach === 'remote' ? tips[c] || null : null;
  };

  const todo = new Map<string, Memory[]>();
  const small = measured.length <= FEW;
  for (const m of measured) {
    const place = placeOf(m.object);
    if (!place) continue;
    const key = entryKey(m, place);
    // A result measured in part (in a long list) is completed now that few are shown.
    if (!(key in cache.entries) || (small && inPart(cache.entries[key]))) {
      const list = todo.get(place);
      if (list) list.push(m);
      else todo.set(place, [m]);
    }
  }
  const trees = new Map<string, Map<string, string>>();
  const treeOf = (place: string) => trees.get(place) ?? trees.set(place, treeBlobs(repo, place)).get(place)!;
  let lineBudget = MAX_LINE_COUNTS;
  const budget: Budget = { lines: () => lineBudget-- > 0, rangeDiffs: MAX_RANGE_DIFFS };
  for (const [place, ms] of todo) {
    for (const [k, stale] of measureAt({ repo, scopeOf, key: entryKey, cache, placed, budget, tree: treeOf }, place, ms)) cache.entries[k] = stale;
    cache.places = [...cache.places.filter((p) => p !== place), place].slice(-MAX_PLACES);
    dirty = true;
  }

  const shownKeys: string[] = [];
  for (const m of measured) {
    const place = placeOf(m.object);
    if (!place) continue;
    const key = entryKey(m, place);
    const entry = cache.entries[key];
    if (entry === undefined) continue;
    out.set(m.key, entry);
    shownKeys.push(key);
  }
  if (!(dirty || todo.size > 0)) return out;
  // Kept in use order, so what is shown stays when the cache is trimmed: rebuilt once (deleting and
  // adding back each shown key of a large object cost 280 ms for 3,000 memories).
  cache.entries = inUseOrder(cache.entries, shownKeys);
  return save(repo, cache, true, out);
}

/** The entries with `used` moved to the end, in that order. */
function inUseOrder(entries: StaleCache['entries'], used: readonly string[]): StaleCache['entries'] {
  const last = new Set(used);
  const out: StaleCache['entries'] = {};
  for (const k in entries) if (!last.has(k)) out[k] = entries[k]!;
  for (const k of used) out[k] = entries[k]!;
  return out;
}

function save(repo: Repo, cache: StaleCache, dirty: boolean, out: Map<string, Stale | null>): Map<string, Stale | null> {
  if (!dirty) return out;
  cache.entries = keepLast(cache.entries, MAX_ENTRIES);
  cache.olds = keepLast(cache.olds, MAX_ENTRIES / 2);
  cacheFile(repo).write(cache);
  return out;
}

interface Budget {
  /** True while lines may still be counted for one more memory. */
  lines: () => boolean;
  rangeDiffs: number;
}

/** A result measured in part: stale, its lines not counted (a long list counts them for its first memories only). */
function inPart(entry: Stale | null | undefined): boolean {
  return !!entry && entry.lines === undefined;
}

/** What measuring needs, for one call: the repository, each memory's scope and cache key, the cache, the placements and the budget. */
interface Measuring {
  repo: Repo;
  scopeOf: (m: Memory) => readonly string[];
  key: (m: Memory, place: string) => string;
  cache: StaleCache;
  placed: ReturnType<typeof placementsOf>;
  budget: Budget;
  /** A place's files → blobs, listed once per call however many ask (services/history/staleness.ts fileChanges, sameNamed). */
  tree: (place: string) => Map<string, string>;
}

/** Entry key → staleness at `place` for memories it holds: carried over from an earlier place where it can be, measured otherwise. */
function measureAt(ctx: Measuring, place: string, memories: readonly Memory[]): Map<string, Stale | null> {
  const { repo, scopeOf, key, cache, placed } = ctx;
  const result = new Map<string, Stale | null>();

  // The last place measured that this one descends from, when near: what happened since is one short `git log`.
  const base = [...cache.places].reverse().find((p) => p !== place && memories.some((m) => key(m, p) in cache.entries));
  let step: TouchingCommit[] | null = null;
  if (base && isAncestor(repo, base, place, STEP_AGE)) {
    const between = recentChanges(repo, 0, MAX_STEP + 1, place, [base]);
    if (between.length <= MAX_STEP) step = between;
  }
  const stepIndex = new TouchIndex(step ?? []);
  const carried: Array<{ m: Memory; before: Stale; touched: number }> = [];
  const fresh: Memory[] = [];
  for (const m of memories) {
    // Measured here before, in part (a long list counted no lines): its count of commits holds, its lines are counted now.
    const here = cache.entries[key(m, place)];
    if (here !== undefined) {
      if (here) carried.push({ m, before: here, touched: 0 });
      else result.set(key(m, place), null);
      continue;
    }
    const before = step ? cache.entries[key(m, base!)] : undefined;
    const touched = step ? stepIndex.count(scopeFiles(scopeOf(m)), { commit: '', time: 0 }) : 0;
    if (before === undefined) fresh.push(m);
    else if (before === null) {
      // Fresh before: how many commits touched its files without changing it was not kept, so it is counted anew once they did.
      if (touched === 0) result.set(key(m, place), null);
      else fresh.push(m);
    } else if (touched === 0 && !inPart(before)) result.set(key(m, place), before);
    else carried.push({ m, before, touched });
  }

  const all = [...carried.map((c) => c.m), ...fresh];
  const changes = fileChanges(ctx, place, all);
  // Only memories whose files differ need the commits since: one `git log` back to the oldest of them.
  const differs = fresh.filter((m) => changes.get(m)!.length);
  const window = differs.length ? windowAt(repo, place) : [];
  const windowIndex = new TouchIndex(window);
  const moves = movesOf(ctx, place, all, changes, [...(step ?? []), ...window]);

  for (const { m, before, touched } of carried) {
    const now = staleness(scopeFiles(scopeOf(m)), { commit: m.object, time: 0 }, changes.get(m)!, [], moves.get(m));
    const stale = advance(before, touched, now);
    result.set(key(m, place), stale);
  }
  for (const m of fresh) {
    const since = { commit: m.object, time: placed.get(m.object)?.time ?? 0 };
    const stale = staleness(scopeFiles(scopeOf(m)), since, changes.get(m)!, windowIndex, moves.get(m));
    result.set(key(m, place), stale);
  }
  return result;
}

/** How each memory's files differ between its commit and `place`: blobs compared, lines counted for the first memories within the budget. */
function fileChanges(ctx: Measuring, place: string, memories: readonly Memory[]): Map<Memory, FileChange[]> {
  const { repo, scopeOf, key, cache, budget } = ctx;
  const asked = memories.flatMap((m) => scopeFiles(scopeOf(m)).map((path) => ({ m, path })));
  // Many files at one place: its whole tree in one listing costs less than a lookup each.
  const tree = asked.length > MANY_FILES ? ctx.tree(place) : null;
  const olds = blobsAtCommits(repo, asked, key, cache);
  const nows = tree ? asked.map(({ path }) => tree.get(path) ?? null) : blobsAt(repo, asked.map(({ path }) => ({ rev: place, path })));
  const out = new Map<Memory, FileChange[]>(memories.map((m) => [m, []]));
  const pairs: Array<{ m: Memory; path: string; old: string | null; now: string | null }> = [];
  asked.forEach(({ m, path }, i) => {
    const old = olds[i]!;
    const now = nows[i]!;
    if (old !== now) pairs.push({ m, path, old, now });
  });

  const counted = new Set(memories.filter((m) => pairs.some((p) => p.m === m) && budget.lines()));
  const contents = readObjects(repo, pairs.filter((p) => counted.has(p.m)).flatMap((p) => [p.old, p.now].filter((o): o is string => o !== null)));
  const content = (oid: string | null) => (oid ? (contents.get(oid)?.content ?? null) : null);
  // Memories on nearby commits share versions of a file: each pair of versions is counted once.
  const countedPairs = new Map<string, LineCounts>();
  const countLines = (old: string | null, now: string | null) => {
    const k = `${old}:${now}`;
    if (!countedPairs.has(k)) countedPairs.set(k, lineCounts(content(old), content(now)));
    return countedPairs.get(k)!;
  };
  for (const { m, path, old, now } of pairs) {
    const status = now === null ? 'D' : old === null ? 'A' : 'M';
    const lines = counted.has(m) && (old === null || contents.has(old)) && (now === null || contents.has(now)) ? countLines(old, now) : null;
    const change: FileChange = lines ? { path, status, ...lines } : { path, status };
    // A memory about some lines of a file is stale only when a change reaches them.
    const ranges = scopeOf(m)
      .map(parseScope)
      .filter((e) => e.path === path && e.start !== undefined)
      .map((e) => [e.start!, e.end ?? e.start!] as const);
    const wholeFile = scopeOf(m).some((e) => parseScope(e).path === path && parseScope(e).start === undefined);
    if (ranges.length && !wholeFile && status === 'M' && budget.rangeDiffs > 0) {
      budget.rangeDiffs--;
      const within = linesChangedWithin(hunksBetween(repo, m.object, place, path), ranges);
      if (within) out.get(m)!.push({ path, status, added: within, removed: 0 });
      continue;
    }
    out.get(m)!.push(change);
  }
  return out;
}

/**
 * The blob of each file at its memory's commit, in order: what a commit holds
 * never changes, so it is kept (`olds`, by memory) and looked up once.
 */
function blobsAtCommits(repo: Repo, asked: ReadonlyArray<{ m: Memory; path: string }>, key: (m: Memory, place: string) => string, cache: StaleCache): Array<string | null> {
  const id = (m: Memory) => key(m, '');
  // Memories on one commit with one scope share an entry: the first asks for it.
  const first = new Map<string, Memory>();
  for (const { m } of asked) if (!(id(m) in cache.olds) && !first.has(id(m))) first.set(id(m), m);
  const unknown = asked.filter(({ m }) => first.get(id(m)) === m);
  const found = blobsAt(
    repo,
    unknown.map(({ m, path }) => ({ rev: m.object, path })),
  );
  unknown.forEach(({ m }, i) => {
    (cache.olds[id(m)] ??= []).push(found[i] ?? null);
  });
  const next = new Map<Memory, number>();
  return asked.map(({ m }) => {
    const i = next.get(m) ?? 0;
    next.set(m, i + 1);
    return cache.olds[id(m)]?.[i] ?? null;
  });
}

/**
 * memory → old path → new path, for its files gone at `place` that were
 * renamed: git's rename detection on the commit that deleted each (when it is
 * among `commits`); beyond them, a file of the same name at `place` holding
 * most of the old one's lines (rename detection between the memory's commit
 * and the place would cost a few hundred milliseconds each in a large
 * repository).
 */
function movesOf(ctx: Measuring, place: string, memories: readonly Memory[], changes: Map<Memory, FileChange[]>, commits: readonly TouchingCommit[]): Map<Memory, Map<string, string>> {
  const { repo } = ctx;
  const out = new Map<Memory, Map<string, string>>();
  const goneOf = (m: Memory) => changes.get(m)!.filter((c) => c.status === 'D').map((c) => c.path);
  const gone = memories.filter((m) => goneOf(m).length);
  if (gone.length === 0) return out;
  // The newest commit that deleted each path (commits are newest first).
  const deleter = new Map<string, string>();
  for (const t of commits) for (const p of t.deleted ?? []) if (!deleter.has(p)) deleter.set(p, t.commit);
  const known = renamesIn(repo, [...new Set(gone.flatMap((m) => goneOf(m).flatMap((p) => deleter.get(p) ?? [])))].reverse());
  const unknown = gone.flatMap((m) => goneOf(m).filter((p) => !deleter.has(p)).map((path) => ({ m, path })));
  const byName = unknown.length ? sameNamed(repo, ctx.tree(place), unknown) : new Map<string, string>();
  for (const m of gone) {
    const moves = new Map<string, string>();
    for (const p of goneOf(m)) {
      const to = known.get(p) ?? byName.get(`${m.object}:${p}`);
      if (to !== undefined) moves.set(p, to);
    }
    out.set(m, moves);
  }
  return out;
}

/** Of the files a place holds, at most this many of one name are compared with a gone file. */
const MAX_NAMESAKES = 4;

/** `<commit>:<path>` → the file of the same name at `place` most like it, when it keeps at least half its lines. */
function sameNamed(repo: Repo, tree: ReadonlyMap<string, string>, gone: ReadonlyArray<{ m: Memory; path: string }>): Map<string, string> {
  const out = new Map<string, string>();
  const named = new Map<string, string[]>();
  for (const f of tree.keys()) {
    const n = path.posix.basename(f);
    const list = named.get(n);
    if (list) list.push(f);
    else named.set(n, [f]);
  }
  const asked = gone.map(({ m, path: p }) => ({ m, path: p, candidates: (named.get(path.posix.basename(p)) ?? []).slice(0, MAX_NAMESAKES) })).filter((a) => a.candidates.length);
  if (asked.length === 0) return out;
  // The gone file as the memory's commit had it; the namesakes as the place has them (their blobs are in its tree).
  const olds = blobsAt(
    repo,
    asked.map((a) => ({ rev: a.m.object, path: a.path })),
  );
  const contents = readObjects(repo, [...olds.filter((b): b is string => b !== null), ...asked.flatMap((a) => a.candidates.map((c) => tree.get(c)!))]);
  // Memories on nearby commits ask about the same versions: each file's lines are split once, each pair scored once.
  const lines = new Map<string, string[] | null>();
  const linesOf = (oid: string) => {
    if (!lines.has(oid)) {
      const content = contents.get(oid)?.content;
      lines.set(oid, content ? textLines(content) : null);
    }
    return lines.get(oid)!;
  };
  const scores = new Map<string, number>();
  asked.forEach((a, i) => {
    const oldOid = olds[i] ?? '';
    const old = contents.get(oldOid)?.content;
    let best: { to: string; score: number } | null = null;
    for (const c of a.candidates) {
      const nowOid = tree.get(c)!;
      const now = contents.get(nowOid)?.content;
      if (!old || !now) continue;
      const pair = `${oldOid}:${nowOid}`;
      let score = scores.get(pair);
      if (score === undefined) scores.set(pair, (score = lineSimilarity(linesOf(oldOid)!, linesOf(nowOid)!)));
      if (score >= 0.5 && (!best || score > best.score)) best = { to: c, score };
    }
    if (best) out.set(`${a.m.object}:${a.path}`, best.to);
  });
  return out;
}

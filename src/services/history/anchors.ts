/**
 * Choosing the anchor of every memory that has copies on several commits
 * (core/history/anchor.ts). Placements depend on HEAD and the refs, so they are kept
 * in `<git common dir>/mem/anchors.json` under a digest of them, beside what
 * never changes (each commit's time). While the refs stay as they are,
 * choosing costs one `for-each-ref` and a small read; when HEAD moves, one
 * `rev-list` settles every memory with a copy HEAD reaches. A repository
 * without copies pays nothing.
 */
import { type Placement, pickAnchor, REACHES } from '../../core/history/anchor.ts';
import { JsonFile } from '../../stores/cache/json-file.ts';
import { isAncestor } from '../../stores/git/history.ts';
import { type ObjectFacts, type PlaceOf, placeObjects, refsState } from '../../stores/git/reachability.ts';
import type { Repo } from '../../stores/git/repo.ts';
import { knownCommits } from './file-history.ts';

interface PlacementCache {
  refs: string;
  /** HEAD under `refs`: when HEAD moves on to a commit that descends from it, what it reached it still reaches. */
  head?: string;
  /** object → [reach, committer time], under `refs`. */
  places: Record<string, [string, number]>;
  /** object → [type, committer time]: true whatever the refs. */
  facts: Record<string, [string, number]>;
  /** Under `refs`: commits HEAD does not reach, left unplaced because their place did not matter (settled). */
  offHead?: string[];
  /** The places under the refs before these: switching back (to the branch before a checkout) finds them. */
  previous?: { refs: string; head?: string; places: Record<string, [string, number]>; offHead?: string[] };
}

/** Version 1. */
function cacheFile(repo: Repo): JsonFile<Partial<PlacementCache>> {
  return new JsonFile<Partial<PlacementCache>>(repo.mem, 'anchors', 1, () => true);
}

/**
 * The cache as this process last read or wrote it, with its facts as a map: a command asks for
 * placements several times (recall's order, the reach shown, staleness), and the file (400 kB
 * with 3,000 memories) is read and taken apart once.
 */
const read = new WeakMap<Repo, { cache: Partial<PlacementCache>; facts: () => Map<string, ObjectFacts> }>();

/** The facts of a cache as a map, made when first asked for (a command that only carries places over never does). */
function factsOf(cache: Partial<PlacementCache>, made?: Map<string, ObjectFacts>): () => Map<string, ObjectFacts> {
  let facts = made;
  return () => (facts ??= new Map<string, ObjectFacts>(Object.entries(cache.facts ?? {}).map(([o, [type, time]]) => [o, { type, time }])));
}

function readCache(repo: Repo): { cache: Partial<PlacementCache>; facts: () => Map<string, ObjectFacts> } {
  let kept = read.get(repo);
  if (!kept) {
    const cache = cacheFile(repo).read() ?? {}; // None yet, or unreadable: placed anew.
    read.set(repo, (kept = { cache, facts: factsOf(cache) }));
  }
  return kept;
}

const isReach = (r: unknown): r is Placement['reach'] => (REACHES as readonly unknown[]).includes(r);

/**
 * Placements of commits under the current refs, from the cache where it has
 * them; `settled` (see placeObjects) may leave out commits whose place no
 * longer matters. What was computed is kept for the next reader.
 */
export function placementsOf(repo: Repo, objects: Iterable<string>, settled?: (object: string, placeOf: PlaceOf) => boolean): Map<string, Placement> {
  const wanted = [...new Set(objects)];
  const placed = new Map<string, Placement>();
  if (wanted.length === 0) return placed;
  const refs = refsState(repo);
  const { cache, facts: factsNow } = readCache(repo);
  // Under these refs, or the ones before (a switch back), or carried over from a near HEAD.
  const same = cache.refs === refs ? cache : cache.previous?.refs === refs ? cache.previous : null;
  const carried = same ? null : carriedOver(repo, cache);
  for (const [object, p] of placesOf(same?.places ?? carried ?? {})) placed.set(object, p);
  // `settled` holds only for a commit known to be off HEAD's history: one that HEAD reaches may be a better copy.
  const offHead = new Set(same?.offHead ?? []);
  const open = wanted.filter((o) => !placed.has(o) && !(offHead.has(o) && settled?.(o, (x) => placed.get(x))));
  // Only carried to a HEAD further on, nothing placed: not written (the places of every memory
  // are large), and the next command carries them again from the HEAD the file names.
  if (open.length === 0 && carried !== null && Object.keys(carried).length > 0) {
    read.set(repo, { cache: { ...cache, refs, ...(repo.head ? { head: repo.head } : {}), places: carried, offHead: [] }, facts: factsNow });
  } else if (open.length || cache.refs !== refs) {
    // Written when something was placed, or when the refs moved (what was carried over is kept under the new ones).
    const facts = factsNow();
    const factCount = facts.size;
    const offHeadCount = offHead.size;
    // What this run places first, then what the cache already knew.
    // Every memory's commit not placed yet rides on HEAD's step when it makes a walk (as a new
    // question's commits do): the next question, after the next commit too, finds them placed.
    const alongHead = new Map<string, number>();
    if (open.length) for (const [c, time] of knownCommits(repo)) if (!placed.has(c) && !offHead.has(c)) alongHead.set(c, time);
    const fresh = placeObjects(repo, open, { facts, alongHead, settled: settled && ((o, placeOf) => settled(o, (x) => placeOf(x) ?? placed.get(x))) });
    for (const [o, p] of fresh) placed.set(o, p);
    // Left out by placeObjects: asked after its HEAD step, so HEAD does not reach them.
    for (const o of open) if (!fresh.has(o) && facts.get(o)?.type === 'commit') offHead.add(o);
    const next: PlacementCache = {
      refs,
      ...(repo.head ? { head: repo.head } : {}),
      // Missing objects may arrive with the next fetch: their place is not kept.
      places: Object.fromEntries([...placed].filter(([, p]) => p.reach !== 'missing').map(([o, p]) => [o, [p.reach, p.time]])),
      facts: Object.fromEntries([...facts].map(([o, f]) => [o, [f.type, f.time]])),
      offHead: [...offHead],
      // The refs before are kept one step, as they were: a switch back costs nothing. HEAD a commit
      // further on keeps the ones before those (a switch back to HEAD's parent is rare, and the
      // places of every memory are twice what the file would hold).
      ...(cache.refs !== refs && cache.refs && cache.places && !(carried && Object.keys(carried).length)
        ? { previous: { refs: cache.refs, ...(cache.head ? { head: cache.head } : {}), places: cache.places, ...(cache.offHead ? { offHead: cache.offHead } : {}) } }
        : cache.previous
          ? { previous: cache.previous }
          : {}),
    };
    const changed = fresh.size || facts.size !== factCount || offHead.size !== offHeadCount || cache.refs !== refs;
    if (changed) cacheFile(repo).write(next);
    read.set(repo, { cache: next, facts: factsOf(next, facts) });
  }
  return new Map(wanted.flatMap((o) => (placed.has(o) ? [[o, placed.get(o)!] as const] : [])));
}

/** Each record of places read, as placements: several calls of one command take apart the same one. */
const taken = new WeakMap<object, ReadonlyMap<string, Placement>>();

function placesOf(places: Record<string, [string, number]>): ReadonlyMap<string, Placement> {
  let out = taken.get(places);
  if (!out) {
    const map = new Map<string, Placement>();
    for (const [object, [reach, time]] of Object.entries(places)) if (isReach(reach)) map.set(object, { object, reach, time });
    taken.set(places, (out = map));
  }
  return out;
}

/** A week (s): HEAD committed within it after the cached one is near. */
const NEAR = 7 * 24 * 3600;

/**
 * The commits the anchors cache saw in this clone (their facts are kept
 * whatever the refs): of those now gone, this clone held them, and gc
 * pruned them; they were not merely never fetched.
 */
export function commitsSeen(repo: Repo): Set<string> {
  const facts = readCache(repo).facts();
  return new Set([...facts].flatMap(([o, f]) => (f.type === 'commit' ? [o] : [])));
}

/**
 * Places kept under other refs that still hold: after a commit (or a pull
 * that fast-forwards), what the old HEAD reached, the new one reaches. One
 * `merge-base --is-ancestor`; everything else is placed anew.
 */
function carriedOver(repo: Repo, cache: Partial<PlacementCache>): Record<string, [string, number]> {
  // Only a near step: after a checkout far away, merge-base walks longer than placing anew does.
  if (!cache.places || !cache.head || !repo.head || !isAncestor(repo, cache.head, repo.head, NEAR)) return {};
  return Object.fromEntries(Object.entries(cache.places).filter(([, [reach]]) => reach === 'head'));
}

/** `<namespace>:<key>` → anchor, for memories with copies (`<namespace>:<key>` → objects). */
export function chooseAnchors(repo: Repo, copies: ReadonlyMap<string, readonly string[]>): Map<string, string> {
  const anchors = new Map<string, string>();
  if (copies.size === 0) return anchors;
  // Each commit with the memories that have a copy on it.
  const memoriesOn = new Map<string, Array<readonly string[]>>();
  for (const objects of copies.values()) {
    for (const o of objects) {
      const on = memoriesOn.get(o);
      if (on) on.push(objects);
      else memoriesOn.set(o, [objects]);
    }
  }
  // A commit's place no longer matters once every memory with a copy on it has a copy HEAD reaches: that copy wins.
  const settled = (object: string, placeOf: PlaceOf) => (memoriesOn.get(object) ?? []).every((objects) => objects.some((o) => placeOf(o)?.reach === 'head'));
  const placed = placementsOf(repo, [...copies.values()].flat(), settled);
  for (const [id, objects] of copies) {
    const best = pickAnchor(objects.flatMap((object) => placed.get(object) ?? []));
    anchors.set(id, best?.object ?? objects[0]!);
  }
  return anchors;
}

/**
 * Choosing the anchor of every memory that has copies on several commits
 * (core/history/anchor.ts). Placements depend on HEAD and the refs, so they are kept
 * in `<git common dir>/mem/anchors.tab` under a digest of them, beside what
 * never changes (each commit's time). While the refs stay as they are,
 * choosing costs one `for-each-ref` and a small read; when HEAD moves, one
 * `rev-list` settles every memory with a copy HEAD reaches. A repository
 * without copies pays nothing.
 */
import { type Placement, pickAnchor, REACHES } from '../../core/history/anchor.ts';
import { SortedTablesFile, type Table, type TableSource } from '../../stores/cache/sorted-tables.ts';
import { isAncestor } from '../../stores/git/history.ts';
import { type ObjectFacts, type PlaceOf, placeObjects, refsState } from '../../stores/git/reachability.ts';
import type { Repo } from '../../stores/git/repo.ts';
import { knownCommits } from './file-history.ts';

/** [reach, committer time]. */
type Place = [string, number];
/**
 * object → place: a table of the file (looked up, not decoded whole), a view of one (`table`, the
 * lines `keep` takes), or this process's map.
 */
type Places = Pick<Table<Place>, 'get' | 'entries'> & { table?: Table<Place>; keep?: (value: Buffer) => boolean };

/** The places as a table to write: a table of the file is copied line by line (less those `keep` refuses), with `added`. */
function placesSource(places: Places | undefined, added: Iterable<readonly [string, Place]> = []): TableSource {
  const table = places && 'lines' in places ? (places as Table<Place>) : places?.table;
  if (table) return { base: table, rows: added, ...(places?.keep ? { keep: places.keep } : {}) };
  const rows = new Map(places?.entries() ?? []);
  for (const [o, p] of added) rows.set(o, p);
  return rows;
}

/**
 * Facts of objects (true whatever the refs): the file's rows looked up as they are asked for (a
 * command asks about a few, `git mem index` about its new commits: decoding every row took 15 ms
 * at 10,000 memories), and what placeObjects adds recorded, so that a write copies the file's
 * lines and adds those.
 */
class Facts extends Map<string, ObjectFacts> {
  readonly added = new Map<string, ObjectFacts>();
  /** Cleared by placeObjects (a kept fact went stale): the file's rows no longer count. */
  cleared = false;

  constructor(readonly rows: FactRows | null) {
    super();
  }

  override get(key: string): ObjectFacts | undefined {
    const known = super.get(key);
    if (known || this.cleared || !this.rows) return known;
    const row = this.rows.get(key);
    if (!Array.isArray(row)) return undefined;
    const facts = { type: String(row[0]), time: Number(row[1]) };
    super.set(key, facts);
    return facts;
  }

  override has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  override set(key: string, value: ObjectFacts): this {
    this.added.set(key, value);
    return super.set(key, value);
  }

  override clear(): void {
    this.cleared = true;
    this.added.clear();
    super.clear();
  }

  /** Every fact: the file's rows and those added. */
  all(): Map<string, ObjectFacts> {
    const out = new Map<string, ObjectFacts>(this.cleared ? [] : Array.from(this.rows?.entries() ?? [], ([o, [type, time]]) => [o, { type, time }]));
    for (const [o, f] of this.cleared ? super.entries() : this.added) out.set(o, f);
    return out;
  }

  /** As a table to write: the file's lines copied, with those added. */
  source(): TableSource {
    const encode = (entries: Iterable<[string, ObjectFacts]>) => Array.from(entries, ([o, f]) => [o, [f.type, f.time]] as const);
    return this.cleared ? encode(super.entries()) : { base: this.rows, rows: encode(this.added) };
  }
}

interface PlaceRecord {
  refs: string;
  /** HEAD under `refs`: when HEAD moves on to a commit that descends from it, what it reached it still reaches. */
  head?: string;
  /** object → [reach, committer time], under `refs`. */
  places: Places;
  /** Under `refs`: commits HEAD does not reach, left unplaced because their place did not matter (settled). */
  offHead?: string[];
}

interface PlacementCache extends Partial<PlaceRecord> {
  /** The places under the refs before these: switching back (to the branch before a checkout) finds them. */
  previous?: PlaceRecord;
}

/**
 * Version 2: sorted tables (stores/cache/sorted-tables.ts) `places`, `facts` (object → [type,
 * committer time]: true whatever the refs) and `previousPlaces`, the rest in the header. Version 1
 * was one JSON value, anchors.json: 12.8 MB at 100,000 memories, parsed whole (75 ms) by every
 * command that showed a memory.
 */
function cacheFile(repo: Repo): SortedTablesFile {
  return new SortedTablesFile(repo.mem, 'anchors', 2, 'anchors.json');
}

type FactRows = Table<[string, number]>;

/**
 * The cache as this process last read or wrote it, with its facts as a map made when first asked
 * for: a command asks for placements several times (recall's order, the reach shown, staleness),
 * and the file is read once.
 */
const read = new WeakMap<Repo, { cache: PlacementCache; facts: Facts }>();

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? v : undefined);

function readCache(repo: Repo): { cache: PlacementCache; facts: Facts } {
  let kept = read.get(repo);
  if (!kept) {
    const file = cacheFile(repo).read(); // None yet, or unreadable: placed anew.
    const cache: PlacementCache = {};
    if (file && typeof file.header.refs === 'string') {
      const h = file.header as { refs: string; head?: unknown; offHead?: unknown; previous?: { refs?: unknown; head?: unknown; offHead?: unknown } };
      Object.assign(cache, record(h.refs, h.head, h.offHead, file.table<Place>('places')));
      const p = h.previous;
      if (p && typeof p.refs === 'string') cache.previous = record(p.refs, p.head, p.offHead, file.table<Place>('previousPlaces'));
    }
    read.set(repo, (kept = { cache, facts: new Facts(file?.table<[string, number]>('facts') ?? null) }));
  }
  return kept;
}

function record(refs: string, head: unknown, offHead: unknown, places: Places): PlaceRecord {
  const off = strings(offHead);
  return { refs, ...(typeof head === 'string' ? { head } : {}), places, ...(off ? { offHead: off } : {}) };
}

/** `places`: how the cache's places are written (placesSource). */
function writeCache(repo: Repo, cache: PlacementCache, places: TableSource, facts: TableSource): void {
  const { previous } = cache;
  const header = {
    refs: cache.refs,
    ...(cache.head ? { head: cache.head } : {}),
    offHead: cache.offHead ?? [],
    ...(previous ? { previous: { refs: previous.refs, ...(previous.head ? { head: previous.head } : {}), ...(previous.offHead ? { offHead: previous.offHead } : {}) } } : {}),
  };
  cacheFile(repo).write(header, [
    ['places', places],
    ['facts', facts],
    ['previousPlaces', placesSource(previous?.places)],
  ]);
}

const isReach = (r: unknown): r is Placement['reach'] => (REACHES as readonly unknown[]).includes(r);

function placementOf(object: string, place: Place | undefined): Placement | undefined {
  return place && isReach(place[0]) ? { object, reach: place[0], time: place[1] } : undefined;
}

/** Whether a set of places holds any (a carried-over view is only known by looking). */
function holdsAny(places: Places | null): boolean {
  if (!places) return false;
  for (const _ of places.entries()) return true;
  return false;
}

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
  const { cache, facts } = readCache(repo);
  // Under these refs, or the ones before (a switch back), or carried over from a near HEAD.
  const same = cache.refs === refs ? cache : cache.previous?.refs === refs ? cache.previous : null;
  const carried = same ? null : carriedOver(repo, cache);
  const looked = same?.places ?? carried;
  // Looked up one by one: the cache holds every memory's commit, a command wants a few. Asked for
  // many (`git mem index` asks for every memory's commit), read whole once: a binary search of the
  // file per commit took 30 ms at 10,000 memories. (How they are written is decided by `looked`.)
  const whole = looked && wanted.length >= READ_WHOLE ? new Map(looked.entries()) : null;
  const known: Places | null = whole ?? looked;
  const knownPlace = (o: string) => placed.get(o) ?? placementOf(o, known?.get(o));
  for (const o of wanted) {
    const p = knownPlace(o);
    if (p) placed.set(o, p);
  }
  // `settled` holds only for a commit known to be off HEAD's history: one that HEAD reaches may be a better copy.
  const offHead = new Set(same?.offHead ?? []);
  const open = wanted.filter((o) => !placed.has(o) && !(offHead.has(o) && settled?.(o, knownPlace)));
  // Only carried to a HEAD further on, nothing placed: not written (the places of every memory
  // are large), and the next command carries them again from the HEAD the file names.
  if (open.length === 0 && carried !== null && holdsAny(carried)) {
    read.set(repo, { cache: { ...cache, refs, ...(repo.head ? { head: repo.head } : {}), places: carried, offHead: [] }, facts });
  } else if (open.length || cache.refs !== refs) {
    // Something to place, or the refs moved: every known place is taken, the new ones added, and the file written.
    // Every known place, as kept ([reach, time]); those placed now are added below. The next reader's places.
    const places = whole ?? new Map(known?.entries() ?? []);
    const placeIn = (o: string) => placementOf(o, places.get(o));
    const isPlaced = (o: string) => isReach(places.get(o)?.[0]);
    const factCount = facts.added.size;
    const cleared = facts.cleared;
    const offHeadCount = offHead.size;
    // What this run places first, then what the cache already knew.
    // Every memory's commit not placed yet rides on HEAD's step when it makes a walk (as a new
    // question's commits do): the next question, after the next commit too, finds them placed.
    const alongHead = new Map<string, number>();
    if (open.length) for (const [c, time] of knownCommits(repo)) if (!isPlaced(c) && !offHead.has(c)) alongHead.set(c, time);
    const fresh = placeObjects(repo, open, { facts, alongHead, settled: settled && ((o, placeOf) => settled(o, (x) => placeOf(x) ?? placeIn(x))) });
    for (const o of wanted) {
      const p = placed.has(o) ? undefined : (fresh.get(o) ?? placeIn(o));
      if (p) placed.set(o, p);
    }
    // Missing objects may arrive with the next fetch: their place is not kept.
    for (const [o, p] of fresh) {
      if (p.reach === 'missing') places.delete(o);
      else places.set(o, [p.reach, p.time]);
    }
    // Left out by placeObjects: asked after its HEAD step, so HEAD does not reach them.
    for (const o of open) if (!fresh.has(o) && facts.get(o)?.type === 'commit') offHead.add(o);
    const next: PlacementCache = {
      refs,
      ...(repo.head ? { head: repo.head } : {}),
      places,
      offHead: [...offHead],
      // The refs before are kept one step, as they were: a switch back costs nothing. HEAD a commit
      // further on keeps the ones before those (a switch back to HEAD's parent is rare, and the
      // places of every memory are twice what the file would hold).
      ...(cache.refs !== refs && cache.refs && cache.places && !holdsAny(carried)
        ? { previous: { refs: cache.refs, ...(cache.head ? { head: cache.head } : {}), places: cache.places, ...(cache.offHead ? { offHead: cache.offHead } : {}) } }
        : cache.previous
          ? { previous: cache.previous }
          : {}),
    };
    const changed = fresh.size || facts.added.size !== factCount || facts.cleared !== cleared || offHead.size !== offHeadCount || cache.refs !== refs;
    // The places known copied as the file holds them, with those placed now (missing objects left out, as above).
    const placedNow = Array.from(fresh, ([o, p]) => [o, [p.reach, p.time]] as [string, Place]).filter(([, [reach]]) => reach !== 'missing');
    if (changed) writeCache(repo, next, placesSource(looked ?? undefined, placedNow), facts.source());
    read.set(repo, { cache: next, facts });
  }
  const out = new Map<string, Placement>();
  for (const o of wanted) {
    const p = placed.get(o);
    if (p) out.set(o, p);
  }
  return out;
}

/** Commits asked for at once from which the places known are read whole rather than looked up. */
const READ_WHOLE = 1000;

/** Whether a line's value (its JSON) is a place at HEAD, as atHead() reads it. */
const HEAD_PLACE = Buffer.from('["head",');
const headLine = (value: Buffer) => value.subarray(0, HEAD_PLACE.length).equals(HEAD_PLACE);

/** A week (s): HEAD committed within it after the cached one is near. */
const NEAR = 7 * 24 * 3600;

/**
 * The commits the anchors cache saw in this clone (their facts are kept
 * whatever the refs): of those now gone, this clone held them, and gc
 * pruned them; they were not merely never fetched.
 */
export function commitsSeen(repo: Repo): Set<string> {
  const facts = readCache(repo).facts.all();
  return new Set([...facts].flatMap(([o, f]) => (f.type === 'commit' ? [o] : [])));
}

/**
 * Places kept under other refs that still hold: after a commit (or a pull
 * that fast-forwards), what the old HEAD reached, the new one reaches. One
 * `merge-base --is-ancestor`; everything else is placed anew. A view of the
 * cache's places, not a copy: a command looks up a few.
 */
function carriedOver(repo: Repo, cache: PlacementCache): Places | null {
  // Only a near step: after a checkout far away, merge-base walks longer than placing anew does.
  const from = cache.places;
  if (!from || !cache.head || !repo.head || !isAncestor(repo, cache.head, repo.head, NEAR)) return null;
  const atHead = (p: Place | undefined) => (p?.[0] === 'head' ? p : undefined);
  const table = 'lines' in from ? (from as Table<Place>) : from.table;
  return {
    ...(table ? { table, keep: headLine } : {}),
    get: (o) => atHead(from.get(o)),
    *entries() {
      for (const e of from.entries()) if (atHead(e[1])) yield e;
    },
  };
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

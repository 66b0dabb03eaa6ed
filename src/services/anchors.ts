/**
 * Choosing the anchor of every memory that has copies on several commits
 * (core/anchor.ts). Placements depend on HEAD and the refs, so they are kept
 * in `<git common dir>/mem/anchors.json` under a digest of them: while the
 * refs stay as they are, choosing costs one `for-each-ref` and a small read;
 * a repository without copies pays nothing.
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Placement, pickAnchor, REACHES } from '../core/anchor.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { placeObjects, refsState } from '../stores/git/reachability.ts';
import type { Repo } from '../stores/git/repo.ts';

interface PlacementCache {
  refs: string;
  /** object → [reach, committer time]. */
  places: Record<string, [string, number]>;
}

export function anchorsFile(repo: Repo): string {
  return path.join(repo.commonDir, 'mem', 'anchors.json');
}

function readCache(file: string, refs: string): Record<string, [string, number]> {
  try {
    const cache = JSON.parse(fs.readFileSync(file, 'utf8')) as PlacementCache;
    if (cache.refs === refs && cache.places && typeof cache.places === 'object') return cache.places;
  } catch {
    // None yet, or unreadable: placed anew.
  }
  return {};
}

/** Placements of these objects now, from the cache when the refs have not moved since. */
export function placements(repo: Repo, objects: Iterable<string>): Map<string, Placement> {
  const wanted = [...new Set(objects)];
  const out = new Map<string, Placement>();
  if (wanted.length === 0) return out;
  const refs = refsState(repo);
  const file = anchorsFile(repo);
  const places = readCache(file, refs);
  const unknown: string[] = [];
  for (const object of wanted) {
    const p = places[object];
    if (p && (REACHES as readonly string[]).includes(p[0])) out.set(object, { object, reach: p[0] as Placement['reach'], time: p[1] });
    else unknown.push(object);
  }
  if (unknown.length) {
    for (const [object, p] of placeObjects(repo, unknown)) {
      out.set(object, p);
      places[object] = [p.reach, p.time];
    }
    try {
      writeFileAtomic(file, JSON.stringify({ refs, places } satisfies PlacementCache));
    } catch {
      // A cache: the next reader places them again.
    }
  }
  return out;
}

/** `<namespace>:<key>` → anchor, for memories with copies (`<namespace>:<key>` → objects). */
export function chooseAnchors(repo: Repo, copies: ReadonlyMap<string, readonly string[]>): Map<string, string> {
  const anchors = new Map<string, string>();
  if (copies.size === 0) return anchors;
  const placed = placements(repo, [...copies.values()].flat());
  for (const [id, objects] of copies) {
    const best = pickAnchor(objects.map((object) => placed.get(object) ?? { object, reach: 'missing', time: 0 }));
    if (best) anchors.set(id, best.object);
  }
  return anchors;
}

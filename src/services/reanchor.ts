/**
 * Reanchoring: memories on commits that nothing reaches any more (amended,
 * rebased, squash-merged, their branch deleted) are moved onto the commit that
 * now holds their change, before gc and `git notes prune` take them away.
 *
 * Per memory: when another copy sits on a live commit, the orphaned copies
 * are dropped and the live ones get the newest revision (or the tombstone);
 * otherwise the orphan's commit is matched (core/rewrite-match.ts) among the
 * live commits it does not reach, and the memory moves there. What cannot be
 * matched stays where it is, reported. One notes commit per namespace.
 */
import { scopeFiles } from '../core/scope.ts';
import { isOrphan, type Placement } from '../core/anchor.ts';
import { parseCommit } from '../core/commit.ts';
import { formatId } from '../core/memory.ts';
import { type KeyedDoc, keyOf, winner } from '../core/merge.ts';
import { type NoteDoc, parseNote, serializeNote } from '../core/note-format.ts';
import { type Candidate, matchOrphan, type MatchVia, type Orphan } from '../core/rewrite-match.ts';
import { convergeCopies } from './converge.ts';
import type { Deps } from './deps.ts';

/** What this file's services use. */
export type ReanchorDeps = Pick<Deps, 'index' | 'notes' | 'repo'>;
import { changedPaths, patchIds } from '../stores/git/changes.ts';
import { readBatch } from '../stores/git/objects.ts';
import { placeObjects } from '../stores/git/reachability.ts';

/** The newest live commits searched for a match. */
const MAX_CANDIDATES = 5000;

export interface ReanchorMove {
  id: string;
  namespace: string;
  key: string;
  from: string[];
  to: string[];
  /** How the target was found: another live copy, or a match of the orphan's commit. */
  via: 'copy' | MatchVia;
}

export interface ReanchorResult {
  moved: ReanchorMove[];
  /** Memories left on orphaned commits: nothing matched them. */
  unmatched: Array<{ id: string; namespace: string; key: string; objects: string[] }>;
  /** Memories whose copies disagreed (a forget or edit that reached only some) and now all hold the winner: services/converge.ts. */
  converged: number;
  dryRun: boolean;
}

interface Group {
  namespace: string;
  key: string;
  objects: Set<string>;
  created: string;
  paths: Set<string>;
  memory: boolean;
}

function groupDocuments(docs: Awaited<ReturnType<ReanchorDeps['index']['documents']>>): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const d of docs) {
    const id = `${d.namespace}:${d.key}`;
    let g = groups.get(id);
    if (!g) groups.set(id, (g = { namespace: d.namespace, key: d.key, objects: new Set(), created: '', paths: new Set(), memory: false }));
    g.objects.add(d.object);
    if (d.created) {
      g.memory = true;
      if (!g.created || d.created < g.created) g.created = d.created;
    }
    // Files, not line ranges: they are matched against the files commits changed.
    for (const p of scopeFiles(d.paths)) g.paths.add(p);
  }
  return groups;
}

/** Live commits an orphan's change may have landed on, with what matching needs of them. */
function findCandidates(ctx: ReanchorDeps, orphans: readonly string[], placed: Map<string, Placement>): { candidates: Candidate[]; withPaths: () => void } {
  const repo = ctx.repo;
  // Live commits no older than the oldest orphan (a day's slack for clocks): a rewrite is newer than
  // what it rewrote. Excluding what the orphans reach instead would let one abandoned branch hide all of main.
  const times = orphans.map((o) => placed.get(o)).filter((p) => p?.reach === 'unreachable').map((p) => p!.time);
  const args = ['rev-list', `--max-count=${MAX_CANDIDATES}`, ...(times.length ? [`--since=${Math.min(...times) - 86_400}`] : []), '--branches', '--remotes'];
  if (repo.head) args.push('HEAD');
  const r = repo.git.exec(args);
  const ids = r.status === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
  const live = placeObjects(repo, ids);
  const objects = readBatch(repo, ids);
  const candidates: Candidate[] = ids.map((id, i) => ({
    placement: live.get(id) ?? { object: id, reach: 'branch', time: 0 },
    message: objects[i] ? parseCommit(objects[i]!.content.toString('utf8')).message : '',
  }));
  const withPatchIds = patchIds(repo, ids);
  for (const c of candidates) c.patchId = withPatchIds.get(c.placement.object);
  return {
    candidates,
    withPaths: () => {
      const paths = changedPaths(repo, ids);
      for (const c of candidates) c.paths = paths.get(c.placement.object) ?? [];
    },
  };
}

/** What is known of each orphaned commit: its patch-id, subject and files while it exists, else its memories' recorded files. */
function describeOrphans(ctx: ReanchorDeps, objects: readonly string[], placed: Map<string, Placement>, groups: readonly Group[]): Orphan[] {
  const existing = objects.filter((o) => placed.get(o)?.reach === 'unreachable');
  const ids = patchIds(ctx.repo, existing);
  const paths = changedPaths(ctx.repo, existing);
  const commits = readBatch(ctx.repo, existing);
  const subjects = new Map(existing.map((o, i) => [o, commits[i] ? parseCommit(commits[i]!.content.toString('utf8')).subject : undefined]));
  return objects.map((object) => {
    const recorded = new Set<string>();
    for (const g of groups) if (g.objects.has(object)) for (const p of g.paths) recorded.add(p);
    const p = placed.get(object);
    return {
      object,
      patchId: ids.get(object),
      subject: subjects.get(object),
      time: p?.reach === 'unreachable' ? p.time : undefined,
      // A commit this clone does not have may only not be fetched yet: only a message naming its full id moves it.
      paths: p?.reach === 'unreachable' ? (paths.get(object) ?? [...recorded]) : [],
    };
  });
}

export async function reanchor(ctx: ReanchorDeps, options: { dryRun?: boolean } = {}): Promise<ReanchorResult> {
  const result: ReanchorResult = { moved: [], unmatched: [], converged: 0, dryRun: Boolean(options.dryRun) };
  // First every copy of a memory gets its newest revision or forget, so that dropping orphaned copies below loses neither.
  result.converged = options.dryRun ? (await ctx.index.divergentCopies()).length : await convergeCopies(ctx);
  const groups = groupDocuments(await ctx.index.documents());
  const placed = placeObjects(ctx.repo, [...groups.values()].flatMap((g) => [...g.objects]));
  const reachOf = (o: string) => placed.get(o)?.reach ?? 'missing';
  const orphaned = (o: string) => isOrphan(reachOf(o));

  // Memories with a live copy need no search; the others need their orphan's commit matched.
  const moves: ReanchorMove[] = [];
  const homeless: Group[] = [];
  for (const g of groups.values()) {
    const to = [...g.objects].filter((o) => !orphaned(o)).sort();
    if (to.length) {
      // Copies on commits this clone lacks are left alone: they may be a teammate's, not fetched yet.
      const from = [...g.objects].filter((o) => reachOf(o) === 'unreachable').sort();
      if (from.length) moves.push({ id: '', namespace: g.namespace, key: g.key, from, to, via: 'copy' });
    } else if ([...g.objects].some(orphaned)) homeless.push(g); // tombstones too: a forget must outlive notes prune
  }

  if (homeless.length) {
    const orphanObjects = [...new Set(homeless.flatMap((g) => [...g.objects]))].sort();
    const orphans = new Map(describeOrphans(ctx, orphanObjects, placed, homeless).map((o) => [o.object, o]));
    const { candidates, withPaths } = findCandidates(ctx, orphanObjects, placed);
    const targets = new Map<string, { target: string; via: MatchVia }>();
    for (const step of ['patch-id', 'message', 'files'] as const) {
      const open = orphanObjects.filter((o) => !targets.has(o));
      if (open.length === 0 || candidates.length === 0) break;
      if (step === 'files') withPaths();
      for (const o of open) {
        const target = matchOrphan(orphans.get(o)!, candidates, step);
        if (target) targets.set(o, { target, via: step });
      }
    }
    for (const g of homeless) {
      const from = [...g.objects].sort();
      // Its newest orphaned commit that found a home decides.
      const match = from
        .map((o) => ({ o, t: targets.get(o), time: placed.get(o)?.time ?? 0 }))
        .filter((x) => x.t)
        .sort((a, b) => b.time - a.time || (a.o < b.o ? -1 : 1))[0]?.t;
      if (match) moves.push({ id: '', namespace: g.namespace, key: g.key, from, to: [match.target], via: match.via });
      else if (g.memory && from.some((o) => reachOf(o) === 'unreachable')) result.unmatched.push({ id: formatId({ namespace: g.namespace, object: from[0]!, key: g.key }), namespace: g.namespace, key: g.key, objects: from });
    }
  }

  for (const m of moves) m.id = formatId({ namespace: m.namespace, object: m.to[0]!, key: m.key });
  result.moved = moves;
  if (!options.dryRun) {
    const skipped = new Set<ReanchorMove>();
    for (const ns of new Set(moves.map((m) => m.namespace))) for (const m of applyMoves(ctx, ns, moves.filter((x) => x.namespace === ns))) skipped.add(m);
    // Not moved (bound for a binary note): reported as left where they are, not as moved.
    result.moved = moves.filter((m) => !skipped.has(m));
    for (const m of skipped) result.unmatched.push({ id: m.id, namespace: m.namespace, key: m.key, objects: m.from });
  }
  return result;
}

/**
 * Moves memories within one namespace's notes, in one notes commit: every
 * target note gets the newest revision (or tombstone) found among all copies,
 * every orphaned note loses the memory (and the note goes when nothing is left).
 */
function applyMoves(ctx: ReanchorDeps, namespace: string, moves: readonly ReanchorMove[]): ReanchorMove[] {
  let skipped: ReanchorMove[] = [];
  const objects = [...new Set(moves.flatMap((m) => [...m.from, ...m.to]))];
  ctx.notes.update(namespace, objects, (current) => {
    skipped = [];
    const notes = new Map<string, NoteDoc[]>();
    const binary = new Set<string>();
    for (const o of objects) {
      const parsed = parseNote(current.get(o) ?? '', namespace, o);
      notes.set(o, parsed.docs);
      if (parsed.binary) binary.add(o);
    }
    for (const move of moves) {
      // A binary note is never rewritten; a memory bound for one stays where it is.
      if (move.to.some((o) => binary.has(o))) {
        skipped.push(move);
        continue;
      }
      const revisions = [...move.from, ...move.to].flatMap((o) => notes.get(o)!.filter((d): d is KeyedDoc => d.kind !== 'other' && keyOf(d) === move.key));
      if (revisions.length === 0) continue;
      const newest = winner(revisions);
      for (const o of move.from) notes.set(o, notes.get(o)!.filter((d) => d.kind === 'other' || keyOf(d) !== move.key));
      for (const o of move.to) {
        const docs = notes.get(o)!;
        const at = docs.findIndex((d) => d.kind !== 'other' && keyOf(d) === move.key);
        if (at < 0) notes.set(o, [...docs, newest]);
        else notes.set(o, docs.flatMap((d, i) => (i === at ? [newest] : d.kind !== 'other' && keyOf(d) === move.key ? [] : [d])));
      }
    }
    const changes = new Map<string, string | null>();
    for (const o of objects) {
      const before = current.get(o) ?? null;
      const docs = notes.get(o)!;
      const after = docs.some((d) => d.raw.trim()) ? serializeNote(docs) : null;
      if (after !== before) changes.set(o, after);
    }
    return { changes, message: `reanchor ${moves.length} ${moves.length === 1 ? 'memory' : 'memories'}` };
  });
  return skipped;
}

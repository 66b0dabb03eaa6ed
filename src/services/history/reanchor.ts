/**
 * Reanchoring: memories on commits that nothing reaches any more (amended,
 * rebased, squash-merged, their branch deleted) are moved onto the commit that
 * now holds their change, before gc and `git notes prune` take them away.
 *
 * Per memory: when another copy sits on a live commit, the orphaned copies
 * are dropped and the live ones get the newest revision (or the tombstone);
 * otherwise the orphan's commit is matched (core/history/rewrite-match.ts) among the
 * live commits of a bounded window (core/history/rewrite-search.ts), and the memory
 * moves there. What cannot be matched stays where it is, reported: on a
 * commit that exists, unmatched; on a commit this clone lacks, missing (of
 * this user: most likely pruned here; a teammate's: maybe not fetched yet).
 * One notes commit per namespace.
 */
import { scopeFiles } from '../../core/history/scope.ts';
import { isOrphan, type Placement } from '../../core/history/anchor.ts';
import { parseCommit } from '../../core/commit.ts';
import { formatId } from '../../core/memory.ts';
import { type KeyedDoc, keyOf, winner } from '../../core/merge.ts';
import { type NoteDoc, parseNote, serializeNote } from '../../core/note-format.ts';
import { type Candidate, matchOrphan, type MatchVia, type Orphan } from '../../core/history/rewrite-match.ts';
import { coveringPaths, epochSeconds, pathsKey, sameAuthor, type SearchOrphan, searchPaths, searchSince, worthPatchId } from '../../core/history/rewrite-search.ts';
import { formatMoves } from '../../core/history/moves.ts';
import { convergeCopies } from './converge.ts';
import { commitsSeen } from './anchors.ts';
import { readHeld, recordHeld } from '../../stores/cache/held-log.ts';
import { clearReanchorDue } from '../../stores/cache/reanchor-due.ts';
import { type LeftBehind, lastRun, type MissingLeft, recallRun, rememberRun, type RunState, runState } from './reanchor-memo.ts';
import type { Deps } from '../deps.ts';
import { changedPaths, liveCommitsSince, patchIds } from '../../stores/git/changes.ts';
import { objectTypes, readBatch } from '../../stores/git/objects.ts';
import { type ObjectFacts, placeObjects, readFacts } from '../../stores/git/reachability.ts';
import { reachesAll } from '../../stores/git/ref-tips.ts';
import { resolveCommit } from '../../stores/git/history.ts';
import { NotFoundError, UsageError } from '../../core/errors.ts';
import { findMemory, type MemoriesDeps } from '../memories.ts';
import type { Repo } from '../../stores/git/repo.ts';

/** What this file's services use. */
export type ReanchorDeps = Pick<Deps, 'index' | 'notes' | 'repo' | 'settings'>;

/** A safety net on the live commits searched, after the window and the files have bounded them. */
const MAX_CANDIDATES = 5000;
/** Patch-ids computed for orphans known only from what their memories recorded: the newest candidates covering their files. */
const MAX_RECORDED_PATCH_IDS = 50;

/** What the memories on a commit recorded of it at capture (Memory.commitSubject, Memory.patchId). */
interface Recorded {
  subject?: string;
  patchId?: string;
}

export interface ReanchorMove {
  id: string;
  namespace: string;
  key: string;
  from: string[];
  to: string[];
  /** How the target was found: another live copy, a match of the orphan's commit, or by hand. */
  via: 'copy' | 'manual' | MatchVia;
}

export type { LeftBehind, MissingLeft };

export interface ReanchorResult {
  moved: ReanchorMove[];
  /** Memories left on orphaned commits that exist: nothing matched them. */
  unmatched: LeftBehind[];
  /** Memories whose every copy sits on a commit this clone lacks, and nothing matched them. */
  missing: MissingLeft[];
  /** Memories whose copies disagreed (a forget or edit that reached only some) and now all hold the winner: services/history/converge.ts. */
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

/**
 * Where every commit holding a note stands. Most are on HEAD's history, and
 * only their type is needed for that (a `--batch-check`, no content read);
 * committer times are read for the orphans alone.
 */
function placeNoted(repo: Repo, objects: readonly string[]): Map<string, Placement> {
  const facts = new Map<string, ObjectFacts>([...objectTypes(repo, objects)].map(([o, type]) => [o, { type, time: 0 }]));
  const placed = placeObjects(repo, objects, { facts });
  const unreachable = [...placed.values()].filter((p) => p.reach === 'unreachable').map((p) => p.object);
  for (const [o, f] of readFacts(repo, unreachable)) placed.get(o)!.time = f.time;
  return placed;
}

/**
 * What is known of each orphaned commit: while it exists, its files, subject
 * and time; once gone, its memories' recorded files and creation time, and,
 * when this clone held it (`held`), the subject and patch-id they recorded.
 */
function describeOrphans(
  repo: Repo,
  objects: readonly string[],
  placed: Map<string, Placement>,
  groups: readonly Group[],
  held: ReadonlyMap<string, Recorded>,
): Array<{ orphan: Orphan; search: SearchOrphan }> {
  const existing = objects.filter((o) => placed.get(o)?.reach === 'unreachable');
  const paths = changedPaths(repo, existing);
  const commits = readBatch(repo, existing);
  const subjects = new Map(existing.map((o, i) => [o, commits[i] ? parseCommit(commits[i]!.content.toString('utf8')).subject : undefined]));
  return objects.map((object) => {
    const recorded = new Set<string>();
    let created: number | undefined;
    for (const g of groups) {
      if (!g.objects.has(object)) continue;
      for (const p of g.paths) recorded.add(p);
      const t = g.memory ? epochSeconds(g.created) : undefined;
      if (t !== undefined && (created === undefined || t < created)) created = t;
    }
    const p = placed.get(object);
    const exists = p?.reach === 'unreachable';
    const files = exists ? (paths.get(object) ?? [...recorded]) : [...recorded];
    const facts = held.get(object);
    return {
      orphan: {
        object,
        subject: exists ? subjects.get(object) : facts?.subject,
        ...(facts?.patchId && !exists ? { patchId: facts.patchId } : {}),
        time: exists ? p.time : undefined,
        // A commit this clone never had may only not be fetched yet: only a message naming its full id moves it.
        // One it held and gc pruned is matched on what its memories recorded.
        paths: exists || facts ? files : [],
      },
      search: { time: exists ? p.time : undefined, created, paths: files },
    };
  });
}

/**
 * The live commits an orphan's change may have landed on: the window's
 * commits touching the orphans' files, each with its placement, message and
 * files; patch-ids only for those whose files are exactly an orphan's (and
 * for those orphans).
 */
function findCandidates(repo: Repo, described: ReadonlyArray<{ orphan: Orphan; search: SearchOrphan }>): Candidate[] {
  const since = searchSince(described.map((d) => d.search));
  if (since === undefined) return [];
  const ids = liveCommitsSince(repo, { since, paths: searchPaths(described.map((d) => d.search)), max: MAX_CANDIDATES });
  if (ids.length === 0) return [];
  const objects = readBatch(repo, ids);
  const facts = new Map<string, ObjectFacts>();
  const messages = new Map<string, string>();
  ids.forEach((id, i) => {
    const obj = objects[i];
    if (!obj) return;
    const commit = parseCommit(obj.content.toString('utf8'));
    messages.set(id, commit.message);
    facts.set(id, { type: obj.type, time: commit.committer ? Math.floor(Date.parse(commit.committer.date) / 1000) : 0 });
  });
  // The facts just read spare placeObjects its own cat-file.
  const live = placeObjects(repo, ids, { facts });
  const files = changedPaths(repo, ids);
  const existing = described.filter((d) => d.orphan.time !== undefined).map((d) => d.orphan);
  const worth = worthPatchId(existing.map((o) => o.paths), files);
  // Gone commits this clone held, matched on their recorded patch-id: the newest candidates holding all their files.
  const recordedOnly = described.filter((d) => d.orphan.time === undefined && d.orphan.patchId && d.orphan.paths.length).map((d) => d.orphan.paths);
  if (recordedOnly.length) {
    const more = coveringPaths(recordedOnly, files, MAX_RECORDED_PATCH_IDS);
    worth.push(...more.filter((c) => !worth.includes(c)));
  }
  const candidateIds = patchIds(repo, worth);
  const keys = new Set(worth.map((c) => pathsKey(files.get(c) ?? [])));
  const orphanIds = patchIds(repo, existing.filter((o) => o.paths.length && keys.has(pathsKey(o.paths))).map((o) => o.object));
  for (const o of existing) o.patchId = orphanIds.get(o.object);
  return ids.map((id) => ({
    placement: live.get(id) ?? { object: id, reach: 'branch', time: facts.get(id)?.time ?? 0 },
    message: messages.get(id) ?? '',
    patchId: candidateIds.get(id),
    paths: files.get(id) ?? [],
  }));
}

/**
 * The gone commits this clone held, with what their memories recorded of
 * them: one a memory was captured on here, or a reanchor run or the anchors
 * cache saw here (stores/cache/held-log.ts). A commit never seen here, a teammate's
 * or this user's from another clone, may never have been fetched: it is
 * not matched on guesses. The recorded facts are read from the notes
 * (one `ls-tree` and one `cat-file` a namespace), only for these commits.
 */
function heldHere(ctx: ReanchorDeps, gone: readonly Group[], heldLog: ReadonlySet<string>, reachOf: (o: string) => string): Map<string, Recorded> {
  const out = new Map<string, Recorded>();
  if (gone.length === 0) return out;
  const seen = commitsSeen(ctx.repo);
  const objects = new Set<string>();
  for (const g of gone) for (const o of g.objects) if (reachOf(o) === 'missing' && (heldLog.has(o) || seen.has(o))) objects.add(o);
  if (objects.size === 0) return out;
  for (const o of objects) out.set(o, {});
  const tips = ctx.notes.tips();
  for (const ns of new Set(gone.map((g) => g.namespace))) {
    const tip = tips.get(ns);
    if (!tip) continue;
    const keys = new Set(gone.filter((g) => g.namespace === ns).map((g) => g.key));
    const notes = ctx.notes.listNotes(tip).filter((n) => objects.has(n.object));
    const texts = ctx.notes.readTexts(notes.map((n) => n.blob));
    for (const n of notes) {
      const facts = out.get(n.object)!;
      for (const d of parseNote(texts.get(n.blob) ?? '', ns, n.object).docs) {
        if (d.kind !== 'memory' || !keys.has(d.memory.key)) continue;
        facts.subject ??= d.memory.commitSubject;
        facts.patchId ??= d.memory.patchId;
      }
    }
  }
  return out;
}

/** Whether every commit holding a note (from the notes trees, not the index) is live: one `ls-tree` a namespace, then placement. */
function noOrphans(ctx: ReanchorDeps, state: RunState): boolean {
  const objects = [...state.tips.values()].flatMap((tip) => ctx.notes.listNotes(tip).map((n) => n.object));
  return ![...placeNoted(ctx.repo, objects).values()].some((p) => isOrphan(p.reach));
}

/**
 * Whether each memory left on commits this clone lacks is this user's (its
 * author, from the current memories). A forgotten one is absent: nothing of
 * it is left to lose.
 */
async function mineOf(ctx: ReanchorDeps, groups: readonly Group[]): Promise<Map<Group, boolean>> {
  const out = new Map<Group, boolean>();
  for (const g of groups) {
    const found = (await ctx.index.find({ namespace: g.namespace, keyPrefix: g.key, exact: true })).filter((m) => m.key === g.key);
    if (found.length) out.set(g, found.some((m) => sameAuthor(m.author, ctx.settings.author)));
  }
  return out;
}

export async function reanchor(ctx: ReanchorDeps, options: { dryRun?: boolean } = {}): Promise<ReanchorResult> {
  const result: ReanchorResult = { moved: [], unmatched: [], missing: [], converged: 0, dryRun: Boolean(options.dryRun) };
  // The run the reference-transaction hook left due begins (this one, or any): a deletion from now on needs another.
  if (!options.dryRun) clearReanchorDue(ctx.repo);
  // Nothing moved since a run that wrote nothing: its answer holds (services/history/reanchor-memo.ts).
  const state = runState(ctx);
  const last = lastRun(ctx);
  const known = last && recallRun(ctx, last, state);
  if (known) return { ...result, ...known };
  // Only the refs moved since (a commit, a merge, a pull): the notes are as that run left them, converged. When it
  // found no orphan (it kept the tips) and the refs still reach what they reached then, or none of the notes'
  // commits is orphaned now, there is nothing to do, and no index to open. (When it found orphans, they most
  // likely still are: the run below places them anyway.)
  if (last?.notes === state.notes && last.tips !== undefined && (reachesAll(ctx.repo, last.tips) || noOrphans(ctx, state))) {
    if (!options.dryRun) rememberRun(ctx, state, result, () => true, true);
    return result;
  }
  const groups = groupDocuments(await ctx.index.documents());
  // First every copy of a memory gets its newest revision or forget, so that dropping orphaned copies below loses neither.
  // Only a memory on several objects has copies to disagree: most repositories have none, and the query costs tens of ms.
  if ([...groups.values()].some((g) => g.objects.size > 1)) {
    result.converged = options.dryRun ? (await ctx.index.divergentCopies()).length : await convergeCopies(ctx);
  }
  const placed = placeNoted(ctx.repo, [...new Set([...groups.values()].flatMap((g) => [...g.objects]))]);
  const reachOf = (o: string) => placed.get(o)?.reach ?? 'missing';
  // The commits this clone holds now: once gone, they were pruned here (stores/cache/held-log.ts).
  const heldLog = readHeld(ctx.repo);
  recordHeld(ctx.repo, [...placed.values()].filter((p) => p.reach !== 'missing' && p.reach !== 'not-a-commit').map((p) => p.object), heldLog);
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
    // Gone commits: pruned here (this clone held them) or never fetched (a teammate's)? Only the first are matched on recorded facts.
    const gone = homeless.filter((g) => [...g.objects].some((o) => reachOf(o) === 'missing'));
    const mine = await mineOf(ctx, gone);
    const held = heldHere(ctx, gone, heldLog, reachOf);
    const described = describeOrphans(ctx.repo, orphanObjects, placed, homeless, held);
    const orphans = new Map(described.map((d) => [d.orphan.object, d.orphan]));
    const candidates = findCandidates(ctx.repo, described);
    const targets = new Map<string, { target: string; via: MatchVia }>();
    for (const step of ['patch-id', 'message', 'files'] as const) {
      const open = orphanObjects.filter((o) => !targets.has(o));
      if (open.length === 0 || candidates.length === 0) break;
      for (const o of open) {
        const target = matchOrphan(orphans.get(o)!, candidates, step);
        if (target) targets.set(o, { target, via: step });
      }
    }
    const lacking: Group[] = [];
    for (const g of homeless) {
      const from = [...g.objects].sort();
      // Its newest orphaned commit that found a home decides.
      const match = from
        .map((o) => ({ o, t: targets.get(o), time: placed.get(o)?.time ?? 0 }))
        .filter((x) => x.t)
        .sort((a, b) => b.time - a.time || (a.o < b.o ? -1 : 1))[0]?.t;
      if (match) moves.push({ id: '', namespace: g.namespace, key: g.key, from, to: [match.target], via: match.via });
      else if (!g.memory) continue; // a tombstone with nowhere to go: nothing to tell
      else if (from.some((o) => reachOf(o) === 'unreachable')) result.unmatched.push(leftBehind(g, from));
      else lacking.push(g);
    }
    for (const g of lacking) {
      const m = mine.get(g);
      if (m !== undefined) result.missing.push({ ...leftBehind(g, [...g.objects].sort()), mine: m, pruned: [...g.objects].some((o) => held.has(o)) });
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
    // No notes written: the next run under the same refs and notes would find the same.
    if (result.moved.length === 0 && result.converged === 0) {
      rememberRun(ctx, state, result, (o) => reachOf(o) !== 'missing', homeless.length === 0 && moves.length === 0);
    }
  }
  return result;
}

export interface Stranded {
  /** Every copy on a commit that exists but nothing reaches: gc will prune it. */
  unreachable: LeftBehind[];
  /** Every copy on a commit this clone lacks: `pruned` when it held it (or `mine`), else maybe never fetched. */
  missing: MissingLeft[];
}

/**
 * The memories stranded now (for doctor): every copy on an orphaned or gone
 * commit. Read from the notes, not the index (doctor refreshes nothing):
 * one `ls-tree` a namespace, placement of the commits holding notes, and
 * the notes' texts only where some commit is orphaned or gone.
 */
export function strandedMemories(ctx: Pick<Deps, 'notes' | 'repo' | 'settings'>): Stranded {
  const out: Stranded = { unreachable: [], missing: [] };
  const byNs = [...ctx.notes.tips()].map(([ns, tip]) => ({ ns, notes: ctx.notes.listNotes(tip) }));
  const placed = placeNoted(ctx.repo, [...new Set(byNs.flatMap((n) => n.notes.map((x) => x.object)))]);
  const reachOf = (o: string) => placed.get(o)?.reach ?? 'missing';
  const held = readHeld(ctx.repo);
  const seen = commitsSeen(ctx.repo);
  for (const { ns, notes } of byNs) {
    const bad = notes.filter((n) => isOrphan(reachOf(n.object)));
    if (bad.length === 0) continue;
    const texts = ctx.notes.readTexts(notes.map((n) => n.blob));
    const docs = new Map<string, { objects: Set<string>; revisions: KeyedDoc[] }>();
    for (const n of bad) {
      for (const d of parseNote(texts.get(n.blob) ?? '', ns, n.object).docs) {
        if (d.kind === 'other') continue;
        const k = keyOf(d);
        if (!docs.has(k)) docs.set(k, { objects: new Set(), revisions: [] });
        docs.get(k)!.objects.add(n.object);
        docs.get(k)!.revisions.push(d);
      }
    }
    // A memory with a copy on a live commit is not stranded (reanchor drops the orphaned copies); a forgotten one neither.
    for (const n of notes) {
      if (isOrphan(reachOf(n.object))) continue;
      const text = texts.get(n.blob) ?? '';
      const keys = [...docs.keys()].filter((k) => text.includes(k));
      if (keys.length === 0) continue;
      for (const d of parseNote(text, ns, n.object).docs) if (d.kind !== 'other' && keys.includes(keyOf(d))) docs.delete(keyOf(d));
    }
    for (const [key, { objects, revisions }] of docs) {
      const newest = winner(revisions);
      if (newest.kind !== 'memory') continue;
      const sorted = [...objects].sort();
      const left: LeftBehind = { id: formatId({ namespace: ns, object: sorted[0]!, key }), namespace: ns, key, objects: sorted };
      if (sorted.some((o) => reachOf(o) === 'unreachable')) out.unreachable.push(left);
      else out.missing.push({ ...left, mine: sameAuthor(newest.memory.author, ctx.settings.author), pruned: sorted.some((o) => held.has(o) || seen.has(o)) });
    }
  }
  return out;
}

export interface ManualMoveResult {
  /** The commit the memories were moved onto. */
  target: string;
  moved: ReanchorMove[];
  /** Memories already on that commit alone: nothing to do. */
  already: string[];
  dryRun: boolean;
}

/**
 * Moves memories by hand (`reanchor <id>… --to <rev>`, `edit <id> --commit
 * <rev>`): every copy of each memory (or its tombstone) leaves its commit,
 * and the target gets the newest revision found among them, kept as it is.
 * One notes commit per namespace. For memories nothing can match any more:
 * their commit gone, the change landed in a commit git-mem cannot tell.
 */
export async function moveMemories(ctx: ReanchorDeps & MemoriesDeps, ids: readonly string[], rev: string, options: { dryRun?: boolean } = {}): Promise<ManualMoveResult> {
  if (ids.length === 0) throw new UsageError('give the ids of the memories to move');
  const target = resolveCommit(ctx.repo, rev);
  if (!target) throw new NotFoundError(`no such commit: ${rev}`, 'give a commit of this repository (a branch, a tag, an id)');
  const result: ManualMoveResult = { target, moved: [], already: [], dryRun: Boolean(options.dryRun) };
  const seen = new Set<string>();
  for (const idText of ids) {
    const m = await findMemory(ctx, idText);
    const id = `${m.namespace}:${m.key}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const copies = await ctx.index.copiesOf(m.namespace, m.key);
    const from = [...new Set(copies.length ? copies : [m.object])].filter((o) => o !== target).sort();
    if (from.length === 0) {
      result.already.push(formatId({ namespace: m.namespace, object: target, key: m.key }));
      continue;
    }
    result.moved.push({ id: formatId({ namespace: m.namespace, object: target, key: m.key }), namespace: m.namespace, key: m.key, from, to: [target], via: 'manual' });
  }
  if (!options.dryRun) {
    const skipped = new Set<ReanchorMove>();
    for (const ns of new Set(result.moved.map((m) => m.namespace))) for (const m of applyMoves(ctx, ns, result.moved.filter((x) => x.namespace === ns))) skipped.add(m);
    if (skipped.size) {
      const first = [...skipped][0]!;
      throw new UsageError(`the ${first.namespace} note on ${target.slice(0, 7)} holds binary content; git-mem will not rewrite it`, 'move the memory to another commit');
    }
  }
  return result;
}

function leftBehind(g: Group, objects: string[]): LeftBehind {
  return { id: formatId({ namespace: g.namespace, object: objects[0]!, key: g.key }), namespace: g.namespace, key: g.key, objects };
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
    // Each move recorded in the message (core/history/moves.ts): where the memory came from, and how it was matched.
    const recorded = formatMoves(moves.filter((m) => !skipped.includes(m)).map((m) => ({ key: m.key, from: m.from, to: m.to, via: m.via })));
    const subject = `reanchor ${moves.length} ${moves.length === 1 ? 'memory' : 'memories'}`;
    return { changes, message: recorded.length ? `${subject}\n\n${recorded.join('\n')}` : subject };
  });
  return skipped;
}

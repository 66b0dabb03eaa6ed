/**
 * Where memories came from: the moves reanchoring recorded in its notes
 * commits (core/history/moves.ts), for the memories a view shows. A memory
 * counts as moved when the newest recorded move of it ended on the commit it
 * sits on now: amended, rebased, squash-merged or moved by hand.
 */
import { type MoveVia, parseMoves } from '../../core/history/moves.ts';
import type { Memory } from '../../core/memory.ts';
import { reanchorCommits } from '../../stores/git/note-log.ts';
import type { Deps } from '../deps.ts';

export type MovesDeps = Pick<Deps, 'repo' | 'notes'>;

/** The reanchor runs read, newest first: older moves are not told (the memories are where they are either way). */
const RUNS_MAX = 500;

export interface Moved {
  /** The commits it left. */
  from: string[];
  via: MoveVia;
  /** The notes commit that moved it, and when (s). */
  notesCommit: string;
  time: number;
}

/** Per repository and notes tips: the newest move of each `namespace:key`. */
const cache = new WeakMap<object, { tips: string; moves: Map<string, Moved & { to: string[] }> }>();

function allMoves(ctx: MovesDeps): Map<string, Moved & { to: string[] }> {
  const tips = ctx.notes.tips();
  const digest = [...tips].sort().join(' ');
  const cached = cache.get(ctx.repo);
  if (cached?.tips === digest) return cached.moves;
  const moves = new Map<string, Moved & { to: string[] }>();
  for (const [ns, tip] of tips) {
    for (const c of reanchorCommits(ctx.repo, [tip], RUNS_MAX)) {
      for (const m of parseMoves(c.message)) {
        const k = `${ns}:${m.key}`;
        // Newest first: the first record of a key is its last move.
        if (!moves.has(k)) moves.set(k, { from: m.from, to: m.to, via: m.via, notesCommit: c.commit, time: c.time });
      }
    }
  }
  cache.set(ctx.repo, { tips: digest, moves });
  return moves;
}

/** `namespace:key` → how each of these memories came onto its commit, for those that were moved there. */
export function movesOf(ctx: MovesDeps, memories: readonly Memory[]): Map<string, Moved> {
  const out = new Map<string, Moved>();
  if (!memories.length) return out;
  const moves = allMoves(ctx);
  for (const m of memories) {
    const k = `${m.namespace}:${m.key}`;
    const move = moves.get(k);
    if (move?.to.includes(m.object)) out.set(k, { from: move.from.filter((o) => o !== m.object), via: move.via, notesCommit: move.notesCommit, time: move.time });
  }
  return out;
}

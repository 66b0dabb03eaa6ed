/**
 * The record of a move: reanchoring writes one line per memory it moves into
 * the message of its notes commit (`git-mem-move: <key> <from>[,<from>] ->
 * <to>[,<to>] <via>`), so the notes history says where a memory came from and
 * how it was matched (the timeline of `git mem ui` reads it back). Pure.
 */

/** How a move's target was found: another live copy, a match of the orphan's commit, or by hand. */
export type MoveVia = 'copy' | 'manual' | 'patch-id' | 'message' | 'files';

export interface MoveRecord {
  key: string;
  from: string[];
  to: string[];
  via: MoveVia;
}

const PREFIX = 'git-mem-move:';
/** A notes commit's message records at most this many moves; a larger run records the first ones (the notes themselves are complete). */
export const MOVE_LINES_MAX = 2000;
const VIAS: readonly string[] = ['copy', 'manual', 'patch-id', 'message', 'files'];
const OID = /^[0-9a-f]{40,64}$/;

/** The lines recording these moves (at most MOVE_LINES_MAX). */
export function formatMoves(moves: readonly MoveRecord[]): string[] {
  return moves.slice(0, MOVE_LINES_MAX).map((m) => `${PREFIX} ${m.key} ${m.from.join(',')} -> ${m.to.join(',')} ${m.via}`);
}

/** The moves a notes commit's message records; lines that are not such a record are ignored. */
export function parseMoves(message: string): MoveRecord[] {
  const out: MoveRecord[] = [];
  for (const line of message.split('\n')) {
    if (!line.startsWith(PREFIX)) continue;
    const [key = '', from = '', arrow = '', to = '', via = ''] = line.slice(PREFIX.length).trim().split(/\s+/);
    const froms = from.split(',').filter(Boolean);
    const tos = to.split(',').filter(Boolean);
    if (!key || arrow !== '->' || !VIAS.includes(via) || !froms.length || !tos.length || ![...froms, ...tos].every((o) => OID.test(o))) continue;
    out.push({ key, from: froms, to: tos, via: via as MoveVia });
  }
  return out;
}

/** How a move happened, in a reader's words. */
export function describeVia(via: MoveVia): string {
  switch (via) {
    case 'message':
      return 'squash merge: its message names the commit';
    case 'patch-id':
      return 'the same patch: a rebase, cherry-pick or squash of one commit';
    case 'files':
      return 'a squash or rewrite, matched by its files';
    case 'copy':
      return 'a rewritten commit: git copied its note';
    case 'manual':
      return 'moved by hand';
  }
}

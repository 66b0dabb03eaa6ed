/**
 * Which commits holding memories this clone has held. Once such a commit is
 * gone, it was pruned here (gc after a branch was deleted), not merely never
 * fetched: its memories may then be matched on what they recorded of it at
 * capture (services/history/reanchor.ts). git keeps no trace of a pruned commit, and
 * a memory's author says nothing about which clone it was captured in (the
 * same user has several), so this clone keeps the list: an append-only log
 * of object ids in `<git common dir>/mem/held.log`, written at capture and by
 * reanchor runs that see the commits. Losing it loses no memory: a gone
 * commit is then only matched by a message naming it, and can be moved by
 * hand (`git mem reanchor <id> --to <rev>`).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Repo } from '../git/repo.ts';

function file(repo: Repo): string {
  return repo.mem.file('held');
}

/** The commits this clone is known to have held. */
export function readHeld(repo: Repo): Set<string> {
  try {
    return new Set(fs.readFileSync(file(repo), 'utf8').split('\n').filter((l) => /^[0-9a-f]{40,64}$/.test(l)));
  } catch {
    return new Set(); // None yet, or unreadable.
  }
}

/** Adds commits (that exist here now) to the log; `known` (what readHeld returned) spares writing what is there, so each appears about once. */
export function recordHeld(repo: Repo, objects: Iterable<string>, known?: ReadonlySet<string>): void {
  const fresh = [...new Set(objects)].filter((o) => /^[0-9a-f]{40,64}$/.test(o) && !known?.has(o));
  if (fresh.length === 0) return;
  try {
    if (!repo.mem.writable()) return;
    const f = file(repo);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    // Lines of whole ids, appended: concurrent writers interleave whole lines (O_APPEND), and readers skip a torn one.
    fs.appendFileSync(f, fresh.map((o) => `${o}\n`).join(''));
  } catch {
    // Only matching after a prune is lost.
  }
}

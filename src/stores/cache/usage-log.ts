/**
 * Recall usage, local to this clone: how often each memory was shown by a
 * recall (the command, MCP, the hooks' injected context) or hydrated. It is a
 * cache like the index, never in the notes: a read must not write a note.
 *
 * An append-only file (`mem/usage.log`), one `<namespace>:<key> <count>` line
 * per use; appends of one short line are atomic between processes (O_APPEND),
 * so hooks running in parallel need no lock. Reading sums the lines; gc folds
 * them into one line per memory (temp file + rename). A use appended while the
 * file is folded may be missed: counts only keep a memory from aging, and a
 * memory that is really in use is counted again.
 */
import fs from 'node:fs';
import { writeFileAtomic } from '../../io/atomic-write.ts';

/** Appends one use of each memory (`<namespace>:<key>`). Never throws: counting is not worth failing a recall. */
export function recordUses(file: string, refs: readonly string[]): void {
  if (!refs.length) return;
  try {
    fs.appendFileSync(file, refs.map((r) => `${r} 1\n`).join(''));
  } catch {
    // No mem/ directory yet, or read-only: uncounted.
  }
}

/** Uses per memory; an unreadable or missing file counts none. Malformed lines are skipped. */
export function readUses(file: string): Map<string, number> {
  const uses = new Map<string, number>();
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return uses;
  }
  for (const line of text.split('\n')) {
    const space = line.lastIndexOf(' ');
    const n = Number(line.slice(space + 1));
    if (space <= 0 || !Number.isInteger(n) || n < 1) continue;
    const ref = line.slice(0, space);
    uses.set(ref, (uses.get(ref) ?? 0) + n);
  }
  return uses;
}

/** Rewrites the file as one line per memory, keeping only the memories in `keep` (the others are gone). */
export function foldUses(file: string, uses: ReadonlyMap<string, number>, keep: (ref: string) => boolean): void {
  const lines = [...uses].filter(([ref]) => keep(ref)).map(([ref, n]) => `${ref} ${n}\n`);
  try {
    writeFileAtomic(file, lines.join(''));
  } catch {
    // Folded next time.
  }
}

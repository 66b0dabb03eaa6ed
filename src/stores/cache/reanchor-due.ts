/**
 * The background reanchor that git-mem's reference-transaction hook started
 * and that has not begun yet. The hook (shell builtins alone) writes the
 * run's pid to `<git common dir>/mem/reanchor-due` and starts no other while
 * that process lives and the file is there: a `git branch -D` commits two
 * transactions, a `git fetch --prune` one per ref, and one run a second
 * later covers them all. A run removes the file before it reads the refs,
 * so a deletion after that starts a new one. A file left behind (its run
 * killed before it began) names a process that is gone: the next deletion
 * starts a run again.
 */
import fs from 'node:fs';
import type { Repo } from '../git/repo.ts';

/** A run begins: from now on a deletion needs a run of its own. */
export function clearReanchorDue(repo: Repo): void {
  try {
    fs.rmSync(repo.mem.hookFile('reanchorDue'), { force: true });
  } catch {
    // Not removable (a read-only folder): the hook could not have written it either.
  }
}

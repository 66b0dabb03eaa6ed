/** `git mem index`: bring the index up to date now (or rebuild it from the notes) and say what it holds. */
import { GitMemError } from '../core/errors.ts';
import { tracePhase } from '../io/trace.ts';
import { lockFileFor } from '../stores/cache/lock.ts';
import { placementsOf } from './history/anchors.ts';
import { commitFiles, knownCommits } from './history/file-history.ts';
import type { Deps } from './deps.ts';

/** What this file's services use. */
export type ReindexDeps = Pick<Deps, 'index' | 'indexFile' | 'repo'>;

export interface IndexReport {
  file: string;
  rebuilt: boolean;
  /** Whether anything was read from the notes (false: it was already up to date). */
  updated: boolean;
  /** Current memories, in all and per namespace. */
  memories: number;
  namespaces: Record<string, number>;
  /** Stored revisions (a memory can have older revisions from merges or rebases) and tombstones. */
  revisions: number;
  tombstones: number;
}

/**
 * Writing the index is this command's whole point: it fails, in one line,
 * when the index cannot be written (before reading any note when the cache
 * folder is the reason), rather than report an index it kept in memory.
 */
export async function refreshIndex(ctx: ReindexDeps, options: { rebuild?: boolean; progress?: (done: number, total: number) => void } = {}): Promise<IndexReport> {
  const problem = ctx.repo.mem.problem();
  if (problem) throw new GitMemError(`the index cannot be written: ${problem.message}`, `fix: ${problem.fix}`);
  const stats = await ctx.index.refresh({ rebuild: options.rebuild, progress: options.progress });
  if (!stats.written) throw new GitMemError(`the index was not written: another process held ${lockFileFor(ctx.indexFile)} for 5 s`, 'try again; git mem doctor reports a lock left by a process that is gone');
  // What the memories' commits changed, for the hooks' file context (services/history/file-history.ts): paid here, not by the first hook.
  commitFiles(ctx.repo, await ctx.index.current());
  tracePhase('commit files');
  // Where each of those commits stands (services/history/anchors.ts): one walk of the history for
  // all, carried to each new commit, where a new question would walk it for the first commit it asks about.
  placementsOf(ctx.repo, knownCommits(ctx.repo).keys());
  tracePhase('commits placed');
  return {
    file: ctx.indexFile,
    rebuilt: Boolean(options.rebuild),
    updated: stats.updated,
    memories: stats.memories,
    namespaces: Object.fromEntries([...stats.namespaces].sort(([a], [b]) => (a < b ? -1 : 1))),
    revisions: stats.revisions,
    tombstones: stats.tombstones,
  };
}

/** `git mem index`: bring the index up to date now (or rebuild it from the notes) and say what it holds. */
import type { Deps } from './deps.ts';

/** What this file's services use. */
export type ReindexDeps = Pick<Deps, 'index' | 'indexFile'>;

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

export async function refreshIndex(ctx: ReindexDeps, options: { rebuild?: boolean; progress?: (done: number, total: number) => void } = {}): Promise<IndexReport> {
  const stats = await ctx.index.refresh({ rebuild: options.rebuild, progress: options.progress });
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

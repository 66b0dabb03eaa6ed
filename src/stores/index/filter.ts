/**
 * What a listing or a search keeps: one filter, described once here and
 * compiled once per query into the form both caches test (the term index's
 * per-document arrays, the SQLite index's SQL), so they cannot drift apart.
 */
import type { Status } from '../../core/memory.ts';

export interface ListFilter {
  namespaces?: string[];
  /** Attached to one of these objects (full ids). */
  objects?: string[];
  statuses?: Status[];
  since?: string;
  until?: string;
  limit?: number;
}

export interface SearchFilter extends ListFilter {
  /** Memories carrying every one of these tags. */
  tags?: string[];
  spec?: string;
}

/** A filter as the caches test it: absent conditions are null (or an open bound), times are ms, the limit a whole number or Infinity. */
export interface CompiledFilter {
  namespaces: readonly string[] | null;
  statuses: readonly Status[] | null;
  /** Attached to one of these objects (any copy of the memory counts). */
  objects: ReadonlySet<string> | null;
  sinceMs: number;
  untilMs: number;
  /** Every one of these tags. */
  tags: readonly string[];
  spec: string | null;
  limit: number;
}

export function compileFilter(filter: SearchFilter = {}): CompiledFilter {
  const some = <T>(list: readonly T[] | undefined) => (list?.length ? list : null);
  return {
    namespaces: some(filter.namespaces),
    statuses: some(filter.statuses),
    objects: filter.objects?.length ? new Set(filter.objects) : null,
    sinceMs: filter.since ? Date.parse(filter.since) : -Infinity,
    untilMs: filter.until ? Date.parse(filter.until) : Infinity,
    tags: filter.tags ?? [],
    spec: filter.spec || null,
    limit: filter.limit && filter.limit > 0 ? Math.floor(filter.limit) : Infinity,
  };
}

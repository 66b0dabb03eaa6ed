/** What a listing or a search keeps: the one filter both indexes (SQLite and the term index) apply. */
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

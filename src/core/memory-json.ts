/**
 * The JSON shape of a memory: what --json prints and export writes (and
 * import reads back). Versioned; pure.
 */
import { formatId, type Memory } from './memory.ts';

/** Version of the JSON shape printed by --json; bump on breaking changes. */
export const JSON_VERSION = 1;

export interface MemoryJson {
  id: string;
  key: string;
  namespace: string;
  commit: string;
  summary: string;
  body: string;
  created: string;
  updated: string;
  tags: string[];
  status: string;
  spec: string | null;
  phase: string | null;
  relates_to: string[];
  author: string | null;
  source: string | null;
  confidence: number | null;
  /** Files its commit changed, recorded at capture. */
  paths: string[];
  /** The subject and patch-id of the commit it was captured on, recorded then (reanchoring matches on them once it is gone). */
  commit_subject: string | null;
  patch_id: string | null;
  /** Lifecycle links (docs/lifecycle.md), as stored: `<namespace>:<key>`. */
  consolidates: string[];
  consolidated_into: string | null;
  supersedes: string[];
  superseded_by: string | null;
  reprieves: number;
}

export function memoryJson(m: Memory): MemoryJson {
  return {
    id: formatId(m),
    key: m.key,
    namespace: m.namespace,
    commit: m.object,
    summary: m.summary,
    body: m.body,
    created: m.created,
    updated: m.updated,
    tags: m.tags,
    status: m.status,
    spec: m.spec ?? null,
    phase: m.phase ?? null,
    relates_to: m.relatesTo,
    author: m.author ?? null,
    source: m.source ?? null,
    confidence: m.confidence ?? null,
    paths: m.paths ?? [],
    commit_subject: m.commitSubject ?? null,
    patch_id: m.patchId ?? null,
    consolidates: m.consolidates ?? [],
    consolidated_into: m.consolidatedInto ?? null,
    supersedes: m.supersedes ?? [],
    superseded_by: m.supersededBy ?? null,
    reprieves: m.reprieves ?? 0,
  };
}

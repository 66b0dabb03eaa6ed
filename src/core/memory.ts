/** The Memory model: what one document in a note means. */
export const STATUSES = ['active', 'resolved', 'archived'] as const;
export type Status = (typeof STATUSES)[number];

export const SUMMARY_MAX = 100;
export const BODY_MAX = 100 * 1024;
/** Length of a generated key (hex); ids show a prefix of it. */
export const KEY_LENGTH = 16;
const SHORT_OBJECT = 7;
const SHORT_KEY = 10;

export interface Memory {
  key: string;
  namespace: string;
  /** The object (usually a commit) the note is attached to. */
  object: string;
  summary: string;
  body: string;
  /** UTC ISO-8601. */
  created: string;
  updated: string;
  tags: string[];
  status: Status;
  spec?: string;
  phase?: string;
  relatesTo: string[];
  author?: string;
  /** Provenance of automatic captures: e.g. `hook:UserPromptSubmit`. */
  source?: string;
  confidence?: number;
  /** Files the commit changed, recorded at capture: the memory stays tied to them if the commit is rewritten away. */
  paths?: string[];
  /** Lifecycle links (core/links.ts linkRef): the memories this one consolidated, and the one that consolidated it. */
  consolidates?: string[];
  consolidatedInto?: string;
  /** The older memories this one replaces, and the newer one that replaced it. */
  supersedes?: string[];
  supersededBy?: string;
  /** How many times `git mem gc` found it old and isolated but substantial (kept for good at GC_REPRIEVES_MAX). */
  reprieves?: number;
  /** Front-matter fields git-mem does not know (another tool's, a newer version's): written back untouched. */
  extra?: Record<string, unknown>;
}

/** At most this many changed paths are recorded with a memory. */
export const PATHS_MAX = 50;

/** What `forget` leaves behind, so a merge with a clone that still has the memory does not bring it back. */
export interface Tombstone {
  key: string;
  namespace: string;
  object: string;
  /** When it was forgotten; compared with memory revisions like `updated`. */
  updated: string;
}

export function isStatus(value: unknown): value is Status {
  return typeof value === 'string' && (STATUSES as readonly string[]).includes(value);
}

/** `<namespace>:<short object>:<short key>`, the form users see and type. */
export function formatId(m: { namespace: string; object: string; key: string }): string {
  return `${m.namespace}:${m.object.slice(0, SHORT_OBJECT)}:${m.key.slice(0, SHORT_KEY)}`;
}

export interface IdQuery {
  namespace?: string;
  objectPrefix?: string;
  keyPrefix: string;
}

/** Accepts `ns:object:key`, `ns:key` or a bare key, each with any prefix of the key (4+ hex chars). */
export function parseIdQuery(text: string): IdQuery | null {
  const parts = text.trim().split(':');
  const key = parts[parts.length - 1]?.toLowerCase() ?? '';
  if (!/^[0-9a-f]{4,}$/.test(key) || parts.length > 3) return null;
  if (parts.length === 1) return { keyPrefix: key };
  const namespace = parts[0];
  if (!namespace) return null;
  if (parts.length === 2) return { namespace, keyPrefix: key };
  const objectPrefix = parts[1]?.toLowerCase() ?? '';
  if (!/^[0-9a-f]{4,}$/.test(objectPrefix)) return null;
  return { namespace, objectPrefix, keyPrefix: key };
}

/** A revision's time in ms; one without a readable time is older than any other. */
export function revisionTime(iso: string): number {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? -Infinity : t;
}

/** Newer revision wins: later `updated`, then the larger tie-break string (content hash), so every clone picks the same. */
export function compareRevisions(a: { updated: string; tiebreak: string }, b: { updated: string; tiebreak: string }): number {
  const ta = revisionTime(a.updated);
  const tb = revisionTime(b.updated);
  if (ta !== tb) return ta < tb ? -1 : 1;
  return a.tiebreak < b.tiebreak ? -1 : a.tiebreak > b.tiebreak ? 1 : 0;
}

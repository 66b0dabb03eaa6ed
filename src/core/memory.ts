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
  /**
   * Facts of the commit it was captured on, recorded then because git loses
   * them with the commit: its subject and patch-id. Reanchoring matches on
   * them once that commit is gone from a clone that held it (docs/anchors.md).
   */
  commitSubject?: string;
  patchId?: string;
  /** Lifecycle links (core/lifecycle/links.ts linkRef): the memories this one consolidated, and the one that consolidated it. */
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

/** Keys git-mem makes (random or derived): hex, found by any prefix of 4+ digits, git-style. */
const HEX_KEY = /^[0-9a-f]+$/;

/** `<namespace>:<short object>:<short key>`, the form users see and type (a hand-written key whole: idKey). */
export function formatId(m: { namespace: string; object: string; key: string }): string {
  const key = HEX_KEY.test(m.key) ? m.key.slice(0, SHORT_KEY) : idKey(m.key);
  return `${m.namespace}:${m.object.slice(0, SHORT_OBJECT)}:${key}`;
}

const UTF8 = new TextEncoder();

/**
 * A key as ids write it. A hand-written note's own `id` (`ADR-0001`, `use postgres`)
 * is its key, and may hold any text: it is written whole, and what is not
 * [a-z0-9._-] is percent-encoded (UTF-8), so the id stays one shell word with
 * its parts split at `:`. Hex keys are written as they are.
 */
export function idKey(key: string): string {
  if (HEX_KEY.test(key)) return key;
  let out = '';
  for (const c of key) out += /[a-z0-9._-]/.test(c) ? c : [...UTF8.encode(c)].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return out;
}

/** The key an id names, its percent-escapes decoded (a key typed with other characters is taken as typed). */
function keyOfId(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

export interface IdQuery {
  namespace?: string;
  objectPrefix?: string;
  keyPrefix: string;
  /** The whole key, not a prefix: a key that is not hex (a hand-written id). */
  exact?: boolean;
}

/** What ids look like, for messages that refuse one. */
export const ID_FORMS = '<namespace>:<commit>:<key>, a key prefix of 4+ hex digits, or <namespace>:<key> for a hand-written id';

/**
 * Accepts `ns:object:key`, `ns:key` or a bare key. A hex key is matched by any
 * prefix of 4+ digits; any other key (a hand-written id, as formatId writes
 * it or as written) only whole, and only with its namespace, so that a bare
 * word stays a malformed id rather than a search.
 */
export function parseIdQuery(text: string): IdQuery | null {
  const parts = text.trim().split(':');
  if (parts.length > 3) return null;
  const namespace = parts.length > 1 ? parts[0] : undefined;
  if (namespace === '') return null;
  const objectPrefix = parts.length === 3 ? parts[1]!.toLowerCase() : undefined;
  if (objectPrefix !== undefined && !/^[0-9a-f]{4,}$/.test(objectPrefix)) return null;
  const where = { ...(namespace ? { namespace } : {}), ...(objectPrefix ? { objectPrefix } : {}) };
  const key = parts[parts.length - 1]!.toLowerCase();
  if (/^[0-9a-f]{4,}$/.test(key)) return { ...where, keyPrefix: key };
  if (!namespace || !key || /[\u0000-\u001f\u007f]/.test(key)) return null;
  return { ...where, keyPrefix: keyOfId(key), exact: true };
}

/** Whether a query names this key. */
export function matchesKey(query: IdQuery, key: string): boolean {
  return query.exact ? key === query.keyPrefix : key.startsWith(query.keyPrefix);
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

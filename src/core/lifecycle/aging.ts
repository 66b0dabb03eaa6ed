/**
 * Aging, pure: which old memories `git mem gc` archives. Only a memory that is
 * old, active, unprotected and isolated (no link either way, never part of a
 * consolidation) is judged; one without substance is archived, one with it is
 * reprieved, and after GC_REPRIEVES_MAX reprieves it is kept for good.
 */
import { carriesRationale } from './consolidation.ts';
import type { Memory } from '../memory.ts';

/** After this many reprieves a memory is never judged again. */
export const GC_REPRIEVES_MAX = 3;
/** A memory whose summary and body together are shorter than this says too little to stand alone. */
export const SHORT_CHARS = 120;
/** Shown by this many recalls (or hydrated as often), a memory is in use: it counts as connected. */
export const RECALLED_MIN = 3;
/** The tag that keeps a memory out of aging. */
export const KEEP_TAG = 'keep';

/** A code identifier (snake_case, camelCase, a call, a backquoted name) or a path (`src/x.ts`, `a/b/c`, `*.json`). */
const IDENTIFIER = /`[^`\n]+`|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\b[a-z]+[A-Z][A-Za-z0-9]*\b|\b\w+\(\)|(?:^|[\s(])[\w.-]*\/[\w.-]+|\b[\w-]+\.(?:ts|js|tsx|jsx|py|go|rs|java|rb|c|h|cpp|md|json|ya?ml|toml|sql|sh)\b/;
const LINK = /\bhttps?:\/\/\S+|\b(?:[a-z][a-z0-9-]*:)?[0-9a-f]{7,}:[0-9a-f]{4,}\b/i;

/** The deterministic substance check: long enough, or giving a reason, naming code or a path, or linking elsewhere. */
export function hasSubstance(m: Pick<Memory, 'summary' | 'body'>): boolean {
  const text = `${m.summary}\n${m.body}`;
  return text.trim().length >= SHORT_CHARS || carriesRationale(text) || IDENTIFIER.test(text) || LINK.test(text);
}

export type AgingVerdict =
  | 'protected-namespace'
  | 'kept-tag'
  | 'not-active'
  | 'young'
  | 'kept-for-good'
  | 'connected'
  | 'recalled'
  /** Judged: */
  | 'reprieve'
  | 'archive';

export interface AgingRules {
  /** Created before this time (ms) is old. */
  cutoffMs: number;
  protectedNamespaces: ReadonlySet<string>;
}

/**
 * What gc does with one memory before any judge: a verdict, or 'judge' when it
 * must be judged for substance. `uses`: how often recalls showed it (this clone's count).
 */
export function agingVerdict(m: Memory, connected: boolean, rules: AgingRules, uses = 0): Exclude<AgingVerdict, 'reprieve' | 'archive'> | 'judge' {
  if (rules.protectedNamespaces.has(m.namespace)) return 'protected-namespace';
  if (m.tags.some((t) => t.toLowerCase() === KEEP_TAG)) return 'kept-tag';
  if (m.status !== 'active') return 'not-active';
  const created = Date.parse(m.created);
  if (Number.isNaN(created) || created >= rules.cutoffMs) return 'young';
  if ((m.reprieves ?? 0) >= GC_REPRIEVES_MAX) return 'kept-for-good';
  if (connected || m.relatesTo.length || m.consolidates?.length || m.consolidatedInto || m.supersedes?.length || m.supersededBy) return 'connected';
  if (uses >= RECALLED_MIN) return 'recalled';
  return 'judge';
}

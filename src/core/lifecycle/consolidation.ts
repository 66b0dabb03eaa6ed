/**
 * Extractive consolidation, pure and deterministic: a group of connected
 * memories becomes one. The summary is the central memory's (the hub the
 * others are connected to); the body keeps each original's summary and the
 * lines that carry its rationale; the tags are the union. The new memory's key
 * is derived from the originals' keys, so two clones that consolidate the same
 * group write the same memory, and their merge holds one.
 */
import { sha1Hex } from '../hash.ts';
import { linkRef } from './links.ts';
import { KEY_LENGTH, type Memory, PATHS_MAX } from '../memory.ts';

/** Lines that say why: the part of a memory worth keeping when its words are merged into another. */
const RATIONALE = /\b(?:because|so that|instead of|rather than|in order to|to avoid|due to|since|otherwise|trade-?off|the reason)\b/i;

export function carriesRationale(text: string): boolean {
  return RATIONALE.test(text);
}

/** The key of the memory that consolidates these: the same for the same originals, on every clone. */
export function consolidationKey(originals: ReadonlyArray<Pick<Memory, 'namespace' | 'key'>>): string {
  const keys = originals.map(linkRef).sort();
  return sha1Hex(`consolidate\0${keys.join('\0')}`).slice(0, KEY_LENGTH);
}

/** Oldest first, then by key: the order every clone agrees on. */
function byAge(a: Memory, b: Memory): number {
  return a.created < b.created ? -1 : a.created > b.created ? 1 : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

/** The rationale lines of a body, each once, as written (list markers and surrounding space removed). */
export function rationaleLines(body: string): string[] {
  const out: string[] = [];
  for (const raw of body.split('\n')) {
    const line = raw.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '').trim();
    if (line && carriesRationale(line) && !out.includes(line)) out.push(line);
  }
  return out;
}

export interface ConsolidatedDraft {
  key: string;
  summary: string;
  body: string;
  tags: string[];
  /** The central memory: the consolidated one takes its summary and is attached to its commit. */
  central: Memory;
  /** linkRef of each original, oldest first. */
  consolidates: string[];
  paths: string[];
}

/** `central`: the member the others are connected to (core/lifecycle/connections.ts hubGroups' hub); the group takes its summary and commit. */
export function consolidateExtractive(group: readonly Memory[], central: Memory): ConsolidatedDraft {
  const sorted = [...group].sort(byAge);
  const lines = [`Consolidated from ${sorted.length} memories.`, ''];
  for (const m of sorted) {
    lines.push(`- ${m.summary}`);
    for (const r of rationaleLines(m.body)) if (r !== m.summary) lines.push(`  - ${r}`);
  }
  const tags = [...new Set(sorted.flatMap((m) => m.tags))];
  const paths = [...new Set(sorted.flatMap((m) => m.paths ?? []))].slice(0, PATHS_MAX);
  return { key: consolidationKey(sorted), summary: central.summary, body: lines.join('\n'), tags, central, consolidates: sorted.map(linkRef), paths };
}

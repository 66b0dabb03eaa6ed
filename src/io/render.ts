/** Shared renderers: one line per memory for humans, a stable DTO for --json. */
import type { ChalkInstance } from 'chalk';
import { formatId, type Memory } from '../core/memory.ts';
import { type Reach, reachLabel } from '../core/anchor.ts';
import { describeStale, type Stale } from '../core/staleness.ts';
import { visible } from '../core/terminal-text.ts';
import { formatAge } from '../core/time.ts';

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
  };
}

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** What is known of where a memory stands, beside the memory itself. */
export interface MemoryFacts {
  stale?: Stale | null;
  reach?: Reach;
}

export function memoryLine(m: Memory, now: Date, c: ChalkInstance, facts: MemoryFacts = {}): string {
  const status = m.status === 'active' ? '' : ` ${c.magenta(`[${m.status}]`)}`;
  const where = facts.reach && reachLabel(facts.reach) ? ` ${c.magenta(`[${reachLabel(facts.reach)}]`)}` : '';
  const changed = facts.stale ? ` ${c.red(`[stale: ${describeStale(facts.stale)}]`)}` : '';
  return `${c.yellow(visible(formatId(m)))}  ${c.cyan(visible(m.namespace))}  ${c.dim(formatAge(m.created, now).padStart(3))}  ${visible(m.summary)}${status}${where}${changed}`;
}

/** The `stale` field of --json output: null when the memory's files are as its commit left them (or it has none). */
export function staleJson(stale: Stale | null | undefined): Stale | null {
  return stale ?? null;
}

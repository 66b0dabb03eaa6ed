/** Shared renderers: one line per memory for humans, a stable DTO for --json. */
import type { ChalkInstance } from 'chalk';
import { formatId, type Memory } from '../core/memory.ts';
import { type Reach, reachLabel } from '../core/history/anchor.ts';
import { describeStale, type Stale } from '../core/history/staleness.ts';
import type { Provenance } from '../core/trust.ts';
import type { TrustView } from '../services/trust/trust.ts';
import { visible } from '../core/terminal-text.ts';
import { formatAge } from '../core/time.ts';

export { JSON_VERSION, type MemoryJson, memoryJson } from '../core/memory-json.ts';

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2);
}

/** What is known of where a memory stands, beside the memory itself. */
export interface MemoryFacts {
  stale?: Stale | null;
  reach?: Reach;
  /** Its provenance and whether the trust policy lets agents see it (services/trust/trust.ts). */
  trust?: TrustView;
}

/** `trusted` and `provenance` fields of --json output. */
export function trustJson(view: TrustView | undefined): { trusted: boolean | null; provenance: Provenance | null } {
  return { trusted: view ? view.trusted : null, provenance: view?.provenance ?? null };
}

export function memoryLine(m: Memory, now: Date, c: ChalkInstance, facts: MemoryFacts = {}): string {
  const status = m.status === 'active' ? '' : ` ${c.magenta(`[${m.status}]`)}`;
  const where = facts.reach && reachLabel(facts.reach) ? ` ${c.magenta(`[${reachLabel(facts.reach)}]`)}` : '';
  const changed = facts.stale ? ` ${c.red(`[stale: ${describeStale(facts.stale)}]`)}` : '';
  // Agents are not shown it until a person accepts it (git mem review).
  const waiting = facts.trust && !facts.trust.trusted ? ` ${c.yellow('[unreviewed]')}` : '';
  return `${c.yellow(visible(formatId(m)))}  ${c.cyan(visible(m.namespace))}  ${c.dim(formatAge(m.created, now).padStart(3))}  ${visible(m.summary)}${status}${where}${changed}${waiting}`;
}

/**
 * `git mem stats`: what the memories are (counts by namespace and status),
 * when they were captured (per week), and the state of the index and model.
 */
import fs from 'node:fs';
import type { Deps } from './deps.ts';
import { STATUSES, type Status } from '../core/memory.ts';
import { type ModelStatus, modelStatus } from './search/model-status.ts';

/** What this file's services use. */
export type StatsDeps = Deps;

export interface NamespaceStats {
  name: string;
  total: number;
  byStatus: Record<Status, number>;
}

export interface WeekCount {
  /** Monday of the week (UTC), YYYY-MM-DD. */
  week: string;
  count: number;
}

export interface StatsReport {
  total: number;
  byStatus: Record<Status, number>;
  namespaces: NamespaceStats[];
  /** The last `weeks` weeks, oldest first, ending with the current one. */
  weeks: WeekCount[];
  /** Memories created before the first week shown. */
  earlier: number;
  index: { file: string; bytes: number; memories: number; revisions: number; tombstones: number; updated: boolean };
  model: ModelStatus;
}

const DAY = 86_400_000;

/** Monday 00:00 UTC of the week holding `t` (ms). */
export function weekStart(t: number): number {
  const day = Math.floor(t / DAY);
  // 1970-01-01 was a Thursday: day 0 → weekday 4 (Mon = 1 … Sun = 7).
  const weekday = ((day + 3) % 7) + 1;
  return (day - (weekday - 1)) * DAY;
}

function zero(): Record<Status, number> {
  return Object.fromEntries(STATUSES.map((s) => [s, 0])) as Record<Status, number>;
}

/** Pure: the report's counts from (namespace, status, created) triples; created as a time or as ms (the term index's arrays). */
export function countMemories(memories: ReadonlyArray<{ namespace: string; status: Status; created: string | number }>, now: Date, weeks: number) {
  const byStatus = zero();
  const namespaces = new Map<string, NamespaceStats>();
  const first = weekStart(now.getTime()) - (weeks - 1) * 7 * DAY;
  const perWeek = new Array<number>(weeks).fill(0);
  let earlier = 0;
  for (const m of memories) {
    byStatus[m.status]++;
    let ns = namespaces.get(m.namespace);
    if (!ns) namespaces.set(m.namespace, (ns = { name: m.namespace, total: 0, byStatus: zero() }));
    ns.total++;
    ns.byStatus[m.status]++;
    const t = typeof m.created === 'number' ? m.created : Date.parse(m.created);
    if (Number.isNaN(t)) continue;
    const i = Math.floor((weekStart(t) - first) / (7 * DAY));
    if (i < 0) earlier++;
    else if (i < weeks) perWeek[i]!++;
  }
  return {
    total: memories.length,
    byStatus,
    namespaces: [...namespaces.values()].sort((a, b) => b.total - a.total || (a.name < b.name ? -1 : 1)),
    weeks: perWeek.map((count, i) => ({ week: new Date(first + i * 7 * DAY).toISOString().slice(0, 10), count })),
    earlier,
  };
}

export async function memoryStats(ctx: StatsDeps, weeks: number): Promise<StatsReport> {
  const s = await ctx.index.stats();
  let bytes = 0;
  try {
    bytes = fs.statSync(ctx.indexFile).size;
  } catch {
    // Not written yet (an empty repository).
  }
  return {
    // The term index has every current memory's namespace, status and date in flat arrays: no memory is read.
    ...countMemories((await ctx.index.current()).facts(), ctx.now(), weeks),
    index: { file: ctx.indexFile, bytes, memories: s.memories, revisions: s.revisions, tombstones: s.tombstones, updated: s.updated },
    model: modelStatus(ctx),
  };
}

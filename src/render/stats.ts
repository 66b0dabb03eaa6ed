/** `git mem stats`: the JSON it prints (a stable shape, whatever the service adds) and the text. */
import type { ChalkInstance } from 'chalk';
import { STATUSES } from '../core/memory.ts';
import type { StatsReport } from '../services/stats.ts';

export interface StatsJson {
  total: number;
  byStatus: Record<string, number>;
  namespaces: { name: string; total: number; byStatus: Record<string, number> }[];
  weeks: { week: string; count: number }[];
  earlier: number;
  index: { file: string; bytes: number; memories: number; revisions: number; tombstones: number; updated: boolean };
  model: { state: string; detail: string; location: string | null };
}

export function statsJson(r: StatsReport): StatsJson {
  return {
    total: r.total,
    byStatus: { ...r.byStatus },
    namespaces: r.namespaces.map((n) => ({ name: n.name, total: n.total, byStatus: { ...n.byStatus } })),
    weeks: r.weeks.map((w) => ({ week: w.week, count: w.count })),
    earlier: r.earlier,
    index: { file: r.index.file, bytes: r.index.bytes, memories: r.index.memories, revisions: r.index.revisions, tombstones: r.index.tombstones, updated: r.index.updated },
    model: { state: r.model.state, detail: r.model.detail, location: r.model.location },
  };
}

/** A bar of `n` out of `max`, at most `width` cells; any non-zero count shows at least one. */
function bar(n: number, max: number, width: number, cell: string): string {
  if (n === 0 || max === 0) return '';
  return cell.repeat(Math.max(1, Math.round((n / max) * width)));
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function renderStats(r: StatsReport, c: ChalkInstance, unicode: boolean): string {
  const lines: string[] = [];
  const statusText = (by: Record<string, number>) => STATUSES.filter((s) => by[s]).map((s) => `${by[s]} ${s}`).join(', ') || 'none';
  lines.push(c.bold(`${r.total} memor${r.total === 1 ? 'y' : 'ies'}`) + (r.total ? `: ${statusText(r.byStatus)}` : ''));
  if (r.namespaces.length) {
    const w = Math.max(...r.namespaces.map((n) => n.name.length));
    const cols = STATUSES.map((s) => s.padStart(10)).join('');
    lines.push('', c.dim(`  ${'namespace'.padEnd(w)}  ${'total'.padStart(6)}${cols}`));
    for (const n of r.namespaces) lines.push(`  ${c.cyan(n.name.padEnd(w))}  ${String(n.total).padStart(6)}${STATUSES.map((s) => String(n.byStatus[s]).padStart(10)).join('')}`);
  }
  const max = Math.max(0, ...r.weeks.map((w) => w.count));
  lines.push('', c.dim(`captures per week (created, UTC; ${r.earlier} earlier)`));
  for (const w of r.weeks) lines.push(`  ${w.week}  ${String(w.count).padStart(5)}  ${c.green(bar(w.count, max, 40, unicode ? '█' : '#'))}`);
  const mb = (r.index.bytes / 1024 / 1024).toFixed(1);
  lines.push('', `index  ${plural(r.index.memories, 'memory', 'memories')}, ${plural(r.index.revisions, 'revision', 'revisions')}, ${plural(r.index.tombstones, 'tombstone', 'tombstones')}, ${mb} MB${r.index.updated ? ' (just caught up with the notes)' : ''}`);
  lines.push(c.dim(`       ${r.index.file}`));
  // A missing model's detail starts "missing config.json, …", as git mem model status says it.
  lines.push(`model  ${r.model.state === 'ready' ? 'ready: ' : ''}${r.model.detail}`);
  return lines.join('\n');
}

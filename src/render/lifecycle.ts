/** What the lifecycle commands print: related, consolidate, gc and forget with filters; text, and a fixed JSON shape. */
import type { ChalkInstance } from 'chalk';
import { formatId, type Memory } from '../core/memory.ts';
import { visible } from '../core/terminal-text.ts';
import type { ConsolidateResult } from '../services/lifecycle/consolidate.ts';
import type { RelatedResult } from '../services/lifecycle/connect.ts';
import type { GcResult } from '../services/lifecycle/gc.ts';
import type { BulkForget } from '../services/memories.ts';
import { memoryLine } from './render.ts';

const brief = (m: Memory) => ({ id: formatId(m), namespace: m.namespace, summary: m.summary, status: m.status });
const round = (x: number) => Math.round(x * 1000) / 1000;

export function relatedJson(r: RelatedResult) {
  return {
    id: formatId(r.memory),
    measure: r.measure,
    threshold: r.threshold,
    linked: r.linked.map((l) => ({ ...brief(l.memory), direction: l.direction, similarity: round(l.similarity) })),
    similar: r.similar.map((s) => ({ ...brief(s.memory), similarity: round(s.similarity) })),
  };
}

export function renderRelated(r: RelatedResult, c: ChalkInstance): string {
  const line = (m: Memory, similarity: number, note = '') => `  ${c.yellow(visible(formatId(m)))}  ${c.dim(similarity.toFixed(2))}  ${visible(m.summary)}${note}`;
  const arrow = { to: '→', from: '←', both: '↔' } as const;
  const out = [`${c.bold('linked')}${r.linked.length ? '' : c.dim('  (none)')}`];
  for (const l of r.linked) out.push(line(l.memory, l.similarity, ` ${c.dim(arrow[l.direction ?? 'to'])}${l.memory.status === 'active' ? '' : ` ${c.magenta(`[${l.memory.status}]`)}`}`));
  out.push(`${c.bold(`similar, not linked`)} ${c.dim(`(${r.measure} similarity ≥ ${r.threshold})`)}${r.similar.length ? '' : c.dim('  (none)')}`);
  for (const s of r.similar) out.push(line(s.memory, s.similarity));
  return out.join('\n');
}

export function consolidateJson(r: ConsolidateResult) {
  return {
    dry_run: r.dryRun,
    consolidations: r.consolidations.map((x) => ({ ...brief(x.memory), body: x.memory.body, tags: x.memory.tags, consolidates: x.originals.map(brief) })),
  };
}

export function renderConsolidate(r: ConsolidateResult, c: ChalkInstance, now: Date): string {
  if (r.consolidations.length === 0) return 'nothing to consolidate: no group of connected memories is large enough';
  const out: string[] = [];
  for (const x of r.consolidations) {
    out.push(`${r.dryRun ? 'would consolidate' : 'consolidated'} ${x.originals.length} memories into ${c.yellow(visible(formatId(x.memory)))}  ${visible(x.memory.summary)}`);
    for (const o of x.originals) out.push(`  ${memoryLine(o, now, c)}`);
  }
  const total = r.consolidations.reduce((n, x) => n + x.originals.length, 0);
  out.push(`${r.dryRun ? 'would archive' : 'archived'} ${total} memories into ${r.consolidations.length} consolidated ${r.consolidations.length === 1 ? 'memory' : 'memories'}${r.dryRun ? ' (dry run: nothing written)' : ''}`);
  return out.join('\n');
}

export function gcJson(r: GcResult) {
  return { dry_run: r.dryRun, archived: r.archived.map(brief), reprieved: r.reprieved.map((m) => ({ ...brief(m), reprieves: (m.reprieves ?? 0) + 1 })), spared: r.spared };
}

export function renderGc(r: GcResult, c: ChalkInstance, now: Date): string {
  const out: string[] = [];
  for (const m of r.archived) out.push(`${r.dryRun ? 'would archive' : 'archived'}  ${memoryLine(m, now, c)}`);
  for (const m of r.reprieved) out.push(`${r.dryRun ? 'would reprieve' : 'reprieved'} ${c.dim(`(${(m.reprieves ?? 0) + 1})`)}  ${memoryLine(m, now, c)}`);
  const spared = Object.entries(r.spared)
    .filter(([, n]) => n)
    .map(([why, n]) => `${n} ${why.replace(/-/g, ' ')}`)
    .join(', ');
  out.push(`${r.dryRun ? 'would archive' : 'archived'} ${r.archived.length}, ${r.dryRun ? 'would reprieve' : 'reprieved'} ${r.reprieved.length}${spared ? `; spared: ${spared}` : ''}${r.dryRun ? ' (dry run: nothing written)' : ''}`);
  return out.join('\n');
}

export function bulkForgetJson(r: BulkForget) {
  return { dry_run: r.dryRun, forgotten: r.forgotten.map(brief) };
}

export function renderBulkForget(r: BulkForget, c: ChalkInstance, now: Date): string {
  const counts = new Map<string, number>();
  for (const m of r.forgotten) counts.set(m.namespace, (counts.get(m.namespace) ?? 0) + 1);
  const lines = r.forgotten.map((m) => `${r.dryRun ? 'would forget' : 'forgot'}  ${memoryLine(m, now, c)}`);
  const by = [...counts].map(([ns, n]) => `${ns} ${n}`).join(', ');
  lines.push(`${r.dryRun ? 'would forget' : 'forgot'} ${r.forgotten.length} ${r.forgotten.length === 1 ? 'memory' : 'memories'}${by ? ` (${by})` : ''}${r.dryRun ? ' (dry run: nothing written)' : ''}`);
  return lines.join('\n');
}

/**
 * Aging (`git mem gc`): old, isolated memories without substance are archived;
 * those with substance are reprieved (counted in the note), and kept for good
 * after GC_REPRIEVES_MAX reprieves. Protected: mem.lifecycle.protect
 * namespaces, memories tagged `keep`, anything not active, anything younger
 * than the limit (core/lifecycle/aging.ts). One notes commit per namespace; a dry run writes nothing.
 */
import { type AgingVerdict, agingVerdict, hasSubstance } from '../../core/lifecycle/aging.ts';
import { connectionGraph } from '../../core/lifecycle/connections.ts';
import { UsageError } from '../../core/errors.ts';
import { formatId, type Memory } from '../../core/memory.ts';
import { serializeMemory } from '../../core/note-format.ts';
import { canonicalTime } from '../../core/time.ts';
import { runJsonCommand } from '../../io/external-command.ts';
import type { ConsolidateDeps } from './consolidate.ts';
import { rewriteMemories } from '../memories.ts';
import { usageFile, type UsageDeps } from '../usage.ts';
import { foldUses, readUses } from '../../stores/cache/usage-log.ts';
import { linkRef } from '../../core/lifecycle/links.ts';

export interface GcOptions {
  /** Memories created before this are old. */
  olderThan: Date;
  dryRun: boolean;
  /** A judge (stdin: {memories: [...]}; stdout: {keep: [ids]}): those kept have substance. */
  with?: string;
}

export interface GcResult {
  archived: Memory[];
  reprieved: Memory[];
  /** How many memories each rule spared. */
  spared: Partial<Record<AgingVerdict, number>>;
  dryRun: boolean;
}

/** The ids the judge keeps; anything else it prints is an error, so nothing changes. */
function judged(ctx: ConsolidateDeps, command: string, candidates: readonly Memory[]): Set<string> {
  const input = { memories: candidates.map((m) => ({ id: formatId(m), namespace: m.namespace, summary: m.summary, body: m.body, tags: m.tags, created: m.created })) };
  const out = runJsonCommand(command, input, { cwd: ctx.cwd, env: ctx.env, timeoutMs: ctx.settings.lifecycleTimeoutMs }) as Record<string, unknown> | null;
  const keep = out && typeof out === 'object' ? out.keep : undefined;
  if (!Array.isArray(keep) || !keep.every((k) => typeof k === 'string')) throw new UsageError(`'${command}' must print {"keep": [ids of the memories worth keeping]}; nothing was changed`);
  return new Set(keep as string[]);
}

export async function gc(ctx: ConsolidateDeps & UsageDeps, options: GcOptions): Promise<GcResult> {
  const index = await ctx.index.current();
  const protectedNamespaces = new Set(ctx.settings.protectNamespaces);
  const rules = { cutoffMs: options.olderThan.getTime(), protectedNamespaces };
  const spared: GcResult['spared'] = {};
  const candidates: Memory[] = [];
  // Isolation is judged among each namespace's current memories, archived ones included (a link to them still connects).
  const byNamespace = new Map<string, Memory[]>();
  const current = index.list({});
  for (const m of current.reverse()) byNamespace.set(m.namespace, [...(byNamespace.get(m.namespace) ?? []), m]);
  // A memory recalls keep showing is in use, though nothing links to it.
  const uses = readUses(usageFile(ctx));
  for (const [namespace, memories] of byNamespace) {
    if (protectedNamespaces.has(namespace)) {
      spared['protected-namespace'] = (spared['protected-namespace'] ?? 0) + memories.length;
      continue;
    }
    const graph = connectionGraph(memories, ctx.settings.connectThreshold);
    memories.forEach((m, i) => {
      const verdict = agingVerdict(m, graph.neighbours[i]!.size > 0, rules, uses.get(linkRef(m)));
      if (verdict === 'judge') candidates.push(m);
      else spared[verdict] = (spared[verdict] ?? 0) + 1;
    });
  }
  const keep = options.with && candidates.length ? judged(ctx, options.with, candidates) : null;
  const substantial = (m: Memory) => (keep ? keep.has(formatId(m)) || keep.has(m.key) : hasSubstance(m));
  const archived = candidates.filter((m) => !substantial(m));
  const reprieved = candidates.filter(substantial);
  if (!options.dryRun) {
    const live = new Set(current.map(linkRef));
    if (uses.size) foldUses(usageFile(ctx), uses, (ref) => live.has(ref));
    const updated = canonicalTime(ctx.now());
    const archive = new Set(archived.map((m) => m.key));
    for (const namespace of new Set(candidates.map((m) => m.namespace))) {
      const mine = candidates.filter((m) => m.namespace === namespace);
      await rewriteMemories(
        ctx,
        namespace,
        mine,
        (m) => serializeMemory(archive.has(m.key) ? { ...m, status: 'archived', updated } : { ...m, reprieves: (m.reprieves ?? 0) + 1, updated }),
        `gc: archive ${mine.filter((m) => archive.has(m.key)).length}, reprieve ${mine.filter((m) => !archive.has(m.key)).length}`,
      );
    }
  }
  return { archived, reprieved, spared, dryRun: options.dryRun };
}

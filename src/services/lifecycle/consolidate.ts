/**
 * Consolidation: groups of connected memories of one namespace become one
 * memory; the originals are archived with a link to it (consolidated_into),
 * nothing is deleted. Extractive and deterministic by default
 * (core/lifecycle/consolidation.ts); with `--with CMD`, a user's command writes the
 * summary and body. One notes commit per namespace; a dry run writes nothing.
 */
import { UsageError } from '../../core/errors.ts';
import { type ConsolidatedDraft, consolidateExtractive } from '../../core/lifecycle/consolidation.ts';
import { connectionGraph, hubGroups } from '../../core/lifecycle/connections.ts';
import { linkRef, retire, retirementsDue } from '../../core/lifecycle/links.ts';
import { formatId, type Memory, parseIdQuery, SUMMARY_MAX } from '../../core/memory.ts';
import { serializeMemory } from '../../core/note-format.ts';
import { canonicalTime, isoSeconds } from '../../core/time.ts';
import { runJsonCommand } from '../../io/external-command.ts';
import type { Deps } from '../deps.ts';
import { sealMemory } from '../capture.ts';
import { type MemoriesDeps, rewriteMemories } from '../memories.ts';

export type ConsolidateDeps = MemoriesDeps & Pick<Deps, 'cwd' | 'env'>;

export interface ConsolidateOptions {
  namespaces?: string[];
  minSize: number;
  dryRun: boolean;
  /** A command that writes the consolidated memory (stdin: the group as JSON; stdout: {summary, body, tags?}). */
  with?: string;
}

export interface Consolidation {
  memory: Memory;
  originals: Memory[];
}

export interface ConsolidateResult {
  consolidations: Consolidation[];
  dryRun: boolean;
}

/** Active memories of each namespace asked for (all when none), grouped by namespace. */
async function activeByNamespace(ctx: MemoriesDeps, namespaces?: string[]): Promise<Map<string, Memory[]>> {
  const index = await ctx.index.current();
  const out = new Map<string, Memory[]>();
  // Oldest first: positions, and so groups, come out the same on every clone.
  const memories = index.list({ ...(namespaces?.length ? { namespaces } : {}), statuses: ['active'] }).reverse();
  for (const m of memories) out.set(m.namespace, [...(out.get(m.namespace) ?? []), m]);
  return out;
}

/** What the --with command returns, checked: one line saying what is wrong otherwise. */
function fromCommand(command: string, namespace: string, group: readonly Memory[], ctx: ConsolidateDeps): { summary: string; body: string; tags?: string[] } {
  const input = { namespace, memories: group.map((m) => ({ id: formatId(m), summary: m.summary, body: m.body, tags: m.tags, created: m.created })) };
  const out = runJsonCommand(command, input, { cwd: ctx.cwd, env: ctx.env, timeoutMs: ctx.settings.lifecycleTimeoutMs });
  const o = out as Record<string, unknown> | null;
  if (!o || typeof o !== 'object' || typeof o.summary !== 'string' || !o.summary.trim()) {
    throw new UsageError(`'${command}' must print {"summary": "...", "body": "...", "tags": [...]}; it printed no summary; nothing was changed`);
  }
  if (o.body !== undefined && typeof o.body !== 'string') throw new UsageError(`'${command}' printed a body that is not a string; nothing was changed`);
  if (o.tags !== undefined && !(Array.isArray(o.tags) && o.tags.every((t) => typeof t === 'string'))) throw new UsageError(`'${command}' printed tags that are not a list of strings; nothing was changed`);
  return { summary: o.summary.trim(), body: (o.body as string | undefined) ?? '', ...(o.tags ? { tags: o.tags as string[] } : {}) };
}

function consolidatedMemory(ctx: ConsolidateDeps, namespace: string, draft: ConsolidatedDraft, written: { summary: string; body: string; tags: string[] }): Memory {
  const now = ctx.now();
  const summary = written.summary.length > SUMMARY_MAX ? `${written.summary.slice(0, SUMMARY_MAX - 1)}…` : written.summary;
  const memory: Memory = {
    key: draft.key,
    namespace,
    object: draft.central.object,
    summary,
    body: written.body,
    created: isoSeconds(now),
    updated: canonicalTime(now),
    tags: written.tags,
    status: 'active',
    relatesTo: draft.consolidates,
    consolidates: draft.consolidates,
    author: ctx.settings.author,
    source: 'consolidate',
  };
  if (draft.paths.length) memory.paths = draft.paths;
  return sealMemory(ctx, memory).memory;
}

export async function consolidate(ctx: ConsolidateDeps, options: ConsolidateOptions): Promise<ConsolidateResult> {
  if (!Number.isInteger(options.minSize) || options.minSize < 2) throw new UsageError('--min-size must be a whole number of at least 2');
  const known = new Set(ctx.settings.namespaces.map((n) => n.name));
  for (const ns of options.namespaces ?? []) if (!known.has(ns)) throw new UsageError(`unknown namespace '${ns}'; see git mem namespaces`);
  const byNamespace = await activeByNamespace(ctx, options.namespaces);
  const plans: Array<{ namespace: string; consolidations: Consolidation[] }> = [];
  // Every group is written (by the command, or extractively) before any ref moves: a failing command changes nothing.
  for (const [namespace, memories] of byNamespace) {
    const graph = connectionGraph(memories, ctx.settings.connectThreshold);
    const consolidations: Consolidation[] = [];
    for (const { hub, members } of hubGroups(graph, options.minSize)) {
      const group = members.map((i) => memories[i]!);
      const draft = consolidateExtractive(group, memories[hub]!);
      const written = options.with ? fromCommand(options.with, namespace, group, ctx) : draft;
      consolidations.push({ memory: consolidatedMemory(ctx, namespace, draft, { summary: written.summary, body: written.body, tags: written.tags ?? draft.tags }), originals: group });
    }
    if (consolidations.length) plans.push({ namespace, consolidations });
  }
  if (!options.dryRun) {
    for (const { namespace, consolidations } of plans) {
      const into = new Map(consolidations.flatMap((c) => c.originals.map((o) => [o.key, c.memory] as const)));
      const originals = consolidations.flatMap((c) => c.originals);
      const updated = canonicalTime(ctx.now());
      await rewriteMemories(
        ctx,
        namespace,
        originals,
        (m) => serializeMemory(retire(m, { consolidatedInto: linkRef(into.get(m.key)!) }, updated)),
        `consolidate ${consolidations.map((c) => formatId(c.memory)).join(' ')}`,
        consolidations.map((c) => c.memory),
      );
    }
  }
  return { consolidations: plans.flatMap((p) => p.consolidations), dryRun: options.dryRun };
}

/**
 * After a pull: memories a consolidation or supersession names but that came
 * back without the link (edited in a clone that did not know) are archived
 * again with it, keeping their words (core/lifecycle/links.ts retirementsDue).
 */
export async function repairRetirements(ctx: MemoriesDeps): Promise<Memory[]> {
  const successors = await ctx.index.withLifecycle();
  // Every memory a successor names, looked up once.
  const named = new Map<string, Memory | undefined>();
  for (const ref of successors.flatMap((s) => [...(s.consolidates ?? []), ...(s.supersedes ?? [])])) {
    if (named.has(ref)) continue;
    const q = parseIdQuery(ref);
    named.set(ref, q ? (await ctx.index.find(q))[0] : undefined);
  }
  const due = retirementsDue(successors, (ref) => named.get(ref));
  const updated = canonicalTime(ctx.now());
  const repaired: Memory[] = [];
  for (const namespace of new Set(due.map((d) => d.memory.namespace))) {
    const mine = due.filter((d) => d.memory.namespace === namespace);
    const by = new Map(mine.map((d) => [d.memory.key, d.by]));
    repaired.push(
      ...(await rewriteMemories(
        ctx,
        namespace,
        mine.map((d) => d.memory),
        (m) => serializeMemory(retire(m, by.get(m.key)!, updated)),
        `archive ${mine.length} retired ${mine.length === 1 ? 'memory' : 'memories'} edited elsewhere`,
      )),
    );
  }
  return repaired;
}

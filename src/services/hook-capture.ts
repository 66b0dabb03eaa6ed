/**
 * Capturing what hooks detect: high-confidence signals and markers, once each.
 * Novelty: the normalized-content hash against this session's captures, then
 * similarity against stored memories, then (inside the compare-and-swap) against
 * the target note, so parallel hooks that saw the same statement write it once.
 */
import { sha1Hex } from '../core/hash.ts';
import { formatId, type Memory } from '../core/memory.ts';
import { normalizeForNovelty, type Signal } from '../core/signals.ts';
import type { AppContext } from '../context.ts';
import { appendMemories, buildMemory, resolveTarget } from './capture.ts';
import { recall } from './recall.ts';
import { updateSession } from './session-state.ts';

/** Token-set overlap at or above which two summaries say the same thing. */
const SIMILAR = 0.8;

function tokens(text: string): Set<string> {
  return new Set(normalizeForNovelty(text).split(' ').filter((t) => t.length > 2));
}

export function similarity(a: string, b: string): number {
  const x = tokens(a);
  const y = tokens(b);
  if (x.size === 0 || y.size === 0) return normalizeForNovelty(a) === normalizeForNovelty(b) ? 1 : 0;
  let both = 0;
  for (const t of x) if (y.has(t)) both++;
  return both / (x.size + y.size - both);
}

export function sameMemory(a: Memory, b: Memory): boolean {
  return a.namespace === b.namespace && similarity(a.summary, b.summary) >= SIMILAR;
}

async function alreadyStored(ctx: AppContext, signal: Signal): Promise<boolean> {
  try {
    const { hits } = await recall(ctx, { query: signal.summary, namespaces: [signal.namespace], limit: 5, mode: 'lexical' });
    return hits.some((h) => similarity(h.memory.summary, signal.summary) >= SIMILAR);
  } catch {
    return false; // a query with no searchable words: nothing to compare with
  }
}

export interface HookCapture {
  id: string;
  memory: Memory;
}

export async function captureSignals(ctx: AppContext, signals: readonly Signal[], options: { sessionId: string; event: string }): Promise<HookCapture[]> {
  const known = new Set(ctx.settings.namespaces.map((n) => n.name));
  const candidates: Array<{ signal: Signal; hash: string }> = [];
  for (const signal of signals) {
    if (!known.has(signal.namespace)) continue;
    const hash = sha1Hex(`${signal.namespace}\0${normalizeForNovelty(signal.summary)}`);
    if (candidates.some((c) => c.hash === hash)) continue;
    candidates.push({ signal, hash });
  }
  if (candidates.length === 0) return [];
  const seen = updateSession(ctx.repo.commonDir, options.sessionId, (s) => new Set(s.captured));
  const fresh: typeof candidates = [];
  for (const c of candidates) {
    if (!seen.has(c.hash) && !(await alreadyStored(ctx, c.signal))) fresh.push(c);
  }
  if (fresh.length === 0) return [];

  const object = resolveTarget(ctx.repo);
  const captured: HookCapture[] = [];
  const byNamespace = new Map<string, Memory[]>();
  for (const { signal } of fresh) {
    const { memory } = buildMemory(ctx, { namespace: signal.namespace, summary: signal.summary, body: signal.body === signal.summary ? '' : signal.body, forceTruncate: true, source: `hook:${options.event}`, confidence: signal.confidence }, object);
    byNamespace.set(memory.namespace, [...(byNamespace.get(memory.namespace) ?? []), memory]);
  }
  for (const [ns, memories] of byNamespace) {
    const written = appendMemories(ctx, ns, memories, `capture (${options.event}) ${memories.map(formatId).join(' ')}`, sameMemory);
    captured.push(...written.map((memory) => ({ id: formatId(memory), memory })));
  }
  updateSession(ctx.repo.commonDir, options.sessionId, (s) => {
    s.captured = [...new Set([...s.captured, ...fresh.map((c) => c.hash)])];
  });
  return captured;
}

/**
 * Capturing what hooks detect: high-confidence signals and markers, once each.
 * Novelty: the normalized-content hash against this session's captures, then
 * against stored memories, then (inside the compare-and-swap) against the
 * target note, so parallel hooks that saw the same statement write it once.
 * A phrase the detector found is new unless a stored memory says nearly the
 * same; an explicit marker is the user's wish, new unless stored word for word.
 */
import { sha1Hex } from '../../core/hash.ts';
import { formatId, type Memory } from '../../core/memory.ts';
import { normalizeForNovelty, type Signal } from '../../core/signals.ts';
import type { Deps } from '../deps.ts';
import type { RecallDeps } from '../search/recall.ts';
import path from 'node:path';
import { workingScope } from '../../core/history/scope.ts';
import { worktreeTop } from '../../stores/git/repo.ts';
import { appendMemories, buildMemory, type CaptureDeps, commitFactsAt, resolveTarget, scopeAt } from '../capture.ts';
import { recall } from '../search/recall.ts';
import { connectNew } from '../lifecycle/connect.ts';
import { readSession, updateSession, workingFiles } from '../../stores/cache/sessions.ts';

/** What this file's services use. */
export type HookCaptureDeps = Pick<Deps, 'repo' | 'settings'> & RecallDeps & CaptureDeps;

/** Token-set overlap at or above which two summaries say the same thing. */
const SIMILAR = 0.8;
/** At most this many captures per hook call: a prompt of 2,000 markers is a paste, not 2,000 decisions. */
export const MAX_CAPTURES = 20;

/** Words, numbers and short identifiers alike: `port 8080` and `port 9090` differ. */
function tokens(text: string): Set<string> {
  return new Set(normalizeForNovelty(text).split(' ').filter(Boolean));
}

function explicit(signal: Signal): boolean {
  return signal.kind !== 'model';
}

function sameWords(a: string, b: string): boolean {
  return normalizeForNovelty(a) === normalizeForNovelty(b);
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

/** What a session's state records of a signal it captured (SessionState.captured): its namespace and normalized summary. */
function capturedHash(signal: Signal): string {
  return sha1Hex(`${signal.namespace}\0${normalizeForNovelty(signal.summary)}`);
}

/** The stored memory this signal repeats, if any. */
async function storedAs(ctx: HookCaptureDeps, signal: Signal): Promise<Memory | undefined> {
  try {
    // Archived memories too: a statement a consolidation or a newer memory already took in is not new.
    const { hits } = await recall(ctx, { query: signal.summary, namespaces: [signal.namespace], statuses: ['active', 'resolved', 'archived'], limit: 5, mode: 'lexical' });
    const same = explicit(signal) ? (m: Memory) => sameWords(m.summary, signal.summary) : (m: Memory) => similarity(m.summary, signal.summary) >= SIMILAR;
    return hits.map((h) => h.memory).find(same);
  } catch {
    return undefined; // a query with no searchable words: nothing to compare with
  }
}

/**
 * Signals neither this session nor the stored memories hold yet, in their order, at most `limit`: what a
 * judge is worth asking about (capture checks again). The stored memories are searched once a signal, at
 * most twice `limit` times: a turn that restates what is stored stops there rather than search for each
 * of its statements.
 */
export async function notCapturedYet(ctx: HookCaptureDeps, sessionId: string, signals: readonly Signal[], limit = Infinity): Promise<Signal[]> {
  const seen = new Set(readSession(ctx.repo.mem, sessionId).captured);
  const out: Signal[] = [];
  let searches = 0;
  for (const signal of signals) {
    if (out.length >= limit || searches >= 2 * limit) break;
    const hash = capturedHash(signal);
    if (seen.has(hash)) continue;
    seen.add(hash);
    searches++;
    if (!(await storedAs(ctx, signal))) out.push(signal);
  }
  return out;
}

export interface HookCapture {
  id: string;
  memory: Memory;
}

export interface HookCaptureResult {
  captured: HookCapture[];
  /** What was not captured, and why: for the systemMessage. */
  skipped: Array<{ summary: string; reason: string }>;
}

export async function captureSignals(ctx: HookCaptureDeps, signals: readonly Signal[], options: { sessionId: string; event: string; /** The client's prompt id: the files worked on under it are what the memories are likely about. */ prompt?: string }): Promise<HookCaptureResult> {
  const skipped: HookCaptureResult['skipped'] = [];
  const known = new Set(ctx.settings.namespaces.map((n) => n.name));
  const candidates: Array<{ signal: Signal; hash: string }> = [];
  for (const signal of signals) {
    if (!known.has(signal.namespace)) continue;
    const hash = capturedHash(signal);
    if (candidates.some((c) => c.hash === hash)) continue;
    candidates.push({ signal, hash });
  }
  if (candidates.length === 0) return { captured: [], skipped };
  const seen = updateSession(ctx.repo.mem, options.sessionId, (s) => new Set(s.captured));
  const fresh: typeof candidates = [];
  for (const c of candidates) {
    if (seen.has(c.hash)) continue; // this session captured it already, and said so then
    if (fresh.length >= MAX_CAPTURES) {
      skipped.push({ summary: c.signal.summary, reason: `over ${MAX_CAPTURES} captures at once` });
      continue;
    }
    const stored = await storedAs(ctx, c.signal);
    if (!stored) fresh.push(c);
    // The same hook registered twice runs in parallel: the twin that stored it for this session says so, this one stays quiet.
    else if (!updateSession(ctx.repo.mem, options.sessionId, (s) => s.captured.includes(c.hash))) {
      skipped.push({ summary: c.signal.summary, reason: `already stored as ${formatId(stored)}` });
    }
  }
  if (fresh.length === 0) return { captured: [], skipped };

  // Claimed for this session before writing: the same hook registered twice runs in parallel, and
  // the twin that finds a claim (or the memory already stored under it) leaves it, silently.
  const claimed = updateSession(ctx.repo.mem, options.sessionId, (s) => {
    const mine = fresh.filter((c) => !s.captured.includes(c.hash));
    s.captured = [...s.captured, ...mine.map((c) => c.hash)];
    return mine;
  });
  if (claimed.length === 0) return { captured: [], skipped };
  const object = resolveTarget(ctx.repo);
  const captured: HookCapture[] = [];
  const byNamespace = new Map<string, Memory[]>();
  const scope = scopeAt(ctx.repo, object);
  const recorded = commitFactsAt(ctx.repo, object);
  const working = workingScopeOf(ctx, options);
  const explicitKeys = new Set<string>();
  for (const { signal } of claimed) {
    const { memory } = buildMemory(ctx, { namespace: signal.namespace, summary: signal.summary, body: signal.body === signal.summary ? '' : signal.body, forceTruncate: true, source: `hook:${options.event}`, confidence: signal.confidence, paths: scope({ working, text: `${signal.summary}\n${signal.body}` }), recorded: recorded() }, object);
    if (explicit(signal)) explicitKeys.add(memory.key);
    byNamespace.set(memory.namespace, [...(byNamespace.get(memory.namespace) ?? []), memory]);
  }
  // Linked to the memories they resemble (relates_to): the index is open already, for the novelty check.
  for (const [ns, memories] of byNamespace) byNamespace.set(ns, connectNew(ctx, memories));
  const duplicate = (existing: Memory, m: Memory) => (explicitKeys.has(m.key) ? existing.namespace === m.namespace && sameWords(existing.summary, m.summary) : sameMemory(existing, m));
  try {
    for (const [ns, memories] of byNamespace) {
      const written = appendMemories(ctx, ns, memories, `capture (${options.event}) ${memories.map(formatId).join(' ')}`, duplicate, { connect: ctx.settings.connectThreshold });
      captured.push(...written.map((memory) => ({ id: formatId(memory), memory })));
    }
  } catch (err) {
    // Not written: released, so a later event of the session may capture them.
    const unwritten = new Set(claimed.filter((c) => !captured.some((m) => m.memory.summary === c.signal.summary)).map((c) => c.hash));
    updateSession(ctx.repo.mem, options.sessionId, (s) => {
      s.captured = s.captured.filter((h) => !unwritten.has(h));
    });
    throw err;
  }
  return { captured, skipped };
}

/** The files the session worked on under this prompt (recorded by the file tools' hooks), relative to the work tree. */
function workingScopeOf(ctx: HookCaptureDeps, options: { sessionId: string; prompt?: string }): string[] {
  const worked = workingFiles(readSession(ctx.repo.mem, options.sessionId), options.prompt ?? '', ctx.now().getTime());
  const top = worked.length ? worktreeTop(ctx.repo) : null;
  return top ? workingScope(top, worked, path.relative) : [];
}

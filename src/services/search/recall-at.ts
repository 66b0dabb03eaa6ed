/**
 * Recall as of a point in time: the notes refs' own history is the audit
 * trail, so what the team knew then is each namespace's notes commit at that
 * moment. Its memories are read (the current revision of each, as the merge
 * decides) and searched with the same ranking as today's index.
 */
import { UsageError } from '../../core/errors.ts';
import type { Memory } from '../../core/memory.ts';
import { type KeyedDoc, keyOf, winner } from '../../core/merge.ts';
import { notesRef } from '../../core/namespaces.ts';
import { parseNote } from '../../core/note-format.ts';
import { DEFAULT_LEXICAL } from '../../core/search/lexical.ts';
import { buildLexicalQuery } from '../../core/search/query.ts';
import { parseDateArg } from '../../core/time.ts';
import type { Deps } from '../deps.ts';
import { commitTime, refAt } from '../../stores/git/history.ts';
import { Index } from '../../stores/index/index.ts';
import { CURRENT_STATUSES, DEFAULT_RECALL_LIMIT, explainFloor, type RecallHit, type RecallOptions, type RecallResult } from './recall.ts';

/** What this file's services use. */
export type RecallAtDeps = Pick<Deps, 'notes' | 'now' | 'repo' | 'settings'>;

/** `at`: a revision (its commit's time) or a date (2026-01-31, an ISO time, an age like 2w). Seconds since the epoch. */
export function resolveAt(ctx: RecallAtDeps, at: string): number {
  const fromCommit = commitTime(ctx.repo, at);
  if (fromCommit !== null) return fromCommit;
  const date = parseDateArg(at, ctx.now());
  if (!date) throw new UsageError(`--at '${at}' is neither a commit nor a date`);
  return Math.floor(date.getTime() / 1000);
}

/** The current memories as the notes refs held them at `time` (s). */
export function memoriesAt(ctx: RecallAtDeps, time: number): Memory[] {
  const byKey = new Map<string, KeyedDoc[]>();
  for (const ns of ctx.notes.tips().keys()) {
    const commit = refAt(ctx.repo, notesRef(ns), time);
    if (!commit) continue;
    const notes = ctx.notes.listNotes(commit);
    const texts = ctx.notes.readTexts(notes.map((n) => n.blob));
    for (const n of notes) {
      for (const d of parseNote(texts.get(n.blob) ?? '', ns, n.object).docs) {
        if (d.kind === 'other') continue;
        const id = `${ns}:${keyOf(d)}`;
        byKey.set(id, [...(byKey.get(id) ?? []), d]);
      }
    }
  }
  return [...byKey.values()].flatMap((docs) => {
    const w = winner(docs);
    return w.kind === 'memory' ? [w.memory] : [];
  });
}

export function recallAt(ctx: RecallAtDeps, options: RecallOptions & { at: string }): RecallResult {
  const query = buildLexicalQuery(options.query);
  if (!query) throw new UsageError('the query has no words to search for');
  const memories = memoriesAt(ctx, resolveAt(ctx, options.at));
  const found = Index.ofMemories(memories).search(query, { ...options, statuses: options.statuses ?? CURRENT_STATUSES, limit: options.limit ?? DEFAULT_RECALL_LIMIT }, DEFAULT_LEXICAL, options.explain);
  const hits: RecallHit[] = found.map(({ memory, score, matches }) => (matches ? { memory, score, explanation: { lexical: score, matches, score } } : { memory, score }));
  if (options.explain) explainFloor(hits, ctx.settings.relevanceFloor);
  // Lexical only: the stored embeddings are of today's memories.
  return { hits, mode: 'lexical', terms: query.terms };
}

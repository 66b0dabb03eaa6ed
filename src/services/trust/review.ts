/**
 * Review of what teammates (or anyone who can push notes) wrote: the memories
 * the trust policy does not let agents see yet (services/trust/trust.ts), accepted
 * (written again by this clone: core/trust.ts then trusts it here, and
 * teammates who trust signed revisions trust it too when signing is on) or
 * rejected (forgotten, with a tombstone that syncs).
 */
import { UsageError } from '../../core/errors.ts';
import { formatId, type Memory } from '../../core/memory.ts';
import { parseNote } from '../../core/note-format.ts';
import { readBatch } from '../../stores/git/objects.ts';
import type { Deps } from '../deps.ts';
import { acceptMemories, findMemory, forgetMemory, type MemoriesDeps } from '../memories.ts';
import { type TrustView, trustOf, trustsAll } from './trust.ts';

export type ReviewDeps = MemoriesDeps & Pick<Deps, 'notes' | 'repo'>;

export interface Waiting {
  memory: Memory;
  trust: TrustView;
  /** The revision it replaced, as the note held it before the commit that brought this one (absent: a new memory). */
  previous?: Memory;
}

/** Every current memory the policy holds back, newest first, with the revision each replaced. */
export async function waitingForReview(ctx: ReviewDeps): Promise<Waiting[]> {
  if (trustsAll(ctx)) return [];
  const all = (await ctx.index.current()).list({});
  const trust = trustOf(ctx, all);
  const waiting = all.flatMap((memory) => {
    const t = trust.get(memory.key)!;
    return t.trusted ? [] : [{ memory, trust: t }];
  });
  const previous = previousRevisions(ctx, waiting);
  return waiting.map((w, i) => (previous[i] ? { ...w, previous: previous[i] } : w));
}

/**
 * For each, the same memory in its note as it was just before the notes
 * commit that brought the waiting revision: one `cat-file` for all (a note's
 * path in the notes tree has no fan-out, or one or two levels of it).
 */
function previousRevisions(ctx: ReviewDeps, waiting: readonly Waiting[]): Array<Memory | undefined> {
  const paths = (o: string) => [o, `${o.slice(0, 2)}/${o.slice(2)}`, `${o.slice(0, 2)}/${o.slice(2, 4)}/${o.slice(4)}`];
  const specs = waiting.flatMap((w) => (w.trust.provenance ? paths(w.memory.object).map((p) => `${w.trust.provenance!.commit}^:${p}`) : []));
  const found = readBatch(ctx.repo, specs);
  let i = 0;
  return waiting.map((w) => {
    if (!w.trust.provenance) return undefined;
    const note = found.slice(i, (i += 3)).find((o) => o?.type === 'blob');
    if (!note) return undefined;
    const doc = parseNote(note.content.toString('utf8'), w.memory.namespace, w.memory.object).docs.find((d) => d.kind === 'memory' && d.memory.key === w.memory.key);
    return doc?.kind === 'memory' ? doc.memory : undefined;
  });
}

export interface ReviewResult {
  accepted: Memory[];
  rejected: Memory[];
}

/** Accepts and rejects the memories named (ids as list prints them); `all` accepts every one waiting. Each id must name a memory waiting. */
export async function review(ctx: ReviewDeps, options: { accept: readonly string[]; reject: readonly string[]; all: boolean }): Promise<ReviewResult> {
  const waiting = await waitingForReview(ctx);
  const waitingKeys = new Set(waiting.map((w) => `${w.memory.namespace}:${w.memory.key}`));
  const named = async (ids: readonly string[], option: string) => {
    const found: Memory[] = [];
    for (const id of ids) {
      const m = await findMemory(ctx, id, option);
      if (!waitingKeys.has(`${m.namespace}:${m.key}`)) throw new UsageError(`${option}: ${id} does not wait for review`, 'git mem review lists those that do');
      found.push(m);
    }
    return found;
  };
  const toAccept = options.all ? waiting.map((w) => w.memory) : await named(options.accept, '--accept');
  const toReject = await named(options.reject, '--reject');
  const both = toAccept.filter((a) => toReject.some((r) => r.key === a.key && r.namespace === a.namespace));
  if (both.length) throw new UsageError(`${both.length === 1 ? 'a memory is' : 'memories are'} both accepted and rejected`);
  const accepted = toAccept.length ? await acceptMemories(ctx, toAccept) : [];
  const rejected: Memory[] = [];
  for (const m of toReject) rejected.push(await forgetMemory(ctx, formatId(m)));
  return { accepted, rejected };
}

/**
 * Review of what teammates (or anyone who can push notes) wrote: the memories
 * the trust policy does not let agents see yet (services/trust.ts), accepted
 * (written again by this clone: core/trust.ts then trusts it here, and
 * teammates who trust signed revisions trust it too when signing is on) or
 * rejected (forgotten, with a tombstone that syncs).
 */
import { UsageError } from '../core/errors.ts';
import { formatId, type Memory } from '../core/memory.ts';
import type { Deps } from './deps.ts';
import { acceptMemories, findMemory, forgetMemory, type MemoriesDeps } from './memories.ts';
import { type TrustView, trustOf, trustsAll } from './trust.ts';

export type ReviewDeps = MemoriesDeps & Pick<Deps, 'notes' | 'repo'>;

export interface Waiting {
  memory: Memory;
  trust: TrustView;
}

/** Every current memory the policy holds back, newest first. */
export async function waitingForReview(ctx: ReviewDeps): Promise<Waiting[]> {
  if (trustsAll(ctx)) return [];
  const all = (await ctx.index.current()).list({});
  const trust = trustOf(ctx, all);
  return all.flatMap((memory) => {
    const t = trust.get(memory.key)!;
    return t.trusted ? [] : [{ memory, trust: t }];
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

/**
 * Recall usage as a use case: which memories a person or an agent was shown
 * (recall, the hooks' context, MCP) or expanded (hydrate), counted in this
 * clone's cache (stores/cache/usage-log.ts). gc treats a memory in use as
 * connected (core/lifecycle/aging.ts).
 */
import { linkRef } from '../core/lifecycle/links.ts';
import type { Memory } from '../core/memory.ts';
import type { Deps } from './deps.ts';
import { recordUses } from '../stores/cache/usage-log.ts';

export type UsageDeps = Pick<Deps, 'repo'>;

export function usageFile(ctx: UsageDeps): string {
  return ctx.repo.mem.file('usage');
}

/** Counts one use of each memory shown (not when the cache folder cannot be written). */
export function countUses(ctx: UsageDeps, memories: readonly Memory[]): void {
  if (memories.length && ctx.repo.mem.writable()) recordUses(usageFile(ctx), memories.map(linkRef));
}

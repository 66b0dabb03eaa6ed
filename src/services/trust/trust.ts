/**
 * What the policy (`mem.trust`, core/trust.ts) makes of each memory's
 * provenance (services/trust/provenance.ts): trusted, or waiting for review. The
 * hooks and MCP hand agents only what `injectable` returns; list, recall and
 * show mark the rest.
 */
import type { Memory } from '../../core/memory.ts';
import { isTrusted, type Provenance } from '../../core/trust.ts';
import { type ProvenanceDeps, provenanceOf } from './provenance.ts';

export interface TrustView {
  provenance?: Provenance;
  trusted: boolean;
}

/** Whether the policy trusts everything (the behaviour before trust existed): then no provenance is read. */
export function trustsAll(ctx: ProvenanceDeps): boolean {
  return ctx.settings.trust.some((r) => r.kind === 'all');
}

/** key → provenance and trust, for each memory. */
export function trustOf(ctx: ProvenanceDeps, memories: readonly Memory[]): Map<string, TrustView> {
  const found = provenanceOf(ctx, memories);
  return new Map(memories.map((m) => [m.key, { ...(found.has(m.key) ? { provenance: found.get(m.key) } : {}), trusted: isTrusted(found.get(m.key), ctx.settings.trust) }]));
}

/**
 * The memories an agent may be given, in order: those the policy trusts, each
 * with the author git recorded for its revision (the front matter's `author`
 * is whatever its writer typed). Under `all`, every memory as it is.
 */
export function injectable(ctx: ProvenanceDeps, memories: readonly Memory[]): Memory[] {
  if (memories.length === 0 || trustsAll(ctx)) return [...memories];
  const views = trustOf(ctx, memories);
  return memories.flatMap((m) => {
    const v = views.get(m.key);
    if (!v?.trusted) return [];
    return [v.provenance ? { ...m, author: v.provenance.author } : m];
  });
}

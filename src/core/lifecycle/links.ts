/**
 * Links between memories, pure: how a link is written (`<namespace>:<key>`,
 * which a rebase does not change, unlike the short commit in an id), which
 * memory a written link names (older notes and users write full ids or key
 * prefixes), and the groups of memories that links connect.
 */
import { idKey, matchesKey, type Memory, parseIdQuery } from '../memory.ts';

/** A link to `m` as stored in `relates_to`, `consolidates`, `supersedes`: stable across rebases and reanchoring. */
export function linkRef(m: Pick<Memory, 'namespace' | 'key'>): string {
  return `${m.namespace}:${idKey(m.key)}`;
}

/** Whether `ref` (a link as written: `ns:key`, a full id `ns:commit:key`, or a key prefix) names `m`. */
export function refersTo(ref: string, m: Pick<Memory, 'namespace' | 'key' | 'object'>): boolean {
  const q = parseIdQuery(ref);
  if (!q) return false;
  if (q.namespace && q.namespace !== m.namespace) return false;
  if (q.objectPrefix && !m.object.startsWith(q.objectPrefix)) return false;
  return matchesKey(q, m.key);
}

/** The key prefix a link names (to look it up), or null when it names no memory. */
export function refKey(ref: string): { namespace?: string; keyPrefix: string } | null {
  const q = parseIdQuery(ref);
  return q ? { ...(q.namespace ? { namespace: q.namespace } : {}), keyPrefix: q.keyPrefix } : null;
}

/** Every link a memory writes to others: related, consolidated, superseded, and what retired it. */
export function outgoingRefs(m: Memory): string[] {
  return [...m.relatesTo, ...(m.consolidates ?? []), ...(m.supersedes ?? []), ...(m.consolidatedInto ? [m.consolidatedInto] : []), ...(m.supersededBy ? [m.supersededBy] : [])];
}

/** A memory is retired when a consolidation or a newer memory took its place. */
function isRetired(m: Pick<Memory, 'consolidatedInto' | 'supersededBy'>): boolean {
  return Boolean(m.consolidatedInto || m.supersededBy);
}

/**
 * Resolves links among `memories` to index pairs (each link once, either way),
 * by key prefix: a link to a memory not among them is left out.
 */
export function linkedPairs(memories: readonly Memory[]): Array<[number, number]> {
  const byKey = new Map<string, number[]>();
  memories.forEach((m, i) => {
    // Links name at least 4 hex digits of a key: the first 4 find the candidates.
    const k = m.key.slice(0, 4);
    byKey.set(k, [...(byKey.get(k) ?? []), i]);
  });
  const pairs = new Set<string>();
  const out: Array<[number, number]> = [];
  memories.forEach((m, i) => {
    for (const ref of outgoingRefs(m)) {
      const q = refKey(ref);
      if (!q) continue;
      for (const j of byKey.get(q.keyPrefix.slice(0, 4)) ?? []) {
        if (j === i || !refersTo(ref, memories[j]!)) continue;
        const id = i < j ? `${i},${j}` : `${j},${i}`;
        if (pairs.has(id)) continue;
        pairs.add(id);
        out.push(i < j ? [i, j] : [j, i]);
      }
    }
  });
  return out;
}

/** `m` with these links added to `relates_to`, each once, after the ones it has. */
export function withLinks<M extends Pick<Memory, 'relatesTo'>>(m: M, refs: readonly string[]): M {
  const fresh = [...new Set(refs)].filter((r) => !m.relatesTo.includes(r));
  return fresh.length ? { ...m, relatesTo: [...m.relatesTo, ...fresh] } : m;
}

/** `m` archived because `by` took its place (a consolidation or a newer memory), linked to it, as of `updated`. */
export function retire(m: Memory, by: RetiredBy, updated: string): Memory {
  const link = 'consolidatedInto' in by ? by.consolidatedInto : by.supersededBy;
  return withLinks({ ...m, ...by, status: 'archived', updated }, [link]);
}

/** What took a memory's place: the argument `retire` takes. */
export type RetiredBy = { consolidatedInto: string } | { supersededBy: string };

export interface Retirement {
  memory: Memory;
  by: RetiredBy;
}

/**
 * The memories a current consolidation or supersession names that do not
 * carry the link back: another clone, not knowing of it yet, edited them, and
 * that newer revision won the merge. They are archived again, with the link
 * (their words as edited). A memory that carries a link was archived, or
 * restored on purpose, by someone who knew: it is left as it is.
 */
export function retirementsDue(successors: readonly Memory[], lookup: (ref: string) => Memory | undefined): Retirement[] {
  const due = new Map<string, Retirement>();
  for (const s of [...successors].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
    const named = [...(s.consolidates ?? []).map((ref) => ({ ref, field: 'consolidatedInto' as const })), ...(s.supersedes ?? []).map((ref) => ({ ref, field: 'supersededBy' as const }))];
    for (const { ref, field } of named) {
      const target = lookup(ref);
      if (!target || target.key === s.key || isRetired(target) || due.has(target.key)) continue;
      due.set(target.key, { memory: target, by: field === 'consolidatedInto' ? { consolidatedInto: linkRef(s) } : { supersededBy: linkRef(s) } });
    }
  }
  return [...due.values()];
}

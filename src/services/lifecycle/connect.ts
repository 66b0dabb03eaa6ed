/**
 * Connections: a new memory is linked (relates_to) to the existing memories of
 * its namespace that say nearly the same, by words (core/search/similarity.ts): a
 * capture never loads the embedding model. `related` shows a memory's links
 * both ways plus its nearest unlinked neighbours, by the cosine of embeddings
 * when the model is at hand, else by words.
 */
import type { Memory } from '../../core/memory.ts';
import { linkRef, outgoingRefs, refersTo, withLinks } from '../../core/lifecycle/links.ts';
import { PLAIN_LEXICAL } from '../../core/search/lexical.ts';
import { buildLexicalQuery } from '../../core/search/query.ts';
import { contentTerms, setCosine, similarPairs } from '../../core/search/similarity.ts';
import type { Deps } from '../deps.ts';
import type { ModelDeps } from '../search/model.ts';
import type { MemoryReader } from '../../stores/index/index.ts';

/** At most this many links are made for one new memory: its closest. */
export const MAX_LINKS = 5;
/** Search depth for candidates: the best lexical matches, then exact similarity. */
const CANDIDATES = 20;
/** An import links within itself, and to the stored memories only when it is this small (a search per memory). */
const SEARCH_IMPORT_MAX = 200;

export type ConnectDeps = Pick<Deps, 'settings' | 'index'>;

export interface Neighbour {
  memory: Memory;
  similarity: number;
}

/** Stored memories of `m`'s namespace, current and not archived, at or above the threshold; closest first. */
function lexicalNeighbours(index: MemoryReader, m: Memory, threshold: number, limit = MAX_LINKS): Neighbour[] {
  // Plain words: candidates are judged by their own words next (setCosine), which synonyms and feedback cannot raise.
  const query = buildLexicalQuery(`${m.summary} ${m.tags.join(' ')} ${m.body.slice(0, 600)}`, { prefixLast: false, synonyms: false });
  if (!query) return [];
  const mine = contentTerms(m);
  return index
    .search(query, { namespaces: [m.namespace], statuses: ['active', 'resolved'], limit: CANDIDATES }, PLAIN_LEXICAL)
    .filter((h) => h.memory.key !== m.key)
    .map((h) => ({ memory: h.memory, similarity: setCosine(mine, contentTerms(h.memory)) }))
    .filter((n) => n.similarity >= threshold)
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, limit);
}

/**
 * The new memories with links to what they resemble: among themselves, and
 * among the stored ones the term index holds as it is (a capture does not wait
 * for the index to catch up). A threshold of 1 turns linking off. At most
 * MAX_LINKS, the most similar first.
 */
export function connectNew(ctx: ConnectDeps, memories: readonly Memory[]): Memory[] {
  const threshold = ctx.settings.connectThreshold;
  if (memories.length === 0 || threshold >= 1) return [...memories];
  const refs = memories.map(() => [] as Array<{ ref: string; strength: number }>);
  // Within the batch (an import, several captures of one hook): one similarity join.
  const terms = memories.map(contentTerms);
  for (const p of similarPairs(terms, threshold)) {
    const [a, b] = [memories[p.a]!, memories[p.b]!];
    if (a.namespace !== b.namespace) continue;
    // The later one links to the earlier: a link points back in time, as at capture.
    refs[p.b]!.push({ ref: linkRef(a), strength: p.similarity / threshold });
  }
  const index = memories.length <= SEARCH_IMPORT_MAX ? safely(() => ctx.index.asIs()) : null;
  if (index) {
    memories.forEach((m, i) => {
      for (const n of safely(() => lexicalNeighbours(index, m, threshold)) ?? []) {
        refs[i]!.push({ ref: linkRef(n.memory), strength: n.similarity / threshold });
      }
    });
  }
  return memories.map((m, i) => {
    const best = refs[i]!.sort((a, b) => b.strength - a.strength).map((r) => r.ref);
    return withLinks(m, [...new Set(best)].slice(0, MAX_LINKS));
  });
}

/** Linking is a help, never a reason for a capture to fail (an unreadable index links nothing). */
function safely<T>(f: () => T): T | null {
  try {
    return f();
  } catch {
    return null;
  }
}

export interface RelatedEntry {
  memory: Memory;
  /** Linked: this memory names it (to), it names this memory (from), or both. Unlinked neighbours have none. */
  direction?: 'to' | 'from' | 'both';
  /** Similarity to the memory asked about: lexical for linked memories, lexical or cosine (see `measure`) for the rest. */
  similarity: number;
}

export interface RelatedResult {
  memory: Memory;
  measure: 'lexical' | 'cosine';
  threshold: number;
  linked: RelatedEntry[];
  similar: RelatedEntry[];
  notice?: string;
}

export type RelatedDeps = Pick<Deps, 'settings' | 'index' | 'repo'> & ModelDeps;

/**
 * A memory's links both ways, then the nearest unlinked memories of its
 * namespace at or above the threshold. With the embedding model (recall mode
 * not lexical), nearness is the cosine of embeddings at mem.lifecycle.connectCosine.
 */
export async function related(ctx: RelatedDeps, target: Memory, options: { limit: number }): Promise<RelatedResult> {
  const index = await ctx.index.current();
  const all = index.list({});
  const mine = contentTerms(target);
  const similarity = (m: Memory) => setCosine(mine, contentTerms(m));
  const outgoing = outgoingRefs(target);
  const linked: RelatedEntry[] = [];
  for (const m of all) {
    if (m.key === target.key) continue;
    const to = outgoing.some((r) => refersTo(r, m));
    const from = outgoingRefs(m).some((r) => refersTo(r, target));
    if (to || from) linked.push({ memory: m, direction: to && from ? 'both' : to ? 'to' : 'from', similarity: similarity(m) });
  }
  linked.sort((a, b) => b.similarity - a.similarity);
  const linkedKeys = new Set([target.key, ...linked.map((l) => l.memory.key)]);

  let measure: RelatedResult['measure'] = 'lexical';
  let threshold = ctx.settings.connectThreshold;
  let notice: string | undefined;
  let similar: RelatedEntry[] = [];
  if (ctx.settings.recallMode !== 'lexical') {
    const semantic = await cosineNeighbours(ctx, target, ctx.settings.connectCosine, options.limit + linkedKeys.size);
    if ('notice' in semantic) notice = semantic.notice;
    else {
      measure = 'cosine';
      threshold = ctx.settings.connectCosine;
      similar = semantic.neighbours.filter((n) => !linkedKeys.has(n.memory.key)).map((n) => ({ memory: n.memory, similarity: n.similarity }));
    }
  }
  if (measure === 'lexical') {
    similar = lexicalNeighbours(index, target, threshold, options.limit + linkedKeys.size)
      .filter((n) => !linkedKeys.has(n.memory.key))
      .map((n) => ({ memory: n.memory, similarity: n.similarity }));
  }
  return { memory: target, measure, threshold, linked, similar: similar.slice(0, options.limit), ...(notice ? { notice } : {}) };
}

async function cosineNeighbours(ctx: RelatedDeps, target: Memory, threshold: number, limit: number): Promise<{ neighbours: Neighbour[] } | { notice: string }> {
  const { openEmbedder } = await import('../search/model.ts');
  const opened = await openEmbedder(ctx, { download: false, threads: 1 });
  if (!('embedder' in opened)) return { notice: `${opened.notice}; related uses word similarity` };
  const { semanticRank, memoriesOf } = await import('../search/semantic.ts');
  const text = `${target.summary}\n${target.body}`;
  const { ranked } = await semanticRank(ctx, { query: opened.embedder, documents: async () => opened.embedder }, text, { namespaces: [target.namespace], statuses: ['active', 'resolved'] }, { limit: limit + 1 });
  const hits = await memoriesOf(ctx, ranked);
  return { neighbours: hits.filter((h) => h.memory.key !== target.key && h.score >= threshold).map((h) => ({ memory: h.memory, similarity: h.score })) };
}

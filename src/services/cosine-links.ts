/**
 * Links at capture by the cosine of embeddings, when the embedding model is
 * at hand: the command line, MCP and small imports use it; the hooks do not
 * (loading the model takes hundreds of milliseconds, a hook has tens). The
 * new memories are embedded once; the stored memories are compared through
 * the vectors semantic recall already keeps (services/semantic.ts), never
 * embedded here, so a stored memory without a current vector is judged by
 * its words instead (services/connect.ts). The new vectors are kept, so
 * recall need not compute them again.
 */
import { cosine, embeddingHash, embeddingText } from '../core/embedding.ts';
import { linkRef } from '../core/links.ts';
import type { Memory } from '../core/memory.ts';
import type { Deps } from './deps.ts';
import { locateModel, type ModelDeps } from './model.ts';
import type { Embedder } from '../stores/embed/embedder.ts';
import { VectorStore } from '../stores/embed/vector-store.ts';
import { vectorsFile } from './semantic.ts';
import type { CosineJudge } from './connect.ts';

export type CosineLinkDeps = ModelDeps & Pick<Deps, 'index'>;

/** Embedding this many new memories at once is still quick; a larger import links by words. */
export const COSINE_BATCH_MAX = 200;

export interface CosineLinks {
  judge: CosineJudge;
  /** Keeps the new memories' vectors (as written: links do not change the embedded text). */
  keep(written: readonly Memory[]): Promise<void>;
}

/**
 * The cosine judge for these new memories, or null when words decide: recall
 * mode lexical, cosine linking off (threshold 1), no model on disk, too many
 * memories, or anything failing (linking never fails a capture).
 */
export async function cosineLinks(ctx: CosineLinkDeps, memories: readonly Memory[]): Promise<CosineLinks | null> {
  const threshold = ctx.settings.connectCosine;
  if (!memories.length || memories.length > COSINE_BATCH_MAX || threshold >= 1 || ctx.settings.connectThreshold >= 1) return null;
  if (ctx.settings.recallMode === 'lexical' || !locateModel(ctx).state.complete) return null;
  try {
    const { openEmbedder } = await import('./model.ts');
    const opened = await openEmbedder(ctx, { download: false, threads: 1 });
    if (!('embedder' in opened)) return null;
    return await judgeWith(ctx, opened.embedder, memories, threshold);
  } catch {
    return null;
  }
}

async function judgeWith(ctx: CosineLinkDeps, embedder: Embedder, memories: readonly Memory[], threshold: number): Promise<CosineLinks> {
  const fresh = await embedder.embed(memories.map(embeddingText));
  const store = new VectorStore(vectorsFile(ctx));
  const stored = await store.vectors(embedder.modelId);
  const namespaces = [...new Set(memories.map((m) => m.namespace))];
  // Caught up with the notes, unlike the word links' index as it is: loading the model already costs far more.
  const existing = (await ctx.index.current()).list({ namespaces, statuses: ['active', 'resolved'] });
  const newKeys = new Set(memories.map((m) => m.key));
  const covered = new Set<string>();
  const candidates: Array<{ memory: Memory; vec: Float32Array }> = [];
  for (const m of existing) {
    const v = stored.get(m.key);
    if (newKeys.has(m.key) || v?.hash !== embeddingHash(m)) continue;
    covered.add(linkRef(m));
    candidates.push({ memory: m, vec: v.vec });
  }
  const neighbours = memories.map((m, i) => {
    const out: Array<{ ref: string; similarity: number }> = [];
    for (const c of candidates) {
      if (c.memory.namespace !== m.namespace) continue;
      const similarity = cosine(fresh[i]!, c.vec);
      if (similarity >= threshold) out.push({ ref: linkRef(c.memory), similarity });
    }
    // Within the batch, the later memory links to the earlier, as a capture links back in time.
    for (let j = 0; j < i; j++) {
      if (memories[j]!.namespace !== m.namespace) continue;
      const similarity = cosine(fresh[i]!, fresh[j]!);
      if (similarity >= threshold) out.push({ ref: linkRef(memories[j]!), similarity });
    }
    return out;
  });
  return {
    judge: { threshold, covered, neighbours },
    keep: async (written) => {
      const byKey = new Map(memories.map((m, i) => [m.key, fresh[i]!]));
      const rows = written.flatMap((m) => {
        const vec = byKey.get(m.key);
        return vec ? [{ key: m.key, hash: embeddingHash(m), vec }] : [];
      });
      if (!rows.length) return;
      store.add(embedder.modelId, rows);
      await store.persist(embedder.modelId).catch(() => false);
    },
  };
}

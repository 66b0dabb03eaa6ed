/**
 * Export and import of memories as JSONL (one memory per line, the `--json`
 * shape). A round trip keeps ids, timestamps and metadata; a line without a key
 * gets a new one. Import checks every line before writing anything, then writes
 * one notes commit per namespace.
 */
import { UsageError } from '../core/errors.ts';
import { isStatus, type Memory, PATHS_MAX } from '../core/memory.ts';
import { serializeMemory } from '../core/note-format.ts';
import { normalizeTimestamp, canonicalTime } from '../core/time.ts';
import { checkBody, checkNamespace, checkSummary } from '../core/validate.ts';
import type { AppContext } from '../context.ts';
import { memoryJson } from '../io/render.ts';
import { readBatch, writeObject } from '../stores/git/objects.ts';
import { appendMemories, cleaner, newKey } from './capture.ts';

export type ExportFormat = 'jsonl' | 'md';

export async function exportMemories(ctx: AppContext, options: { namespaces?: string[]; format: ExportFormat }): Promise<string> {
  const memories = (await ctx.index()).list({ namespaces: options.namespaces }).reverse(); // oldest first
  if (options.format === 'md') return memories.map(serializeMemory).join('\n\n') + (memories.length ? '\n' : '');
  return memories.map((m) => JSON.stringify(memoryJson(m))).join('\n') + (memories.length ? '\n' : '');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

export interface ImportResult {
  imported: number;
  /** Lines whose memory (same key) the notes already hold. */
  unchanged: number;
}

export function importMemories(ctx: AppContext, text: string, progress?: (done: number, total: number) => void): ImportResult {
  const clean = cleaner(ctx);
  const now = canonicalTime(ctx.now());
  const parsed: Array<{ line: number; memory: Omit<Memory, 'object'>; commit?: string }> = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 1;
    const fail = (why: string): never => {
      throw new UsageError(`line ${line}: ${why}; nothing was imported`);
    };
    let o: Record<string, unknown> = {};
    try {
      const v: unknown = JSON.parse(raw);
      if (!v || typeof v !== 'object' || Array.isArray(v)) fail('not a JSON object');
      o = v as Record<string, unknown>;
    } catch (err) {
      if (err instanceof UsageError) throw err;
      fail('not valid JSON');
    }
    try {
      const key = str(o.key)?.toLowerCase();
      if (key !== undefined && !/^[0-9a-f]{8,40}$/.test(key)) fail(`key '${key}' is not 8 to 40 hex digits`);
      const created = o.created === undefined ? now : (normalizeTimestamp(o.created) ?? fail('created is not a date'));
      const status = o.status === undefined ? 'active' : isStatus(o.status) ? o.status : fail(`unknown status '${String(o.status)}'`);
      const memory: Omit<Memory, 'object'> = {
        key: key ?? newKey(),
        namespace: checkNamespace(String(o.namespace ?? ''), ctx.settings.namespaces),
        summary: clean(checkSummary(String(o.summary ?? ''))).text,
        body: clean(checkBody(String(o.body ?? ''))).text,
        created,
        updated: o.updated === undefined ? created : (normalizeTimestamp(o.updated) ?? fail('updated is not a date')),
        tags: list(o.tags).map((t) => clean(t).text),
        status,
        relatesTo: list(o.relates_to ?? o.relatesTo),
        author: str(o.author) ?? ctx.settings.author,
      };
      for (const field of ['spec', 'phase', 'source'] as const) if (str(o[field])) memory[field] = str(o[field]);
      if (typeof o.confidence === 'number') memory.confidence = o.confidence;
      const paths = list(o.paths);
      if (paths.length) memory.paths = paths.slice(0, PATHS_MAX);
      parsed.push({ line, memory, commit: str(o.commit) });
    } catch (err) {
      if (err instanceof UsageError && !err.message.startsWith('line ')) fail(err.message);
      throw err;
    }
  });

  // Every named commit must exist here; one process checks them all.
  const commits = [...new Set(parsed.flatMap((p) => (p.commit ? [p.commit] : [])))];
  const found = readBatch(ctx.repo, commits.map((c) => `${c}^{commit}`));
  const resolved = new Map(commits.map((c, i) => [c, found[i]?.oid]));
  const fallback = () => ctx.repo.head ?? writeObject(ctx.repo, 'tree', Buffer.alloc(0));
  const memories: Memory[] = parsed.map((p) => {
    const object = p.commit ? resolved.get(p.commit) : fallback();
    if (!object) throw new UsageError(`line ${p.line}: no such commit ${p.commit} in this repository; nothing was imported`);
    return { ...p.memory, object };
  });

  let imported = 0;
  const byNamespace = new Map<string, Memory[]>();
  for (const m of memories) byNamespace.set(m.namespace, [...(byNamespace.get(m.namespace) ?? []), m]);
  for (const [ns, group] of byNamespace) {
    imported += appendMemories(ctx, ns, group, `import ${group.length} memories`, (existing, m) => existing.key === m.key).length;
    progress?.(imported, memories.length);
  }
  return { imported, unchanged: memories.length - imported };
}

/**
 * Export and import of memories as JSONL (one memory per line, the `--json`
 * shape). A round trip keeps ids, timestamps and metadata; a line without a key
 * gets a new one. Import checks every line before writing anything, then writes
 * one notes commit per namespace.
 */
import { UsageError } from '../core/errors.ts';
import { sha1Hex } from '../core/hash.ts';
import { isStatus, KEY_LENGTH, type Memory, PATHS_MAX } from '../core/memory.ts';
import { serializeMemory } from '../core/note-format.ts';
import { normalizeTimestamp, canonicalTime } from '../core/time.ts';
import { checkBody, checkNamespace, checkSummary } from '../core/validate.ts';
import type { Deps } from './deps.ts';
import type { CaptureDeps } from './capture.ts';

/** What this file's services use. */
export type TransferDeps = Pick<Deps, 'index' | 'now' | 'repo' | 'settings'> & CaptureDeps;
import { memoryJson } from '../core/memory-json.ts';
import { readBatch, writeObject } from '../stores/git/objects.ts';
import { appendAll, sealMemory } from './capture.ts';

export type ExportFormat = 'jsonl' | 'md';

export async function exportMemories(ctx: TransferDeps, options: { namespaces?: string[]; format: ExportFormat }): Promise<string> {
  const memories = (await ctx.index()).list({ namespaces: options.namespaces }).reverse(); // oldest first
  if (options.format === 'md') return memories.map(serializeMemory).join('\n\n') + (memories.length ? '\n' : '');
  return memories.map((m) => JSON.stringify(memoryJson(m))).join('\n') + (memories.length ? '\n' : '');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

export interface ImportResult {
  imported: number;
  /** Lines whose memory (same key) is already here, anywhere, or earlier in the file. */
  unchanged: number;
}

/** The key of a line that has none: from its content, so importing the same file twice adds nothing. */
function contentKey(o: Record<string, unknown>, namespace: string): string {
  const fields = [namespace, o.summary, o.body, o.tags, o.commit, o.created, o.spec, o.phase].map((v) => (v === undefined ? null : v));
  return sha1Hex(JSON.stringify(fields)).slice(0, KEY_LENGTH);
}

/**
 * Checks every line, then writes all of them or nothing: one notes commit
 * per namespace, the refs moved in one transaction. Lines whose key is already
 * here (as a memory or a tombstone, on any commit) are left alone.
 */
export async function importMemories(ctx: TransferDeps, text: string, progress?: (done: number, total: number) => void): Promise<ImportResult> {
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
      const namespace = checkNamespace(String(o.namespace ?? ''), ctx.settings.namespaces);
      const memory: Omit<Memory, 'object'> = {
        key: key ?? contentKey(o, namespace),
        namespace,
        summary: checkSummary(String(o.summary ?? '')),
        body: checkBody(String(o.body ?? '')),
        created,
        updated: o.updated === undefined ? created : (normalizeTimestamp(o.updated) ?? fail('updated is not a date')),
        tags: list(o.tags),
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
  const memories: Memory[] = parsed.map((p, i) => {
    const object = p.commit ? resolved.get(p.commit) : fallback();
    if (!object) throw new UsageError(`line ${p.line}: no such commit ${p.commit} in this repository; nothing was imported`);
    // Redaction is most of the work: report it.
    if (i % 500 === 499) progress?.(i + 1, parsed.length);
    return sealMemory(ctx, { ...p.memory, object }).memory;
  });

  const present = (await ctx.index()).presentKeys(memories.map((m) => m.key));
  const seen = new Set<string>();
  const fresh = memories.filter((m) => {
    const id = `${m.namespace}:${m.key}`;
    if (present.has(id) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  const imported = appendAll(ctx, fresh, `import ${fresh.length} ${fresh.length === 1 ? 'memory' : 'memories'}`, (existing, m) => existing.key === m.key).length;
  progress?.(memories.length, memories.length);
  return { imported, unchanged: memories.length - imported };
}

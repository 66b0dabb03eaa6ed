/**
 * Export and import of memories as JSONL (one memory per line, the `--json`
 * shape). A round trip keeps ids, timestamps and metadata; a line without a key
 * gets a new one. Import checks every line before writing anything, then writes
 * one notes commit per namespace.
 */
import { UsageError } from '../core/errors.ts';
import { refKey } from '../core/lifecycle/links.ts';
import { sha1Hex } from '../core/hash.ts';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claudeMarkdown, proposalsFrom } from '../core/claude-md.ts';
import { formatId, isStatus, KEY_LENGTH, type Memory, PATHS_MAX } from '../core/memory.ts';
import { normalizeForNovelty } from '../core/signals.ts';
import { worktreeTop } from '../stores/git/repo.ts';
import { serializeMemory } from '../core/note-format.ts';
import { normalizeTimestamp, canonicalTime } from '../core/time.ts';
import { checkBody, checkNamespace, checkPaths, checkSummary } from '../core/validate.ts';
import type { Deps } from './deps.ts';
import type { CaptureDeps } from './capture.ts';
import { memoryJson } from '../core/memory-json.ts';
import { readBatch, writeObject } from '../stores/git/objects.ts';
import { resolveCommit } from '../stores/git/history.ts';
import { appendAll, sealMemory } from './capture.ts';
import { connectNew } from './lifecycle/connect.ts';

/** What this file's services use. */
export type TransferDeps = Pick<Deps, 'index' | 'now' | 'repo' | 'settings'> & CaptureDeps;

export const EXPORT_FORMATS = ['jsonl', 'md', 'claude-md'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export async function exportMemories(ctx: TransferDeps, options: { namespaces?: string[]; format: ExportFormat }): Promise<string> {
  if (options.format === 'claude-md') {
    // Newest first: what CLAUDE.md readers should see first.
    const current = (await ctx.index.current()).list({ namespaces: options.namespaces ?? ['decisions', 'patterns', 'blockers'], statuses: ['active'] });
    return claudeMarkdown(current, formatId);
  }
  const memories = (await ctx.index.current()).list({ namespaces: options.namespaces }).reverse(); // oldest first
  if (options.format === 'md') return memories.map(serializeMemory).join('\n\n') + (memories.length ? '\n' : '');
  return memories.map((m) => JSON.stringify(memoryJson(m))).join('\n') + (memories.length ? '\n' : '');
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : []);

export interface ImportResult {
  imported: number;
  /** Lines whose memory (same key) is already here, anywhere, or earlier in the file. */
  unchanged: number;
  /** What was imported (with --dry-run: what would be). */
  memories: Memory[];
  /** Of those, how many name a commit this repository lacks and were attached to --attach-to's (`attachedTo`). */
  attached?: number;
  attachedTo?: string;
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
export async function importMemories(ctx: TransferDeps, text: string, progress?: (done: number, total: number) => void, options: { attachTo?: string } = {}): Promise<ImportResult> {
  const records: Array<{ line: number; o: Record<string, unknown> }> = [];
  text.split('\n').forEach((raw, i) => {
    if (!raw.trim()) return;
    const line = i + 1;
    let v: unknown;
    try {
      v = JSON.parse(raw);
    } catch {
      throw new UsageError(`line ${line}: not valid JSON; nothing was imported`);
    }
    if (!v || typeof v !== 'object' || Array.isArray(v)) throw new UsageError(`line ${line}: not a JSON object; nothing was imported`);
    records.push({ line, o: v as Record<string, unknown> });
  });
  return importRecords(ctx, records, { progress, attachTo: options.attachTo });
}

/**
 * Records in the import shape (numbered for errors): all checked, then all written or none.
 * With `dryRun`, what would be imported is returned and nothing is written.
 */
async function importRecords(
  ctx: TransferDeps,
  records: ReadonlyArray<{ line: number; o: Record<string, unknown> }>,
  options: { progress?: (done: number, total: number) => void; dryRun?: boolean; attachTo?: string } = {},
): Promise<ImportResult> {
  const progress = options.progress;
  // Where lines go whose commit this repository lacks (another repository's export).
  let attachTo: string | undefined;
  if (options.attachTo !== undefined) {
    attachTo = resolveCommit(ctx.repo, options.attachTo) ?? undefined;
    if (!attachTo) throw new UsageError(`--attach-to: no such commit ${options.attachTo} in this repository; nothing was imported`);
  }
  // Lines without a time are given the import's, a millisecond apart in file order (the last line at the import's time): they list in the file's order.
  const now = ctx.now().getTime();
  let untimed = records.filter(({ o }) => o.created === undefined).length;
  const parsed: Array<{ line: number; memory: Omit<Memory, 'object'>; commit?: string; keyed: boolean }> = [];
  for (const { line, o } of records) {
    const fail = (why: string): never => {
      throw new UsageError(`line ${line}: ${why}; nothing was imported`);
    };
    try {
      const key = str(o.key)?.toLowerCase();
      if (key !== undefined && !/^[0-9a-f]{8,40}$/.test(key)) fail(`key '${key}' is not 8 to 40 hex digits`);
      const created = o.created === undefined ? canonicalTime(new Date(now - --untimed)) : (normalizeTimestamp(o.created) ?? fail('created is not a date'));
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
      const paths = checkPaths(list(o.paths));
      if (paths.length) memory.paths = paths.slice(0, PATHS_MAX);
      // What the export recorded of its commit, kept for a round trip (reanchoring matches on it once the commit is gone).
      if (str(o.commit_subject)) memory.commitSubject = str(o.commit_subject);
      const patchId = str(o.patch_id)?.toLowerCase();
      if (patchId && /^[0-9a-f]{40,64}$/.test(patchId)) memory.patchId = patchId;
      // Lifecycle links, so an export imported elsewhere keeps its consolidations and supersessions; only what names a memory.
      const refs = (v: unknown) => list(v).filter((r) => refKey(r) !== null);
      for (const field of ['consolidates', 'supersedes'] as const) if (refs(o[field]).length) memory[field] = refs(o[field]);
      const into = refs(o.consolidated_into)[0];
      const by = refs(o.superseded_by)[0];
      if (into) memory.consolidatedInto = into;
      if (by) memory.supersededBy = by;
      if (typeof o.reprieves === 'number' && Number.isInteger(o.reprieves) && o.reprieves > 0) memory.reprieves = o.reprieves;
      parsed.push({ line, memory, commit: str(o.commit), keyed: key !== undefined });
    } catch (err) {
      if (err instanceof UsageError && !err.message.startsWith('line ')) fail(err.message);
      throw err;
    }
  }

  // Every named commit must exist here; one process checks them all.
  const commits = [...new Set(parsed.flatMap((p) => (p.commit ? [p.commit] : [])))];
  const found = readBatch(ctx.repo, commits.map((c) => `${c}^{commit}`));
  const resolved = new Map(commits.map((c, i) => [c, found[i]?.oid]));
  const fallback = () => ctx.repo.head ?? writeObject(ctx.repo, 'tree', Buffer.alloc(0));
  const memories: Memory[] = parsed.map((p, i) => {
    const object = p.commit ? (resolved.get(p.commit) ?? attachTo) : fallback();
    if (!object) {
      throw new UsageError(
        `line ${p.line}: no such commit ${p.commit} in this repository; nothing was imported`,
        'give --attach-to <rev> to attach the lines whose commit is missing to a commit here (git mem import --attach-to HEAD <file>)',
      );
    }
    // Redaction is most of the work: report it.
    if (i % 500 === 499) progress?.(i + 1, parsed.length);
    return sealMemory(ctx, { ...p.memory, object }).memory;
  });

  // Keys the term index has surely never seen need no look-up; the others are asked of the SQLite index, which knows every revision and tombstone.
  const terms = await ctx.index.current();
  const maybe = memories.filter((m) => terms.mayHoldKey(m.key)).map((m) => m.key);
  const present = maybe.length ? await ctx.index.presentKeys(maybe) : new Set<string>();
  const seen = new Set<string>();
  const fresh = memories.filter((m) => {
    const id = `${m.namespace}:${m.key}`;
    if (present.has(id) || seen.has(id)) return false;
    seen.add(id);
    return true;
  });
  // New content is linked to what it resembles; a memory that comes with its key (an export) keeps its links as they were.
  // A memory is its namespace and key: two namespaces may share a key.
  const idOf = (m: { namespace: string; key: string }) => `${m.namespace}:${m.key}`;
  const keyed = new Set(parsed.filter((p) => p.keyed).map((p) => idOf(p.memory)));
  const unkeyed = fresh.filter((m) => !keyed.has(idOf(m)));
  const linked = new Map(connectNew(ctx, unkeyed).map((m) => [idOf(m), m]));
  const toWrite = fresh.map((m) => linked.get(idOf(m)) ?? m);
  const missing = new Set(parsed.filter((p) => p.commit && !resolved.get(p.commit)).map((p) => idOf(p.memory)));
  const attachedOf = (list: readonly Memory[]) => (attachTo ? { attached: list.filter((m) => missing.has(idOf(m))).length, attachedTo: attachTo } : {});
  if (options.dryRun) return { imported: toWrite.length, unchanged: memories.length - toWrite.length, memories: toWrite, ...attachedOf(toWrite) };
  const written = appendAll(ctx, toWrite, `import ${toWrite.length} ${toWrite.length === 1 ? 'memory' : 'memories'}`, (existing, m) => existing.key === m.key);
  progress?.(memories.length, memories.length);
  return { imported: written.length, unchanged: memories.length - written.length, memories: written, ...attachedOf(written) };
}

/** Where Claude Code keeps its memory of this project: CLAUDE.md files in the work tree, and its auto memory under ~/.claude. */
export function claudeMemoryFiles(ctx: Pick<Deps, 'repo' | 'env'>): string[] {
  const top = worktreeTop(ctx.repo);
  const files = top ? [path.join(top, 'CLAUDE.md'), path.join(top, '.claude', 'CLAUDE.md')] : [];
  const home = ctx.env.HOME || os.homedir();
  if (top) {
    // Claude Code names a project's folder after its path, every character but letters and digits as '-'.
    const dir = path.join(home, '.claude', 'projects', top.replace(/[^A-Za-z0-9]/g, '-'), 'memory');
    try {
      for (const name of fs.readdirSync(dir).sort()) if (name.endsWith('.md')) files.push(path.join(dir, name));
    } catch {
      // No auto memory for this project.
    }
  }
  return files.filter((f) => {
    try {
      return fs.statSync(f).isFile();
    } catch {
      return false;
    }
  });
}

export interface ClaudeImportResult extends ImportResult {
  files: string[];
  /** Proposals left out because a memory here already says the same. */
  duplicates: number;
}

/**
 * `git mem import --from claude`: the items of Claude Code's memory files as memories (namespace
 * guessed by the signal detector, else from the heading), through the same checks, redaction and
 * dedup as any import; a proposal whose words a memory here already has is left out.
 */
export async function importFromClaude(ctx: TransferDeps & Pick<Deps, 'env'>, options: { dryRun?: boolean } = {}): Promise<ClaudeImportResult> {
  const files = claudeMemoryFiles(ctx);
  const namespaces = ctx.settings.namespaces.map((n) => n.name);
  const proposals = files.flatMap((file) => proposalsFrom(file, fs.readFileSync(file, 'utf8'), namespaces));
  const held = new Set((await ctx.index.current()).list({}).map((m) => `${m.namespace}:${normalizeForNovelty(m.summary)}`));
  const fresh = proposals.filter((p) => !held.has(`${p.namespace}:${normalizeForNovelty(p.summary)}`));
  const records = fresh.map((p, i) => ({ line: i + 1, o: { namespace: p.namespace, summary: p.summary, body: p.body, tags: ['claude-memory'], source: `import:claude:${path.basename(p.file)}` } as Record<string, unknown> }));
  const result = await importRecords(ctx, records, options);
  return { ...result, files, duplicates: proposals.length - fresh.length };
}

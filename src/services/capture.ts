/** Capturing a memory: validate, redact, and append a document to the note on the target commit. */
import { randomBytes } from 'node:crypto';
import { GitMemError, NotFoundError, UsageError } from '../core/errors.ts';
import { formatId, KEY_LENGTH, type Memory, PATHS_MAX, type Status } from '../core/memory.ts';
import { parseNote, serializeMemory, serializeNote } from '../core/note-format.ts';
import { type Redaction, redact } from '../core/redact.ts';
import { canonicalTime, isoSeconds } from '../core/time.ts';
import { checkBody, checkNamespace, checkStatus, checkSummary } from '../core/validate.ts';
import type { AppContext } from '../context.ts';
import { changedPaths } from '../stores/git/changes.ts';
import { writeObject } from '../stores/git/objects.ts';
import type { Repo } from '../stores/git/repo.ts';

export interface CaptureInput {
  namespace: string;
  summary: string;
  body?: string;
  tags?: string[];
  spec?: string;
  phase?: string;
  status?: string;
  relatesTo?: string[];
  /** Revision to attach to; HEAD by default. */
  commit?: string;
  forceTruncate?: boolean;
  source?: string;
  confidence?: number;
  /** Files the commit changed (recordedPaths). */
  paths?: string[];
}

export interface CaptureResult {
  id: string;
  memory: Memory;
  /** Types of secrets that were redacted. */
  redacted: string[];
}

/** The commit to attach to; in a repository with no commits yet, the empty tree (git notes can annotate any object). */
export function resolveTarget(repo: Repo, rev?: string): string {
  if (rev) {
    const r = repo.git.exec(['rev-parse', '--verify', '-q', '--end-of-options', `${rev}^{commit}`]);
    if (r.status !== 0) throw new NotFoundError(`no such commit: ${rev}`);
    return r.stdout.toString('utf8').trim();
  }
  return repo.head ?? writeObject(repo, 'tree', Buffer.alloc(0));
}

export function newKey(): string {
  return randomBytes(KEY_LENGTH / 2).toString('hex');
}

/**
 * Applies mem.secrets to one text: redact (default) replaces each secret with
 * [REDACTED:<type>]; block refuses the capture; warn keeps the text (reported).
 */
export function cleaner(ctx: AppContext): (text: string) => Redaction {
  const { secrets, secretsAllow } = ctx.settings;
  return (text) => {
    const r = redact(text, { allow: secretsAllow });
    if (r.found.length === 0 || secrets === 'redact') return r;
    if (secrets === 'block') {
      throw new UsageError(`refusing to store a secret (${[...new Set(r.found)].join(', ')}); remove it, or set mem.secrets to redact`);
    }
    return { text, found: r.found };
  };
}

/** Builds the memory from validated, redacted input (the settings decide the secrets policy and author). */
export function buildMemory(ctx: AppContext, input: CaptureInput, object: string): CaptureResult {
  const namespace = checkNamespace(input.namespace, ctx.settings.namespaces);
  const clean = cleaner(ctx);
  const summary = clean(checkSummary(input.summary, input.forceTruncate));
  const body = clean(checkBody(input.body ?? ''));
  const tags = (input.tags ?? []).map(clean);
  const status: Status = input.status ? checkStatus(input.status) : 'active';
  const now = ctx.now();
  const memory: Memory = {
    key: newKey(),
    namespace,
    object,
    summary: summary.text,
    body: body.text,
    created: isoSeconds(now),
    updated: canonicalTime(now),
    tags: tags.map((t) => t.text),
    status,
    relatesTo: input.relatesTo ?? [],
    author: ctx.settings.author,
  };
  if (input.spec) memory.spec = input.spec;
  if (input.phase) memory.phase = input.phase;
  if (input.source) memory.source = input.source;
  if (input.confidence !== undefined) memory.confidence = input.confidence;
  if (input.paths?.length) memory.paths = input.paths.slice(0, PATHS_MAX);
  return { id: formatId(memory), memory, redacted: [summary, body, ...tags].flatMap((r) => r.found) };
}

/** The files a commit changed, recorded with a memory so it stays tied to them if the commit is rewritten away. */
export function recordedPaths(repo: Repo, object: string): string[] | undefined {
  const paths = changedPaths(repo, [object], PATHS_MAX).get(object);
  return paths?.length ? paths : undefined;
}

export function captureMemory(ctx: AppContext, input: CaptureInput): CaptureResult {
  // Validate before touching git, so bad input writes nothing.
  checkNamespace(input.namespace, ctx.settings.namespaces);
  const object = resolveTarget(ctx.repo, input.commit);
  const result = buildMemory(ctx, { ...input, paths: recordedPaths(ctx.repo, object) }, object);
  appendMemories(ctx, result.memory.namespace, [result.memory], `capture ${result.id}`);
  return result;
}

/**
 * Appends memories to the notes of their objects in one notes commit. With
 * `isDuplicate`, a memory the note already holds (as judged against each existing
 * one) is left out; the check runs inside the compare-and-swap, so parallel
 * writers of the same memory leave one copy. Returns the memories written.
 */
export function appendMemories(
  ctx: AppContext,
  namespace: string,
  memories: readonly Memory[],
  message: string,
  isDuplicate?: (existing: Memory, candidate: Memory) => boolean,
): Memory[] {
  const objects = [...new Set(memories.map((m) => m.object))];
  let written: Memory[] = [];
  ctx.notes.update(namespace, objects, (current) => {
    written = [];
    const changes = new Map<string, string | null>();
    for (const object of objects) {
      const existing = current.get(object);
      const parsed = existing ? parseNote(existing, namespace, object) : { docs: [], binary: false };
      if (parsed.binary) {
        throw new GitMemError(`the ${namespace} note on ${object.slice(0, 7)} holds binary content; git-mem will not rewrite it`, 'attach the memory to another commit with --commit');
      }
      const held = parsed.docs.flatMap((d) => (d.kind === 'memory' ? [d.memory] : []));
      const fresh = memories.filter((m) => m.object === object && !(isDuplicate && held.some((e) => isDuplicate(e, m))));
      if (fresh.length === 0) continue;
      written.push(...fresh);
      changes.set(object, serializeNote([...parsed.docs, ...fresh.map((m) => ({ raw: serializeMemory(m) }))]));
    }
    return { changes, message };
  });
  return written;
}

/** Capturing a memory: validate, redact, and append a document to the note on the target commit. */
import { randomBytes } from 'node:crypto';
import { GitMemError, NotFoundError, UsageError } from '../core/errors.ts';
import { formatId, KEY_LENGTH, type Memory, PATHS_MAX, type Status } from '../core/memory.ts';
import { appendToNote, parseNoteExcept, parseNoteTail, serializeMemory } from '../core/note-format.ts';
import { redactMemory } from '../core/redact/memory-redaction.ts';
import { type Redaction, redact } from '../core/redact/redact.ts';
import { redactIdent } from '../core/ident.ts';
import { canonicalTime, isoSeconds } from '../core/time.ts';
import { checkBody, checkNamespace, checkStatus, checkSummary } from '../core/validate.ts';
import type { Deps } from './deps.ts';
import { connectNew, MAX_LINKS } from './lifecycle/connect.ts';
import { linkRef } from '../core/lifecycle/links.ts';
import { linkToSimilar } from '../core/search/similarity.ts';
import { changedPaths, subjectAndPatchId, trackedFiles } from '../stores/git/changes.ts';
import { chooseScope } from '../core/history/scope.ts';
import { writeObject } from '../stores/git/objects.ts';
import type { Repo } from '../stores/git/repo.ts';
import { resolveCommit } from '../stores/git/history.ts';
import { recordHeld } from '../stores/cache/held-log.ts';

/** What this file's services use. */
export type CaptureDeps = Pick<Deps, 'notes' | 'now' | 'repo' | 'settings' | 'index'>;

export interface CaptureInput {
  namespace: string;
  summary: string;
  body?: string;
  tags?: string[];
  spec?: string;
  phase?: string;
  status?: string;
  relatesTo?: string[];
  /** Links (core/lifecycle/links.ts linkRef) to the memories this one replaces (see markSuperseded). */
  supersedes?: string[];
  /** Revision to attach to; HEAD by default. */
  commit?: string;
  forceTruncate?: boolean;
  source?: string;
  confidence?: number;
  /** What the memory is about (core/history/scope.ts): given, it is kept as it is (empty: about nothing in particular); else chosen at capture (scopeAt). */
  paths?: string[];
  /** The files the session was working on (hooks), a hint for scopeAt. */
  working?: string[];
  /** Facts of the commit, recorded for reanchoring once it is gone (commitFactsAt). */
  recorded?: CommitFacts;
}

/** What a memory records of its commit at capture (Memory.commitSubject, Memory.patchId). */
export type CommitFacts = Pick<Memory, 'commitSubject' | 'patchId'>;

/** A commit's diff past this size is not worth a patch-id at capture (its files and subject still match it). */
const MAX_PATCH_BYTES = 1 << 20;

/**
 * The facts of `object` its memories record at capture, read once for all
 * the memories of one capture: the subject and the patch-id (one `diff-tree
 * -p` piped to one `patch-id`), which git loses with the commit.
 * Nothing for what is not a commit (the empty tree of a repository with no commits yet).
 */
export function commitFactsAt(repo: Repo, object: string): () => CommitFacts {
  let facts: CommitFacts | undefined;
  return () => {
    if (facts) return facts;
    const { subject, patchId } = subjectAndPatchId(repo, object, MAX_PATCH_BYTES);
    facts = { ...(subject ? { commitSubject: subject } : {}), ...(patchId ? { patchId } : {}) };
    return facts;
  };
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
    const commit = resolveCommit(repo, rev);
    if (!commit) throw new NotFoundError(`no such commit: ${rev}`);
    return commit;
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
export function cleaner(ctx: Pick<Deps, 'settings'>): (text: string) => Redaction {
  const { secrets, secretsAllow } = ctx.settings;
  return (text) => {
    // With the secrets whose copies the memory's other fields lose too (redactMemory).
    const r = redact(text, { allow: secretsAllow, copies: true });
    if (r.found.length === 0 || secrets === 'redact') return r;
    if (secrets === 'block') {
      throw new UsageError(`refusing to store a secret (${[...new Set(r.found)].join(', ')}); remove it, or set mem.secrets to redact`);
    }
    return { text, found: r.found };
  };
}

/**
 * The identity notes commits are written under: git's committer, its name and
 * email redacted as a memory's author is (the notes ref travels with the notes).
 * mem.secrets=warn keeps it; block redacts it too, rather than refuse every write.
 */
export function notesIdent(ctx: Pick<Deps, 'settings'>): string {
  const { committerIdent, secrets, secretsAllow } = ctx.settings;
  if (secrets === 'warn') return committerIdent;
  return redactIdent(committerIdent, (text) => redact(text, { allow: secretsAllow }).text);
}

/**
 * The memory as it is written: every text field redacted (core/redact/memory-redaction.ts,
 * under mem.secrets), the summary cut to size after that. Every path that
 * writes a memory (capture, hooks, edit, import) passes through here.
 */
export function sealMemory(ctx: Pick<Deps, 'settings'>, memory: Memory): { memory: Memory; found: string[] } {
  return redactMemory(memory, cleaner(ctx));
}

/** Builds the memory from validated input, redacted (the settings decide the secrets policy and author). */
export function buildMemory(ctx: CaptureDeps, input: CaptureInput, object: string): CaptureResult {
  const namespace = checkNamespace(input.namespace, ctx.settings.namespaces);
  const status: Status = input.status ? checkStatus(input.status) : 'active';
  const now = ctx.now();
  const draft: Memory = {
    key: newKey(),
    namespace,
    object,
    summary: checkSummary(input.summary, input.forceTruncate),
    body: checkBody(input.body ?? ''),
    created: isoSeconds(now),
    updated: canonicalTime(now),
    tags: input.tags ?? [],
    status,
    relatesTo: input.relatesTo ?? [],
    author: ctx.settings.author,
  };
  if (input.spec) draft.spec = input.spec;
  if (input.phase) draft.phase = input.phase;
  if (input.source) draft.source = input.source;
  if (input.confidence !== undefined) draft.confidence = input.confidence;
  if (input.paths?.length) draft.paths = input.paths.slice(0, PATHS_MAX);
  if (input.supersedes?.length) draft.supersedes = input.supersedes;
  if (input.recorded?.commitSubject) draft.commitSubject = input.recorded.commitSubject;
  if (input.recorded?.patchId) draft.patchId = input.recorded.patchId;
  const { memory, found } = sealMemory(ctx, draft);
  return { id: formatId(memory), memory, redacted: found };
}

/**
 * What a memory captured on `object` is about (core/history/scope.ts chooseScope):
 * the given paths; else the files the session worked on and those its text
 * names (the files of the commit's tree, one `git ls-tree -r`); else the commit's files
 * when the commit is small. Recorded, so the memory keeps its scope when its
 * commit is rewritten away.
 */
export function scopeAt(repo: Repo, object: string): (s: { given?: string[]; working?: string[]; text: string }) => string[] | undefined {
  let files: { commit: string[]; repo: string[] } | undefined;
  return (s) => {
    if (s.given) return s.given.length ? s.given.slice(0, PATHS_MAX) : undefined;
    // Read once for all the memories of one capture.
    files ??= { commit: changedPaths(repo, [object], PATHS_MAX).get(object) ?? [], repo: trackedFiles(repo, object) };
    const paths = chooseScope({ working: s.working, text: s.text, commitFiles: files.commit, repoFiles: files.repo }, PATHS_MAX);
    return paths.length ? paths : undefined;
  };
}

/** A capture from the command line or MCP (the hooks use services/session/hook-capture.ts). */
export async function captureMemory(ctx: CaptureDeps, input: CaptureInput): Promise<CaptureResult> {
  // Validate before touching git, so bad input writes nothing.
  checkNamespace(input.namespace, ctx.settings.namespaces);
  const object = resolveTarget(ctx.repo, input.commit);
  const paths = scopeAt(ctx.repo, object)({ given: input.paths, working: input.working, text: `${input.summary}\n${input.body ?? ''}` });
  const built = buildMemory(ctx, { ...input, paths, recorded: commitFactsAt(ctx.repo, object)() }, object);
  // Linked to the memories it resembles (relates_to) by words, from what the index holds now. The
  // embedding model is never loaded here: the memory's vector is computed by the next semantic recall.
  const [linked] = connectNew(ctx, [built.memory]);
  const [memory] = appendMemories(ctx, linked!.namespace, [linked!], `capture ${built.id}`, undefined, { connect: ctx.settings.connectThreshold });
  return { ...built, memory: memory! };
}

/**
 * Appends memories to the notes of their objects in one notes commit. With
 * `isDuplicate`, a memory the note already holds (as judged against each
 * existing one the index has not seen: see appendAll) is left out; the check
 * runs inside the compare-and-swap, so parallel writers of the same memory
 * leave one copy. Returns the memories written.
 */
export function appendMemories(
  ctx: CaptureDeps,
  namespace: string,
  memories: readonly Memory[],
  message: string,
  isDuplicate?: (existing: Memory, candidate: Memory) => boolean,
  options: { connect?: number } = {},
): Memory[] {
  return appendAll(ctx, memories.filter((m) => m.namespace === namespace), message, isDuplicate, options);
}

/**
 * appendMemories for memories of any namespaces: one notes commit per namespace, the refs moved together (all or none).
 *
 * An append costs the memories appended, not the note: the note's text is
 * kept as it is and the new documents added at its end. Of its documents,
 * only those the term index (as this process holds it) cannot hold are read,
 * for the duplicate check and the links: the others were searched already
 * (connectNew's neighbours, the hooks' novelty check, the import's key
 * check), and a note of 10,000 memories (an import without commits) is not
 * parsed for one capture. Without an index every document is read.
 */
export function appendAll(
  ctx: CaptureDeps,
  memories: readonly Memory[],
  message: string,
  isDuplicate?: (existing: Memory, candidate: Memory) => boolean,
  options: { /** Link each memory to the similar ones its note holds, at this threshold. */ connect?: number } = {},
): Memory[] {
  const namespaces = [...new Set(memories.map((m) => m.namespace))];
  const written = new Map<string, Memory[]>();
  let index: ReturnType<CaptureDeps['index']['asIs']> | undefined;
  const seen = (key: string) => {
    if (index === undefined) {
      try {
        index = ctx.index.asIs();
      } catch {
        index = null;
      }
    }
    return index?.mayHoldKey(key) ?? false;
  };
  ctx.notes.updateAll(
    namespaces.map((namespace) => {
      const mine = memories.filter((m) => m.namespace === namespace);
      const objects = [...new Set(mine.map((m) => m.object))];
      return {
        namespace,
        objects,
        modify: (current: Map<string, string | null>) => {
          const fresh = appendToNotes(namespace, objects, mine, current, { isDuplicate, connect: options.connect, seen });
          written.set(namespace, fresh.written);
          return { changes: fresh.changes, message };
        },
      };
    }),
  );
  const out = namespaces.flatMap((ns) => written.get(ns) ?? []);
  // The commits exist here now: once gone, they were pruned here (stores/cache/held-log.ts).
  recordHeld(ctx.repo, out.map((m) => m.object));
  return out;
}

/** A capture links to at most this many documents appended to its note since the index saw it, the latest. */
const NOTE_LINK_MAX = 50;

function appendToNotes(
  namespace: string,
  objects: readonly string[],
  memories: readonly Memory[],
  current: Map<string, string | null>,
  options: { isDuplicate?: (existing: Memory, candidate: Memory) => boolean; connect?: number; seen: (key: string) => boolean },
): { changes: Map<string, string | null>; written: Memory[] } {
  const { isDuplicate, seen } = options;
  const connect = options.connect !== undefined && options.connect < 1 ? options.connect : undefined;
  const written: Memory[] = [];
  const changes = new Map<string, string | null>();
  // The memories of each commit, grouped once: an import of 100,000 onto 2,000 commits otherwise scans them all per commit.
  const byObject = new Map<string, Memory[]>();
  for (const m of memories) (byObject.get(m.object) ?? byObject.set(m.object, []).get(m.object)!).push(m);
  for (const object of objects) {
    const existing = current.get(object) || null;
    if (existing?.includes('\0')) {
      throw new GitMemError(`the ${namespace} note on ${object.slice(0, 7)} holds binary content; git-mem will not rewrite it`, 'attach the memory to another commit with --commit');
    }
    // Only what the duplicate check and the links need, and of that only what the index has not seen:
    // every such document for a duplicate check; for links alone, those appended since the index
    // last saw the note, at most NOTE_LINK_MAX (a note an import just filled holds thousands).
    const needed = !existing ? [] : isDuplicate ? parseNoteExcept(existing, namespace, object, seen).docs : connect !== undefined ? parseNoteTail(existing, namespace, object, seen, NOTE_LINK_MAX).docs : [];
    const held = needed.flatMap((d) => (d.kind === 'memory' ? [d.memory] : []));
    const fresh = (byObject.get(object) ?? [])
      .filter((m) => !(isDuplicate && held.some((e) => isDuplicate(e, m))))
      // The note's own memories are linked too: captured since the index last caught up, the search could not see them.
      .map((m) => (connect !== undefined ? linkToSimilar(m, held.filter((h) => h.status !== 'archived'), connect, linkRef, MAX_LINKS) : m));
    if (fresh.length === 0) continue;
    written.push(...fresh);
    changes.set(object, appendToNote(existing, fresh.map(serializeMemory)));
  }
  return { changes, written };
}

/**
 * No secret leaves the machine: `git mem push`, `git mem sync` and the pre-push
 * git hook scan the note blobs a push would send (those in the notes commits
 * the remote, as last seen, does not have: stores/git/new-notes.ts) with the
 * redaction rules, whoever wrote the notes, and refuse the push when one holds
 * a secret, naming the memory and the kind of secret. `--no-verify` pushes anyway.
 */
import { GitMemError } from '../core/errors.ts';
import { JsonFile } from '../stores/cache/json-file.ts';
import { NOTES_REF_PREFIX } from '../core/namespaces.ts';
import { type NoteSecret, noteDocDigests, noteSecrets, secretLines } from '../core/redact/note-secrets.ts';
import { newNoteBlobs, presentCommits } from '../stores/git/new-notes.ts';
import { refTips } from '../stores/git/remotes.ts';
import type { Deps } from './deps.ts';

export type NoteSecretsDeps = Pick<Deps, 'repo' | 'notes' | 'settings'>;

/** Set by `git mem push` on the git push it runs once it has scanned (or was told --no-verify): the pre-push hook then does not scan again. */
export const VERIFIED_ENV = 'GIT_MEM_PUSH_VERIFIED';

/** One namespace's ref as a push would send it: the local tip, and what the remote has of it (null: nothing known). */
export interface PushedRef {
  namespace: string;
  local: string;
  remote: string | null;
}

/** Secrets in the note blobs reachable from `tips` and not from `known`, in namespace `ns` (from the path of the ref). */
export function scanNewNotes(ctx: NoteSecretsDeps, namespace: string, tips: readonly string[], known: readonly string[]): NoteSecret[] {
  const notes = newNoteBlobs(ctx.repo, tips, known);
  if (notes.length === 0) return [];
  const texts = ctx.notes.readTexts(notes.map((n) => n.blob));
  const allow = ctx.settings.secretsAllow;
  return notes.flatMap((n) => {
    const text = texts.get(n.blob);
    return text === undefined ? [] : noteSecrets(text, namespace, n.object, n.blob, allow);
  });
}

/**
 * Secrets in what pushing these refs would send; `known`: other commits the remote has (its tracking refs).
 * A document the remote already holds, as it is, on the same object is not counted: a merge
 * writes a new note blob that carries the remote's documents along (someone pushed it with --no-verify).
 */
export function scanPushedRefs(ctx: NoteSecretsDeps, refs: readonly PushedRef[], known: readonly string[]): NoteSecret[] {
  const found = refs.flatMap((r) => scanNewNotes(ctx, r.namespace, [r.local], [...(r.remote ? [r.remote] : []), ...known]));
  if (found.length === 0) return found;
  const objects = new Set(found.map((f) => f.object));
  const theirs: Array<{ namespace: string; object: string; blob: string }> = [];
  for (const r of refs) {
    if (!found.some((f) => f.namespace === r.namespace)) continue;
    for (const tip of presentCommits(ctx.repo, [...(r.remote ? [r.remote] : []), ...known])) {
      for (const n of ctx.notes.listNotes(tip)) if (objects.has(n.object)) theirs.push({ namespace: r.namespace, object: n.object, blob: n.blob });
    }
  }
  if (theirs.length === 0) return found;
  const texts = ctx.notes.readTexts(theirs.map((t) => t.blob));
  const held = new Set<string>();
  for (const t of theirs) {
    const text = texts.get(t.blob);
    if (text !== undefined) for (const d of noteDocDigests(text, t.namespace, t.object)) held.add(`${t.namespace} ${t.object} ${d}`);
  }
  return found.filter((f) => !held.has(`${f.namespace} ${f.object} ${f.doc}`));
}

/** The refs `git mem push` sends to a remote whose memory refs were last seen at `tracking` (namespace → tip). */
export function pushedRefs(ctx: NoteSecretsDeps, tracking: Map<string, string>): PushedRef[] {
  return [...ctx.notes.tips()].filter(([ns, tip]) => tracking.get(ns) !== tip).map(([namespace, local]) => ({ namespace, local, remote: tracking.get(namespace) ?? null }));
}

/**
 * The refs of a pre-push hook's input (`<local ref> <local sha> <remote ref> <remote sha>` lines)
 * that send memories: a local or remote ref under refs/notes/mem/, not a deletion.
 */
export function prePushRefs(input: string): PushedRef[] {
  const out: PushedRef[] = [];
  for (const line of input.split('\n')) {
    const [localRef = '', local = '', remoteRef = '', remote = ''] = line.trim().split(/\s+/);
    const ref = localRef.startsWith(NOTES_REF_PREFIX) ? localRef : remoteRef.startsWith(NOTES_REF_PREFIX) ? remoteRef : null;
    if (!ref || !/^[0-9a-f]{40,64}$/.test(local) || /^0+$/.test(local)) continue;
    out.push({ namespace: ref.slice(NOTES_REF_PREFIX.length), local, remote: /^0+$/.test(remote) ? null : remote });
  }
  return out;
}

/** The refusal: each memory with the kinds of secret, and how to go on. `push`: the command to retry with --no-verify. */
export function secretsRefusal(ctx: NoteSecretsDeps, found: readonly NoteSecret[], refs: readonly PushedRef[], destination: string, push: string): GitMemError {
  // Which findings are in the notes as they are now (an edit or forget takes them out), and which only in the history pushed with them.
  const current = new Set<string>();
  for (const r of refs) if (found.some((f) => f.namespace === r.namespace)) for (const n of ctx.notes.listNotes(r.local)) current.add(n.blob);
  const lines = secretLines(found, current);
  const squash = [...new Set(found.map((f) => f.namespace))].map((ns) => {
    const remote = refs.find((r) => r.namespace === ns)?.remote;
    const ref = `${NOTES_REF_PREFIX}${ns}`;
    // The notes commits not yet pushed still hold the secret after an edit: one commit on what the remote has replaces them.
    return `git update-ref ${ref} "$(git commit-tree${remote ? ` -p ${remote}` : ''} -m 'git-mem: squash unpushed notes' ${ref}^{tree})"`;
  });
  const inNotes = found.filter((f) => current.has(f.blob));
  const noFrontMatter = inNotes.some((f) => !f.memory);
  const n = new Set(found.map((f) => f.id)).size;
  return new GitMemError(
    [
      `refusing to push to ${destination}: ${n === 1 ? 'a memory holds a secret' : `${n} memories hold secrets`} (the memory, then the kind of secret):`,
      ...lines,
      ...(inNotes.length
        ? [
            `to fix: take each secret out with git mem edit <id>, or drop the memory with git mem forget <id>${noFrontMatter ? ' (a note with no memory front matter: git notes --ref=refs/notes/mem/<namespace> edit <commit>)' : ''};`,
            `  then squash the notes commits not yet pushed, which still hold it: ${squash.join(' && ')}`,
          ]
        : [`to fix: squash the notes commits not yet pushed, which hold it: ${squash.join(' && ')}`]),
      `  or, if it is no secret, push anyway: ${push} --no-verify`,
    ].join('\n'),
  );
}

/** A secret found in the notes as they are: in which ref (a namespace's, or a remote's tracking ref: pulled). */
export interface StoredSecret extends NoteSecret {
  ref: string;
}

export interface NotesScan {
  /** Note blobs read this time (the others were scanned before). */
  scanned: number;
  ms: number;
  /** Secrets in notes as they are now, found this time or before. */
  found: StoredSecret[];
  /** Refs left for the next run: the time budget ran out. */
  unfinished: string[];
}

interface ScanCache {
  /** Ref → the notes commit scanned up to. */
  tips: Record<string, string>;
  found: StoredSecret[];
}

const REMOTE_NOTES = /^refs\/notes\/remotes\/[^/]+\/mem\/(.+)$/;

/** The namespace of a local or tracking memory ref, or null. */
function namespaceOf(ref: string): string | null {
  if (ref.startsWith(NOTES_REF_PREFIX)) return ref.slice(NOTES_REF_PREFIX.length);
  return REMOTE_NOTES.exec(ref)?.[1] ?? null;
}

/** Version 1. */
function cacheFile(ctx: NoteSecretsDeps): JsonFile<ScanCache> {
  return new JsonFile<ScanCache>(ctx.repo.mem, 'secrets', 1, (c) => Boolean(c.tips && Array.isArray(c.found)));
}

function readCache(ctx: NoteSecretsDeps): ScanCache {
  return cacheFile(ctx).read() ?? { tips: {}, found: [] };
}

/**
 * The secrets in every memory ref, local and pulled (`refs/notes/remotes/<remote>/mem/*`), for doctor:
 * only the note blobs new since the commits scanned last time (the cache in the .git/mem folder);
 * a ref never scanned, of a namespace never scanned, is read at its tip, not through its history.
 * Refs left when `budgetMs` has passed are scanned on the next run. What was found stays reported
 * while the note that holds it is the current one in some ref.
 */
export function scanStoredNotes(ctx: NoteSecretsDeps, budgetMs = 3000): NotesScan {
  const started = performance.now();
  const cache = readCache(ctx);
  const refs = [...refTips(ctx.repo.git, 'refs/notes/')].map(([name, oid]) => ({ ref: `refs/notes/${name}`, oid })).filter((r) => namespaceOf(r.ref) !== null);
  const scannedNamespaces = new Set(Object.keys(cache.tips).map(namespaceOf));
  const known = Object.values(cache.tips);
  const tips: Record<string, string> = {};
  const found: StoredSecret[] = [...cache.found];
  const unfinished: string[] = [];
  let scanned = 0;
  for (const { ref, oid } of refs) {
    const namespace = namespaceOf(ref)!;
    if (cache.tips[ref] === oid) {
      tips[ref] = oid;
      continue;
    }
    if (performance.now() - started > budgetMs) {
      unfinished.push(ref);
      if (cache.tips[ref]) tips[ref] = cache.tips[ref]!;
      continue;
    }
    const notes = scannedNamespaces.has(namespace) ? newNoteBlobs(ctx.repo, [oid], known) : ctx.notes.listNotes(oid);
    const texts = ctx.notes.readTexts(notes.map((n) => n.blob));
    for (const n of notes) {
      const text = texts.get(n.blob);
      if (text !== undefined) for (const f of noteSecrets(text, namespace, n.object, n.blob, ctx.settings.secretsAllow)) found.push({ ...f, ref });
    }
    scanned += notes.length;
    tips[ref] = oid;
  }
  // Still there? Only the notes at the tips count: an edit or forget took the others out.
  let current: StoredSecret[] = [];
  if (found.length) {
    const blobs = new Set<string>();
    for (const { ref, oid } of refs) if (found.some((f) => f.ref === ref)) for (const n of ctx.notes.listNotes(oid)) blobs.add(n.blob);
    const seen = new Set<string>();
    current = found.filter((f) => {
      const key = `${f.ref} ${f.blob} ${f.id}`;
      if (!blobs.has(f.blob) || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  cacheFile(ctx).write({ tips, found: current });
  return { scanned, ms: performance.now() - started, found: current, unfinished };
}

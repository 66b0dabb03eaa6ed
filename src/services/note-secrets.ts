/**
 * No secret leaves the machine: `git mem push`, `git mem sync` and the pre-push
 * git hook scan the note blobs a push would send (those in the notes commits
 * the remote, as last seen, does not have: stores/git/new-notes.ts) with the
 * redaction rules, whoever wrote the notes, and refuse the push when one holds
 * a secret, naming the memory and the kind of secret. `--no-verify` pushes anyway.
 */
import { GitMemError } from '../core/errors.ts';
import { NOTES_REF_PREFIX } from '../core/namespaces.ts';
import { type NoteSecret, noteSecrets, secretLines } from '../core/note-secrets.ts';
import { newNoteBlobs } from '../stores/git/new-notes.ts';
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

/** Secrets in what pushing these refs would send; `known`: other commits the remote has (its tracking refs). */
export function scanPushedRefs(ctx: NoteSecretsDeps, refs: readonly PushedRef[], known: readonly string[]): NoteSecret[] {
  return refs.flatMap((r) => scanNewNotes(ctx, r.namespace, [r.local], [...(r.remote ? [r.remote] : []), ...known]));
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

/** The tips of every tracking ref of one remote (`refs/notes/remotes/<name>/mem/*`): what it had when last fetched or pushed. */
export function trackingTips(ctx: NoteSecretsDeps, trackingPrefix: string): Map<string, string> {
  return refTips(ctx.repo.git, trackingPrefix);
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

/**
 * Sharing memories through a git remote: fetch the remote's memory refs into
 * remote-tracking notes refs, merge each namespace memory by memory, and push
 * (never forced: when the remote moved, pull, merge and retry).
 */
import { repairRetirements } from './lifecycle/consolidate.ts';
import { GitMemError, UsageError } from '../core/errors.ts';
import { keyedDocs, mergeNotes } from '../core/merge.ts';
import { NOTES_REF_PREFIX } from '../core/namespaces.ts';
import { sha1Hex } from '../core/hash.ts';
import type { Deps } from './deps.ts';
import { addConfigValue, configValues } from '../stores/git/config.ts';
import { currentBranch, fetchRefs, pushRefs, refTips, remoteNames, setRef } from '../stores/git/remotes.ts';
import type { Repo } from '../stores/git/repo.ts';
import { installGitHooks } from './git-hooks.ts';
import { prePushRefs, pushedRefs, scanPushedRefs, secretsRefusal, VERIFIED_ENV } from './note-secrets.ts';
import { reanchor } from './history/reanchor.ts';

/** What this file's services use. */
export type SyncDeps = Pick<Deps, 'index' | 'notes' | 'repo' | 'settings' | 'now'>;

const MEM_GLOB = `${NOTES_REF_PREFIX}*`;
const PUSH_ATTEMPTS = 5;

export interface Remote {
  /** What git is given: a remote name, URL or path. */
  spec: string;
  /** Name used for the tracking refs `refs/notes/remotes/<name>/mem/*`. */
  name: string;
}

export function trackingPrefix(remote: Remote): string {
  return `refs/notes/remotes/${remote.name}/mem/`;
}

export function fetchRefspec(remote: Remote): string {
  return `+${MEM_GLOB}:${trackingPrefix(remote)}*`;
}

function configuredRemotes(repo: Repo): string[] {
  return remoteNames(repo.git);
}

/** The remote to use: the one named, else the current branch's upstream remote, else `origin`. */
export function resolveRemote(repo: Repo, spec?: string): Remote {
  const remotes = configuredRemotes(repo);
  if (spec) {
    if (spec.startsWith('-')) throw new UsageError(`'${spec}' is not a remote`);
    if (remotes.includes(spec)) return { spec, name: spec };
    if (/[/:]/.test(spec)) return { spec, name: `url-${sha1Hex(spec).slice(0, 10)}` };
    throw new UsageError(`no remote named '${spec}'`, remotes.length ? `remotes: ${remotes.join(', ')}` : 'add one with git remote add');
  }
  const branch = currentBranch(repo.git);
  const upstream = branch ? (configValues(repo.git, `branch.${branch}.remote`).at(-1) ?? '') : '';
  const name = upstream && upstream !== '.' && remotes.includes(upstream) ? upstream : 'origin';
  if (!remotes.includes(name)) throw new UsageError(`no remote '${name}' to sync with`, 'add one with git remote add, or name it');
  return { spec: name, name };
}

export interface SyncCounts {
  /** Memories new or updated here from the remote. */
  incoming: number;
  /** Memories sent to the remote. */
  outgoing: number;
  /** Memories changed on both sides, merged. */
  merged: number;
  /** Namespaces that needed a merge commit. */
  mergeCommits: number;
  /** Memories moved off orphaned commits after the pull (git mem reanchor). */
  reanchored?: number;
  /** Memories whose other copies took a forget or edit that came in for one of them. */
  converged?: number;
  /** Memories archived again after the pull: retired here, edited by a clone that did not know (consolidate.ts). */
  retired?: number;
}

function gitFailure(action: string, remote: Remote, stderr: string): GitMemError {
  const line = stderr.split('\n').find((l) => /^(fatal|error):/.test(l)) ?? stderr.trim().split('\n')[0] ?? '';
  return new GitMemError(`cannot ${action} ${remote.spec}: ${line.replace(/^(fatal|error): /, '')}`);
}

export function fetchMemories(ctx: SyncDeps, remote: Remote, timeoutMs?: number): void {
  const r = fetchRefs(ctx.repo.git, remote.spec, fetchRefspec(remote), timeoutMs);
  if (r.status !== 0) throw gitFailure('fetch from', remote, r.stderr);
}

function tips(repo: Repo, prefix: string): Map<string, string> {
  return refTips(repo.git, prefix);
}

/** Merges every tracking ref of the remote into the local namespace refs. */
export function mergeTracking(ctx: SyncDeps, remote: Remote): SyncCounts {
  const counts: SyncCounts = { incoming: 0, outgoing: 0, merged: 0, mergeCommits: 0 };
  for (const [ns, theirs] of tips(ctx.repo, trackingPrefix(remote))) {
    const outcome = ctx.notes.merge(ns, theirs, (object, ours, their) => mergeNotes(ns, object, ours, their), `merge ${remote.name} into ${NOTES_REF_PREFIX}${ns}`);
    counts.incoming += outcome.incoming;
    counts.merged += outcome.merged;
    if (outcome.kind === 'merged') counts.mergeCommits++;
  }
  return counts;
}

export async function pull(ctx: SyncDeps, remote: Remote, options: { fetch: boolean; timeoutMs?: number }): Promise<SyncCounts> {
  if (options.fetch) fetchMemories(ctx, remote, options.timeoutMs);
  const counts = mergeTracking(ctx, remote);
  await ctx.index.refresh(); // bring the index up to date with what came in
  // What came in may sit on commits rewritten here, and a squash merge done on the forge may have come in with the code.
  // And a forget or edit that came in for one copy of a memory reaches its other copies (services/history/converge.ts).
  const placed = await reanchor(ctx);
  counts.reanchored = placed.moved.length;
  counts.converged = placed.converged;
  // A memory consolidated or superseded here may have come back edited by a clone that did not know: archived again.
  if (counts.incoming > 0) counts.retired = (await repairRetirements(ctx)).length;
  return counts;
}

/** Memories (and forgets) in the local refs that the remote, as last seen, lacks or has in another revision. */
async function countOutgoing(ctx: SyncDeps, remote: Remote): Promise<number> {
  const theirs = tips(ctx.repo, trackingPrefix(remote));
  let n = 0;
  for (const [ns, ours] of ctx.notes.tips()) {
    const base = theirs.get(ns);
    if (base === ours) continue;
    if (!base) {
      // The remote has none of this namespace: everything goes, and the index knows how much that is.
      n += await ctx.index.documentCount(ns);
      continue;
    }
    const changed = ctx.notes.diffNotes(base, ours).filter((d) => d.blob);
    const texts = ctx.notes.readChangedTexts(changed.map((d) => ({ oldBlob: d.oldBlob, blob: d.blob! })));
    for (const d of changed) {
      const old = new Set(keyedDocs(d.oldBlob ? (texts.get(d.oldBlob) ?? null) : null, ns, d.object));
      n += keyedDocs(texts.get(d.blob!) ?? null, ns, d.object).filter((raw) => !old.has(raw)).length;
    }
  }
  return n;
}

export interface PushOptions {
  /** Scan the notes to be sent for secrets and refuse them (default: yes); false is --no-verify. */
  verify?: boolean;
}

/** Refuses the push when a note it would send holds a secret (services/note-secrets.ts), whoever wrote it. */
function verifyOutgoing(ctx: SyncDeps, remote: Remote): void {
  const tracking = tips(ctx.repo, trackingPrefix(remote));
  const refs = pushedRefs(ctx, tracking);
  const found = scanPushedRefs(ctx, refs, [...tracking.values()]);
  if (found.length) throw secretsRefusal(ctx, found, refs, remote.spec, 'git mem push');
}

/**
 * The pre-push git hook's check: `remote` as git hands it to the hook (a remote's name, or
 * the URL pushed to), `input` its stdin. Refuses when a memory ref pushed holds a secret.
 */
export function verifyPrePush(ctx: SyncDeps, remote: string, input: string): void {
  const refs = prePushRefs(input);
  if (refs.length === 0) return;
  let known: string[] = [];
  try {
    known = [...tips(ctx.repo, trackingPrefix(resolveRemote(ctx.repo, remote))).values()];
  } catch {
    // A remote git-mem cannot name: only what the hook was told the remote has counts as sent before.
  }
  const found = scanPushedRefs(ctx, refs, known);
  if (found.length) throw secretsRefusal(ctx, found, refs, remote, 'git push');
}

export async function push(ctx: SyncDeps, remote: Remote, options: PushOptions = {}): Promise<SyncCounts> {
  const counts: SyncCounts = { incoming: 0, outgoing: 0, merged: 0, mergeCommits: 0 };
  if (ctx.notes.tips().size === 0) return counts;
  for (let attempt = 0; attempt < PUSH_ATTEMPTS; attempt++) {
    if (options.verify !== false) verifyOutgoing(ctx, remote);
    const outgoing = await countOutgoing(ctx, remote);
    // Scanned here (or skipped on purpose): the pre-push hook does not scan again.
    const r = pushRefs(ctx.repo.git, remote.spec, `${MEM_GLOB}:${MEM_GLOB}`, { [VERIFIED_ENV]: '1' });
    const rejected = r.rejected;
    if (r.status === 0 && !rejected) {
      // Record what the remote now has, so the next push counts from here.
      for (const [ns, oid] of ctx.notes.tips()) setRef(ctx.repo.git, `${trackingPrefix(remote)}${ns}`, oid);
      counts.outgoing = outgoing;
      return counts;
    }
    if (!rejected) throw gitFailure('push to', remote, r.stderr);
    // The remote moved: bring its memories in, merge, and try again. Never force.
    const pulled = await pull(ctx, remote, { fetch: true });
    counts.incoming += pulled.incoming;
    counts.merged += pulled.merged;
    counts.mergeCommits += pulled.mergeCommits;
    counts.reanchored = (counts.reanchored ?? 0) + (pulled.reanchored ?? 0);
    counts.converged = (counts.converged ?? 0) + (pulled.converged ?? 0);
  }
  throw new GitMemError(`${remote.spec} kept moving; gave up pushing after ${PUSH_ATTEMPTS} attempts`, 'try git mem sync again');
}

export interface InitOptions {
  remote?: string;
  pushRefspec?: boolean;
  showInLog?: boolean;
  /** Install the post-rewrite, post-merge and pre-push hooks (default: yes). */
  gitHooks?: boolean;
}

export interface InitStep {
  key: string;
  value: string;
  changed: boolean;
}

/** Adds a multi-valued config entry unless already present; never replaces existing values. */
function ensureConfig(repo: Repo, key: string, value: string): InitStep {
  if (configValues(repo.git, key).includes(value)) return { key, value, changed: false };
  addConfigValue(repo.git, key, value);
  return { key, value, changed: true };
}

export interface InitResult {
  remote: string | null;
  steps: InitStep[];
}

/** Makes the repository ready to share memories; running it twice changes nothing. */
export function init(ctx: SyncDeps, options: InitOptions): InitResult {
  const repo = ctx.repo;
  const steps: InitStep[] = [ensureConfig(repo, 'notes.rewriteRef', MEM_GLOB)];
  if (options.showInLog) steps.push(ensureConfig(repo, 'notes.displayRef', MEM_GLOB));
  const remotes = configuredRemotes(repo);
  let remote: Remote | null = null;
  if (options.remote || remotes.length) {
    remote = resolveRemote(repo, options.remote);
    if (!remotes.includes(remote.spec)) throw new UsageError(`git mem init needs a configured remote, not '${remote.spec}'`);
    steps.push(ensureConfig(repo, `remote.${remote.name}.fetch`, fetchRefspec(remote)));
    if (options.pushRefspec) {
      // A push refspec replaces push.default for a plain `git push`: keep pushing the current branch too.
      steps.push(ensureConfig(repo, `remote.${remote.name}.push`, 'HEAD'));
      steps.push(ensureConfig(repo, `remote.${remote.name}.push`, `${MEM_GLOB}:${MEM_GLOB}`));
    }
  } else if (options.pushRefspec) {
    throw new UsageError('--push-refspec needs a remote; add one with git remote add');
  }
  if (options.gitHooks !== false) {
    for (const h of installGitHooks(repo)) steps.push({ key: `hook ${h.name}`, value: h.chained ? `${h.file} (runs your hook first: ${h.name}.chained)` : h.file, changed: h.changed });
  }
  return { remote: remote?.name ?? null, steps };
}

/**
 * `git mem doctor`: checks what git-mem depends on and explains each problem
 * with its fix. Read-only: it never repairs, refreshes the index or downloads.
 *
 * Statuses: ok; info (nothing wrong, something optional is not set up);
 * warn (a problem that should be fixed); fail (git-mem cannot work properly).
 * The command exits 1 when any check warns or fails.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Deps } from './deps.ts';
import { gitHookStates } from './git-hooks.ts';
import { errorMessage, GitMemError } from '../core/errors.ts';
import { NOTES_REF_PREFIX } from '../core/namespaces.ts';
import { programVersion, selfCommand } from '../io/self.ts';
import { configValues } from '../stores/git/config.ts';
import { Git } from '../stores/git/git.ts';
import { VERSION } from '../version.ts';
import { probeIndex } from '../stores/index/revisions/probe.ts';
import { inspectMemDir, usableFallback } from '../stores/cache/mem-dir.ts';
import { inspectLock, lockFileFor } from '../stores/cache/lock.ts';
import { deadTemps } from '../io/atomic-write.ts';
import { sessionLockFiles } from '../stores/cache/sessions.ts';
import { modelStatus } from './search/model-status.ts';
import { fetchRefspec } from './sync.ts';
import { scanStoredNotes } from './note-secrets.ts';
import { remoteNames } from '../stores/git/remotes.ts';
import { strandedMemories } from './history/reanchor.ts';

/** What this file's services use. */
export type DoctorDeps = Deps;

export type CheckStatus = 'ok' | 'info' | 'warn' | 'fail';

export interface Check {
  /** Stable identifier, for scripts: `git`, `path`, `notes-refs`… */
  id: string;
  status: CheckStatus;
  /** One line: what was found. */
  message: string;
  /** How to fix it (warn and fail; sometimes info). */
  fix?: string;
}

export interface DoctorReport {
  ok: boolean;
  checks: Check[];
}

/** Oldest git with everything git-mem runs (`rev-parse --path-format=absolute` is 2.31). */
export const MIN_GIT = [2, 31, 0] as const;
/** A lock older than this is left over from a crashed process (stores/cache/lock.ts takes it over after as long). */

function versionAtLeast(v: readonly number[], min: readonly number[]): boolean {
  for (let i = 0; i < min.length; i++) {
    const a = v[i] ?? 0;
    const b = min[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

export function realpath(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

export function isExecutable(p: string): boolean {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The first `git-mem` on PATH, as git would find it. */
export function findOnPath(env: NodeJS.ProcessEnv, name = 'git-mem'): string | null {
  const exts = process.platform === 'win32' ? ['.exe', '.cmd', ''] : [''];
  for (const dir of (env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    for (const ext of exts) {
      const p = path.join(dir, name + ext);
      if (isExecutable(p)) return p;
    }
  }
  return null;
}

/** Splits a hook command line as a POSIX shell would (plain words and '…' quoting, which is all git-mem writes). */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      cur += end === -1 ? line.slice(i + 1) : line.slice(i + 1, end);
      i = end === -1 ? line.length : end;
      inWord = true;
    } else if (ch === '\\' && i + 1 < line.length) {
      cur += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
    } else {
      cur += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(cur);
  return words;
}

function checkGit(ctx: DoctorDeps): Check {
  const r = new Git(ctx.cwd, ctx.env).exec(['--version']);
  const m = /(\d+)\.(\d+)(?:\.(\d+))?/.exec(r.stdout.toString('utf8'));
  if (r.status !== 0 || !m) return { id: 'git', status: 'fail', message: 'git --version failed', fix: 'install git and put it on PATH' };
  const v = [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)];
  const text = v.join('.');
  return versionAtLeast(v, MIN_GIT)
    ? { id: 'git', status: 'ok', message: `git ${text}` }
    : { id: 'git', status: 'fail', message: `git ${text} is older than ${MIN_GIT.join('.')}`, fix: `install git ${MIN_GIT.join('.')} or newer` };
}

function checkPath(ctx: DoctorDeps): Check {
  const self = selfCommand();
  const compiled = self.length === 1;
  const found = findOnPath(ctx.env);
  const here = compiled ? realpath(process.execPath) : self.join(' ');
  if (!found) {
    return {
      id: 'path',
      status: 'fail',
      message: 'git-mem is not on PATH, so `git mem` does not find it',
      fix: compiled ? `copy it to a directory on PATH: install -m 755 ${here} ~/.local/bin/git-mem (or make install)` : 'build and install it: npm run build && make install PREFIX=~/.local',
    };
  }
  if (!compiled || realpath(found) === here) return { id: 'path', status: 'ok', message: `git mem runs ${found}` };
  const theirs = programVersion(found, ctx.env) ?? 'unknown version';
  return {
    id: 'path',
    status: 'warn',
    message: `git mem runs ${found} (${theirs}), not this binary (${here}, git-mem ${VERSION})`,
    fix: `put ${path.dirname(here)} before ${path.dirname(found)} on PATH, or install this binary over ${found}`,
  };
}

function checkNotes(ctx: DoctorDeps, checks: Check[]): void {
  const git = ctx.repo.git;
  const known = new Set(ctx.settings.namespaces.map((n) => n.name));
  const refs = git
    .run(['for-each-ref', '--format=%(refname) %(objecttype)', NOTES_REF_PREFIX])
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [ref = '', type = ''] = l.split(' ');
      return { ns: ref.slice(NOTES_REF_PREFIX.length), ref, type };
    });
  if (refs.length === 0) checks.push({ id: 'notes-refs', status: 'info', message: `no memories yet (no ${NOTES_REF_PREFIX}* refs)`, fix: 'git mem capture <namespace> "<summary>"' });
  for (const r of refs.filter((x) => x.type !== 'commit')) {
    checks.push({ id: 'notes-refs', status: 'fail', message: `${r.ref} points at a ${r.type}, not a notes commit`, fix: `inspect it with git cat-file -t ${r.ref}; restore it from git reflog ${r.ref}` });
  }
  const good = refs.filter((x) => x.type === 'commit');
  const unknown = good.filter((x) => !known.has(x.ns));
  if (good.length) checks.push({ id: 'notes-refs', status: 'ok', message: `${good.length} namespace ref${good.length === 1 ? '' : 's'}: ${good.map((x) => x.ns).join(', ')}` });
  for (const u of unknown) {
    checks.push({ id: 'notes-refs', status: 'warn', message: `${u.ref} holds memories of a namespace that is not configured (${u.ns})`, fix: `git config --add mem.namespaces ${u.ns}` });
  }
  for (const name of ctx.settings.invalidNamespaces) {
    checks.push({ id: 'config', status: 'warn', message: `mem.namespaces names an invalid namespace '${name}' (names match [a-z][a-z0-9-]*)`, fix: `git config --unset-all mem.namespaces '^${name}$'` });
  }
  // A policy that cannot be read falls back to the default (local,signed), which holds back more, never less.
  if (ctx.settings.trustProblem) checks.push({ id: 'config', status: 'warn', message: `${ctx.settings.trustProblem}; the default local,signed holds meanwhile`, fix: 'git config mem.trust local,signed (see docs/trust.md)' });
}


function checkConfig(ctx: DoctorDeps, checks: Check[]): void {
  const git = ctx.repo.git;
  const glob = `${NOTES_REF_PREFIX}*`;
  if (configValues(git, 'notes.rewriteRef').includes(glob)) checks.push({ id: 'rewrite-ref', status: 'ok', message: `notes.rewriteRef includes ${glob}: memories follow their commits through amend and rebase` });
  else checks.push({ id: 'rewrite-ref', status: 'warn', message: `notes.rewriteRef does not include ${glob}: memories stay behind when their commits are amended or rebased`, fix: 'git mem init' });
  for (const h of gitHookStates(ctx.repo)) {
    if (h.name === 'pre-push') {
      if (h.installed) checks.push({ id: 'git-hooks', status: 'ok', message: `pre-push hook refuses a git push of memories that hold a secret${h.chained ? ' (and runs pre-push.chained first)' : ''}` });
      else checks.push({ id: 'git-hooks', status: 'info', message: `no git-mem pre-push hook in ${path.dirname(h.file)}: a plain git push of refs/notes/mem/* sends memories unscanned for secrets (git mem push scans them)`, fix: 'git mem init' });
      continue;
    }
    const after = h.name === 'reference-transaction' ? 'a deleted branch or a git reset' : h.name === 'post-merge' ? 'merges' : 'rewrites';
    if (h.installed) checks.push({ id: 'git-hooks', status: 'ok', message: `${h.name} hook reanchors memories after ${after}${h.chained ? ` (and runs ${h.name}.chained first)` : ''}` });
    // Information, not a problem: git mem init --no-git-hooks leaves them out on purpose, and reanchor still runs on pull.
    else checks.push({ id: 'git-hooks', status: 'info', message: `no git-mem ${h.name} hook in ${path.dirname(h.file)}: memories are not moved after ${after} until git mem reanchor runs`, fix: 'git mem init' });
  }

  const remotes = remoteNames(git);
  if (remotes.length === 0) checks.push({ id: 'fetch-refspec', status: 'info', message: 'no remotes: memories stay in this clone', fix: 'git remote add origin <url>, then git mem init' });
  for (const remote of remotes) {
    const spec = fetchRefspec({ spec: remote, name: remote });
    if (configValues(git, `remote.${remote}.fetch`).includes(spec)) checks.push({ id: 'fetch-refspec', status: 'ok', message: `git fetch ${remote} brings memories (${spec})` });
    else checks.push({ id: 'fetch-refspec', status: 'info', message: `git fetch ${remote} does not bring memories (git mem pull ${remote} still does)`, fix: `git mem init --remote ${remote}` });
    for (const push of configValues(git, `remote.${remote}.push`)) {
      if (push.startsWith('+') && push.includes(NOTES_REF_PREFIX)) {
        checks.push({ id: 'push-refspec', status: 'warn', message: `remote.${remote}.push forces ${push.slice(1)}: a plain git push can overwrite memories others pushed`, fix: `git config --unset remote.${remote}.push '^\\${push}$' && git mem init --remote ${remote} --push-refspec` });
      }
    }
  }
}

/**
 * The cache folder (stores/cache/mem-dir.ts): looked at without making it. When it
 * cannot be used, the checks of the files in it are left out: they would
 * call a symlink loop an unreadable index, or an unwritable folder fine.
 */
function checkCacheDir(ctx: DoctorDeps, checks: Check[]): boolean {
  const dir = ctx.repo.mem.dir;
  const problem = inspectMemDir(dir);
  if (problem) {
    const fallback = usableFallback(dir);
    const meanwhile = fallback ? `git-mem keeps its cache in ${fallback} meanwhile` : 'git-mem works from the notes without its cache meanwhile';
    checks.push({ id: 'cache-dir', status: 'fail', message: `${problem.message}: ${meanwhile}; once fixed, the cache is rebuilt from the notes`, fix: problem.fix });
    return false;
  }
  if (fs.existsSync(dir)) checks.push({ id: 'cache-dir', status: 'ok', message: `${dir} is a writable folder` });
  else checks.push({ id: 'cache-dir', status: 'ok', message: `no ${dir} yet; the first command that reads memories makes it` });
  return true;
}

async function checkIndex(ctx: DoctorDeps, checks: Check[]): Promise<void> {
  const file = ctx.indexFile;
  const probe = await probeIndex(file);
  if (!probe.exists && !probe.error) checks.push({ id: 'index', status: 'info', message: `no index yet at ${file}; the first command that reads memories builds it`, fix: 'git mem index' });
  else if (probe.error) checks.push({ id: 'index', status: 'fail', message: `index ${file} is unreadable: ${probe.error}`, fix: 'git mem index --rebuild (the notes are the truth; nothing is lost)' });
  else if (probe.version !== probe.expectedVersion) {
    checks.push({ id: 'index', status: 'info', message: `index was written by another version of git-mem (format ${probe.version ?? '?'}, this one uses ${probe.expectedVersion}); it is rebuilt on the next read`, fix: 'git mem index --rebuild' });
  } else {
    const tips = Object.fromEntries(ctx.notes.tips());
    const behind = [...new Set([...Object.keys(tips), ...Object.keys(probe.tips ?? {})])].filter((ns) => tips[ns] !== probe.tips?.[ns]);
    const size = `${(probe.bytes / 1024 / 1024).toFixed(1)} MB`;
    checks.push(
      behind.length
        ? { id: 'index', status: 'ok', message: `index holds ${probe.memories} memories (${size}); behind the notes in ${behind.join(', ')}: it catches up on the next read`, fix: 'git mem index' }
        : { id: 'index', status: 'ok', message: `index is up to date: ${probe.memories} memories (${size})` },
    );
  }
  checkTermIndex(ctx, checks);
  for (const p of deadTemps(path.dirname(file))) checks.push({ id: 'index', status: 'warn', message: `left-over temporary file ${p} from an interrupted write (the next index write removes it)`, fix: `rm ${p}` });
}

/** The term index lexical recall reads: a cache rebuilt on demand, so nothing here is worse than info. */
function checkTermIndex(ctx: DoctorDeps, checks: Check[]): void {
  const file = ctx.termIndexFile;
  if (!fs.existsSync(file)) {
    checks.push({ id: 'term-index', status: 'info', message: `no term index yet at ${file}; the first recall builds it`, fix: 'git mem index' });
    return;
  }
  // The file with the overlay of memories appended since (stores/index/terms/catch-up.ts), as recall reads it.
  const terms = ctx.index.asIs();
  if (!terms) {
    checks.push({ id: 'term-index', status: 'info', message: `term index ${file} is unreadable or from another version; the next recall rebuilds it`, fix: 'git mem index --rebuild' });
    return;
  }
  const current = terms.reflects(Object.fromEntries(ctx.notes.tips()));
  checks.push({
    id: 'term-index',
    status: 'ok',
    message: current ? `term index is up to date: ${terms.memoryCount} memories, ${terms.termCount} terms` : `term index holds ${terms.memoryCount} memories; behind the notes: it catches up on the next recall`,
    ...(current ? {} : { fix: 'git mem index' }),
  });
}

/**
 * Secrets in the notes, pulled ones included (notes written by plain git notes, older versions or other
 * tools are not redacted): the notes new since the last run, bounded in time (services/note-secrets.ts).
 */
function checkSecrets(ctx: DoctorDeps, checks: Check[]): void {
  const scan = scanStoredNotes(ctx);
  const time = `${scan.scanned} new note${scan.scanned === 1 ? '' : 's'} scanned in ${Math.round(scan.ms)} ms`;
  const left = scan.unfinished.length ? `; not yet scanned (time ran out): ${scan.unfinished.join(', ')}, the next run goes on` : '';
  if (scan.found.length === 0) {
    checks.push(scan.unfinished.length ? { id: 'secrets', status: 'info', message: `no secrets found in the notes so far (${time})${left}`, fix: 'git mem doctor' } : { id: 'secrets', status: 'ok', message: `no secrets in the notes (${time})` });
    return;
  }
  const byId = new Map<string, { types: Set<string>; refs: Set<string>; memory: boolean }>();
  for (const f of scan.found) {
    const e = byId.get(f.id) ?? { types: new Set<string>(), refs: new Set<string>(), memory: f.memory };
    for (const t of f.types) e.types.add(t);
    e.refs.add(f.ref);
    byId.set(f.id, e);
  }
  for (const [id, e] of byId) {
    const remotes = [...e.refs].flatMap((r) => /^refs\/notes\/remotes\/([^/]+)\//.exec(r)?.[1] ?? []);
    const where = remotes.length ? `pulled from ${[...new Set(remotes)].join(', ')}` : 'in this clone only: git mem push refuses it';
    const remove = e.memory ? `take it out with git mem edit ${id}, or git mem forget ${id}` : `take it out with git notes --ref=refs/notes/mem/${id.split(':')[0]} edit <commit>`;
    checks.push({
      id: 'secrets',
      status: 'warn',
      message: `${id} holds a secret (${[...e.types].join(', ')}), ${where}${left}`,
      fix: remotes.length ? `${remove}, and push; the secret has left the machine that wrote it: revoke or rotate it` : remove,
    });
  }
}

function checkLocks(ctx: DoctorDeps, checks: Check[]): void {
  const locks = [lockFileFor(ctx.indexFile), ...sessionLockFiles(ctx.repo.mem)];
  const stale = locks.flatMap((p) => {
    const lock = inspectLock(p);
    return lock?.abandoned ? [{ p, lock }] : [];
  });
  if (stale.length === 0) checks.push({ id: 'locks', status: 'ok', message: 'no abandoned lock files' });
  for (const { p, lock } of stale) {
    const owner = lock.owner.split(' ')[0];
    checks.push({
      id: 'locks',
      status: 'warn',
      message: `abandoned lock ${p} (${Math.round(lock.ageMs / 1000)} s old${owner ? `, left by process ${owner}` : ''}); the next writer takes it over`,
      fix: `rm ${p}`,
    });
  }
}

function checkModel(ctx: DoctorDeps, checks: Check[]): void {
  const m = modelStatus(ctx);
  if (m.state === 'ready') checks.push({ id: 'model', status: 'ok', message: `embedding model ready${m.location ? ` at ${m.location}` : ''}` });
  else checks.push({ id: 'model', status: 'info', message: `embedding model ${m.detail}` });
}

/** Memories whose every copy sits on a commit nothing reaches, or one gone from this clone, with the command that moves them. */
function checkStranded(ctx: DoctorDeps, checks: Check[]): void {
  const s = strandedMemories(ctx);
  const ids = (list: ReadonlyArray<{ id: string }>) => list.slice(0, 3).map((m) => m.id).join(', ') + (list.length > 3 ? `, and ${list.length - 3} more` : '');
  const n = (k: number) => `${k} ${k === 1 ? 'memory' : 'memories'}`;
  if (s.unreachable.length) {
    checks.push({
      id: 'stranded',
      status: 'warn',
      message: `${n(s.unreachable.length)} on commits no branch, tag or HEAD reaches (gc will prune them; git notes prune then drops the memories): ${ids(s.unreachable)}`,
      fix: 'git mem reanchor (moves them onto the commits now holding their change); what it leaves: git mem reanchor <id>... --to <commit>',
    });
  }
  const gone = s.missing.filter((m) => m.pruned || m.mine);
  if (gone.length) {
    checks.push({
      id: 'stranded',
      status: 'warn',
      message: `${n(gone.length)} on commits gone from this clone (pruned by gc): ${ids(gone)}`,
      fix: `git mem reanchor (matches them on what they recorded at capture); what it leaves: git mem reanchor ${gone[0]!.id} --to <commit>`,
    });
  }
  const theirs = s.missing.length - gone.length;
  if (theirs) checks.push({ id: 'stranded', status: 'info', message: `${n(theirs)} of teammates on commits this clone never had (not fetched yet?)`, fix: 'git fetch; if the commits are gone for good: git mem reanchor <id>... --to <commit>' });
  if (!s.unreachable.length && !s.missing.length) checks.push({ id: 'stranded', status: 'ok', message: 'every memory is on a commit HEAD, a branch, a remote-tracking branch or a tag reaches' });
}

/**
 * Every check, the agent clients' last: `agents` checks each client's installed hooks
 * (agents/index.ts `agentChecks`; the service knows no client).
 */
export async function runDoctor(ctx: DoctorDeps, agents: (ctx: DoctorDeps) => Check[] | Promise<Check[]> = () => []): Promise<DoctorReport> {
  const checks: Check[] = [checkGit(ctx), checkPath(ctx)];
  let inRepo = true;
  try {
    void ctx.repo;
  } catch (err) {
    if (!(err instanceof GitMemError)) throw err;
    inRepo = false;
    checks.push({ id: 'repository', status: 'info', message: `${err.message}: repository checks skipped` });
  }
  if (inRepo) {
    const guarded = async (id: string, fn: () => void | Promise<void>) => {
      try {
        await fn();
      } catch (err) {
        checks.push({ id, status: 'fail', message: `could not check: ${errorMessage(err)}` });
      }
    };
    await guarded('notes-refs', () => checkNotes(ctx, checks));
    await guarded('config', () => checkConfig(ctx, checks));
    await guarded('stranded', () => checkStranded(ctx, checks));
    if (checkCacheDir(ctx, checks)) {
      await guarded('index', () => checkIndex(ctx, checks));
      await guarded('locks', () => checkLocks(ctx, checks));
      await guarded('secrets', () => checkSecrets(ctx, checks));
    }
  }
  checkModel(ctx, checks);
  if (inRepo || ctx.env.HOME) {
    try {
      checks.push(...(await agents(ctx)));
    } catch (err) {
      checks.push({ id: 'agents', status: 'fail', message: `could not check the agent clients: ${errorMessage(err)}` });
    }
  }
  return { ok: !checks.some((c) => c.status === 'warn' || c.status === 'fail'), checks };
}

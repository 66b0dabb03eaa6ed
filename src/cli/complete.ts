/**
 * `git-mem __complete <what> [prefix]`: the dynamic part of shell completion
 * (commands and options are written into the completion scripts). Answers in
 * a few milliseconds: no yargs, no index refresh, no model. Prints one
 * candidate a line, `value<TAB>description`; prints nothing on any failure.
 *
 *   namespaces  built-in namespaces, plus GIT_MEM_NAMESPACES or git config mem.namespaces
 *   ids         memory ids from the index file as it is (a bare hex prefix completes keys)
 *   remotes     git remotes
 */
import { BUILTIN_NAMESPACES, NAMESPACE_NAME } from '../core/namespaces.ts';
import { configValues } from '../stores/git/config.ts';
import { Git } from '../stores/git/git.ts';
import { remoteNames } from '../stores/git/remotes.ts';
import { openRepo } from '../stores/git/repo.ts';
import { Index, type IdCandidate } from '../stores/index/index.ts';

const MAX_IDS = 200;

export type Candidate = IdCandidate;

/** The same list Settings.namespaces holds, from one cheap `git config` call. */
function namespaceCandidates(cwd: string, env: NodeJS.ProcessEnv): Candidate[] {
  const configured = env.GIT_MEM_NAMESPACES ?? configValues(new Git(cwd, env), 'mem.namespaces').join(' ');
  const out: Candidate[] = BUILTIN_NAMESPACES.map((n) => ({ value: n.name, description: n.description }));
  for (const name of configured.split(/[\s,]+/)) {
    if (NAMESPACE_NAME.test(name) && !out.some((c) => c.value === name)) out.push({ value: name, description: 'Configured namespace' });
  }
  return out;
}

/** Current memories whose id (or, for a hex prefix, key) starts with `prefix`, from the index file as it is. */
export async function idCandidates(cwd: string, env: NodeJS.ProcessEnv, prefix: string): Promise<Candidate[]> {
  return Index.idCandidates(openRepo(cwd, env).mem, prefix, MAX_IDS);
}

function remoteCandidates(cwd: string, env: NodeJS.ProcessEnv): Candidate[] {
  return remoteNames(new Git(cwd, env)).map((r) => ({ value: r, description: 'remote' }));
}

/** Runs `__complete`; always exits 0. */
export async function runComplete(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<number> {
  const [kind, prefix = ''] = args;
  let candidates: Candidate[] = [];
  try {
    if (kind === 'namespaces') candidates = namespaceCandidates(cwd, env);
    else if (kind === 'ids') candidates = await idCandidates(cwd, env, prefix);
    else if (kind === 'remotes') candidates = remoteCandidates(cwd, env);
  } catch {
    candidates = [];
  }
  const lines = candidates.filter((c) => c.value.startsWith(prefix)).map((c) => `${c.value}\t${c.description.replace(/[\t\n]+/g, ' ')}`);
  if (lines.length) write(`${lines.join('\n')}\n`);
  return 0;
}

/** Remotes and refs as git tells them: the remotes configured, the current branch, fetching and pushing refs. */
import type { Git } from './git.ts';

/** Remotes whose names cannot pass for git options (a name starting with `-`, from a hostile config, is left out). */
export function remoteNames(git: Git): string[] {
  return git.run(['remote']).split('\n').filter((r) => r && !r.startsWith('-'));
}

/** The current branch's short name, or '' when HEAD is detached or unborn. */
export function currentBranch(git: Git): string {
  return git.exec(['symbolic-ref', '-q', '--short', 'HEAD']).stdout.toString('utf8').trim();
}

/** Ref name (after `prefix`) → object, for every ref under `prefix`. */
export function refTips(git: Git, prefix: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of git.run(['for-each-ref', '--format=%(refname) %(objectname)', prefix]).split('\n')) {
    const [ref, oid] = line.split(' ');
    if (ref && oid) out.set(ref.slice(prefix.length), oid);
  }
  return out;
}

/** Fetches one refspec from a remote (a name, URL or path: never taken for an option). */
export function fetchRefs(git: Git, remote: string, refspec: string, timeoutMs?: number) {
  return git.exec(['fetch', '--quiet', '--no-tags', '--no-write-fetch-head', '--end-of-options', remote, refspec], { timeoutMs });
}

/** Pushes one refspec; `rejected` when the remote moved (never forced). `env`: for git's hooks. */
export function pushRefs(git: Git, remote: string, refspec: string, env?: Record<string, string>): { status: number; rejected: boolean; stderr: string } {
  const r = git.exec(['push', '--porcelain', '--quiet', '--end-of-options', remote, refspec], { env });
  return { status: r.status, rejected: /^!\t/m.test(r.stdout.toString('utf8')), stderr: r.stderr };
}

/** Points a ref at an object (no compare-and-swap: for tracking refs only git-mem writes). */
export function setRef(git: Git, ref: string, oid: string): void {
  git.run(['update-ref', ref, oid]);
}

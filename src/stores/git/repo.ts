/** Finding the repository: its git dir, the common dir shared by linked worktrees, and its object format. */
import fs from 'node:fs';
import path from 'node:path';
import { NotARepositoryError } from '../../core/errors.ts';
import { MemDir } from '../cache/mem-dir.ts';
import { Git } from './git.ts';

export interface Repo {
  git: Git;
  gitDir: string;
  /** Shared by all worktrees: refs, objects and git-mem's caches live here. */
  commonDir: string;
  /** git-mem's cache folder in the common dir, `mem` (stores/cache/mem-dir.ts). */
  mem: MemDir;
  objectsDir: string;
  objectFormat: 'sha1' | 'sha256';
  /** The commit HEAD points at, or null in a repository with no commits yet. */
  head: string | null;
}

export function openRepo(cwd: string, env: NodeJS.ProcessEnv): Repo {
  const git = new Git(cwd, env);
  // One process answers everything; with an unborn HEAD git prints the paths, then fails on HEAD alone.
  const r = git.exec(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--show-object-format', 'HEAD^{commit}']);
  const [gitDir = '', commonDir = '', format = 'sha1', head = ''] = r.stdout.toString('utf8').trim().split('\n');
  if (!path.isAbsolute(gitDir) || !path.isAbsolute(commonDir)) {
    throw new NotARepositoryError(`not a git repository: ${cwd}`, 'run git mem inside a git repository, or git init one');
  }
  const objectsDir = env.GIT_OBJECT_DIRECTORY ? path.resolve(cwd, env.GIT_OBJECT_DIRECTORY) : path.join(commonDir, 'objects');
  return { git, gitDir, commonDir, mem: MemDir.inCommonDir(commonDir), objectsDir, objectFormat: format === 'sha256' ? 'sha256' : 'sha1', head: r.status === 0 && /^[0-9a-f]+$/.test(head) ? head : null };
}

/** The top of the working tree, or null in a bare repository. */
export function worktreeTop(repo: Repo): string | null {
  return repo.git.exec(['rev-parse', '--show-toplevel']).stdout.toString('utf8').trim() || null;
}

/**
 * The top of the working tree without running git (for hooks that must stay fast): the folder
 * holding `.git`, or for a linked worktree the one its `gitdir` file names. Null when git's own
 * layout does not say (a submodule, a git dir set elsewhere): worktreeTop asks git.
 */
export function worktreeTopOfGitDir(repo: Repo): string | null {
  if (path.basename(repo.gitDir) === '.git') return path.dirname(repo.gitDir);
  try {
    return path.dirname(fs.readFileSync(path.join(repo.gitDir, 'gitdir'), 'utf8').trim());
  } catch {
    return null;
  }
}

/** Where git keeps `name` for this repository (`hooks` honours core.hooksPath), as an absolute path. */
export function gitPath(repo: Repo, name: string): string {
  return repo.git.run(['rev-parse', '--path-format=absolute', '--git-path', name]).trim();
}

/**
 * The commits the other worktrees of this repository have checked out
 * detached (a HEAD on a branch is reached through the branch): live, like
 * a branch, so that nothing moves a memory off a commit someone has checked
 * out. Read from the worktrees' HEAD files, without running git; once per
 * process.
 */
export function otherWorktreeHeads(repo: Repo): string[] {
  let heads = worktreeHeads.get(repo);
  if (heads) return heads;
  const files = [path.join(repo.commonDir, 'HEAD')];
  try {
    for (const name of fs.readdirSync(path.join(repo.commonDir, 'worktrees'))) files.push(path.join(repo.commonDir, 'worktrees', name, 'HEAD'));
  } catch {
    // No linked worktrees.
  }
  const own = path.resolve(repo.gitDir, 'HEAD');
  const found = new Set<string>();
  for (const file of files) {
    if (path.resolve(file) === own) continue;
    try {
      const text = fs.readFileSync(file, 'utf8').trim();
      if (/^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(text) && text !== repo.head) found.add(text);
    } catch {
      // A worktree being removed.
    }
  }
  worktreeHeads.set(repo, (heads = [...found].sort()));
  return heads;
}

const worktreeHeads = new WeakMap<Repo, string[]>();

/** Finding the repository: its git dir, the common dir shared by linked worktrees, and its object format. */
import path from 'node:path';
import { NotARepositoryError } from '../../core/errors.ts';
import { Git } from './git.ts';

export interface Repo {
  git: Git;
  gitDir: string;
  /** Shared by all worktrees: refs, objects and git-mem's index live here. */
  commonDir: string;
  objectsDir: string;
  objectFormat: 'sha1' | 'sha256';
}

export function openRepo(cwd: string, env: NodeJS.ProcessEnv): Repo {
  const git = new Git(cwd, env);
  const r = git.exec(['rev-parse', '--path-format=absolute', '--git-dir', '--git-common-dir', '--show-object-format']);
  if (r.status !== 0) {
    throw new NotARepositoryError(`not a git repository: ${cwd}`, 'run git mem inside a git repository, or git init one');
  }
  const [gitDir = '', commonDir = '', format = 'sha1'] = r.stdout.toString('utf8').trim().split('\n');
  const objectsDir = env.GIT_OBJECT_DIRECTORY ? path.resolve(cwd, env.GIT_OBJECT_DIRECTORY) : path.join(commonDir, 'objects');
  return { git, gitDir, commonDir, objectsDir, objectFormat: format === 'sha256' ? 'sha256' : 'sha1' };
}

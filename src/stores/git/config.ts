/** git config, read and written through git: the one place outside the settings table that asks it. */
import type { Git } from './git.ts';

/** Every value of a multi-valued key, in order (none when unset). */
export function configValues(git: Git, key: string): string[] {
  return git.exec(['config', '--get-all', key]).stdout.toString('utf8').split('\n').filter(Boolean);
}

/** Adds a value to a multi-valued key. */
export function addConfigValue(git: Git, key: string, value: string): void {
  git.run(['config', '--add', key, value]);
}

/** `git config --list` with scopes and origins, NUL-separated (parsed by services/config-report.ts). */
export function configListing(git: Git): string {
  const r = git.exec(['config', '--list', '-z', '--show-scope', '--show-origin']);
  return r.status === 0 ? r.stdout.toString('utf8') : '';
}

/** `git var -l`: every config value and the author and committer identities, one process (works outside a repository). */
export function configAndIdentities(git: Git): string {
  return git.exec(['var', '-l']).stdout.toString('utf8');
}

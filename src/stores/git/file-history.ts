/** A file's own history: the commits that changed it, as git tells them. */
import type { Repo } from './repo.ts';

/**
 * The newest commits (at most `max`) that changed a file, newest first: one path-limited `git log`,
 * bounded by count and not by date, so a file nobody touched for a long time still has its history
 * (a wall-clock window left such files, and any checkout of an old release, with none).
 */
export async function fileCommits(repo: Repo, file: string, max: number): Promise<string[]> {
  if (!repo.head || max <= 0) return [];
  // Started at once, read when awaited: the caller searches meanwhile.
  const r = await repo.git.start(['--literal-pathspecs', 'log', '--format=%H', '-n', String(max), repo.head, '--', file]);
  return r.status === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
}

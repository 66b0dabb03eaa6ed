/** The files commits changed, for many commits with one `git diff-tree --stdin`. */
import { otherWorktreeHeads, type Repo } from './repo.ts';

/**
 * commit → the paths it changed against its first parent (everything, for a
 * root commit), at most `limit` each. Commits that changed nothing, or are
 * not commits, are absent.
 */
export function changedPaths(repo: Repo, commits: readonly string[], limit = Infinity): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const wanted = new Set(commits);
  if (wanted.size === 0) return out;
  const r = repo.git.exec(['diff-tree', '--stdin', '-r', '--root', '--name-only', '-m', '--first-parent', '--no-renames', '-z'], { input: [...wanted].join('\n') + '\n' });
  if (r.status !== 0) return out;
  let list: string[] | undefined;
  for (const field of r.stdout.toString('utf8').split('\0')) {
    if (!field) continue;
    // Each commit's paths follow its id; a path never equals a commit id we asked for.
    if (wanted.has(field) && !out.has(field)) out.set(field, (list = []));
    else if (list && list.length < limit) list.push(field);
  }
  return out;
}

/** commit → its patch-id (`git patch-id --stable`): the same change gives the same id, whatever commit holds it. */
export function patchIds(repo: Repo, commits: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  if (commits.length === 0) return out;
  const diff = repo.git.exec(['diff-tree', '--stdin', '-p', '-r', '--root', '-m', '--first-parent', '--no-renames'], { input: [...new Set(commits)].join('\n') + '\n' });
  if (diff.status !== 0 || diff.stdout.length === 0) return out;
  const r = repo.git.exec(['patch-id', '--stable'], { input: diff.stdout });
  for (const line of r.stdout.toString('utf8').split('\n')) {
    const [id, commit] = line.split(' ');
    if (id && commit) out.set(commit, id);
  }
  return out;
}

/**
 * A commit's subject and patch-id (`git patch-id --stable`) with two
 * processes: one `diff-tree` printing the subject before the diff, piped to
 * `patch-id`. The patch-id is left out for a diff over `maxDiffBytes`, for a
 * commit that changed nothing, and for what is not a commit (then nothing).
 */
export function subjectAndPatchId(repo: Repo, commit: string, maxDiffBytes: number): { subject?: string; patchId?: string } {
  const diff = repo.git.exec(['diff-tree', '-p', '-r', '--root', '-m', '--first-parent', '--no-renames', '--always', '--pretty=format:%H%n%s', '--end-of-options', commit]);
  if (diff.status !== 0 || diff.stdout.length === 0) return {};
  const head = diff.stdout.subarray(0, Math.min(diff.stdout.length, 4096)).toString('utf8').split('\n');
  const subject = head[1]?.trim() || undefined;
  const out: { subject?: string; patchId?: string } = subject ? { subject } : {};
  // patch-id takes a line of hex alone for a commit's header: a subject like that would split the patch.
  if (diff.stdout.length > maxDiffBytes || (subject && /^[0-9a-f]{40,64}$/.test(subject))) return out;
  const r = repo.git.exec(['patch-id', '--stable'], { input: diff.stdout });
  const id = r.stdout.toString('utf8').split(' ')[0];
  if (r.status === 0 && id && /^[0-9a-f]{40,64}$/.test(id)) out.patchId = id;
  return out;
}

/** The files a commit's tree holds (`git ls-tree -r --name-only`), at most `limit`; none when it is not a commit. */
export function trackedFiles(repo: Repo, commit: string, limit = 100_000): string[] {
  const r = repo.git.exec(['ls-tree', '-r', '-z', '--name-only', '--end-of-options', commit]);
  if (r.status !== 0) return [];
  return r.stdout.toString('utf8').split('\0').filter(Boolean).slice(0, limit);
}

/**
 * Commits HEAD, a branch or a remote-tracking branch reaches, committed at or
 * after `since` (s), touching one of `paths` when given; newest first, at most
 * `max`. With commit-graph's changed-path filters git answers this without
 * opening trees, so the cost follows the window, not the history.
 */
export function liveCommitsSince(repo: Repo, options: { since: number; paths?: readonly string[]; max: number }): string[] {
  // Literal pathspecs: a file named `*.ts` or `:x` is that file, not a pattern.
  // --full-history: a commit on a side branch that touched the files is kept even when a merge undid nothing of it.
  const args = ['--literal-pathspecs', 'rev-list', `--max-count=${options.max}`, `--since=${Math.max(0, Math.floor(options.since))}`, '--full-history', '--branches', '--remotes'];
  if (repo.head) args.push('HEAD');
  args.push(...otherWorktreeHeads(repo));
  if (options.paths?.length) args.push('--', ...options.paths);
  const r = repo.git.exec(args);
  return r.status === 0 ? r.stdout.toString('utf8').split('\n').filter(Boolean) : [];
}

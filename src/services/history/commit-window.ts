/**
 * The window of commits staleness counts in (core/history/staleness.ts MAX_TOUCHING):
 * the newest commits where memories are measured, with the files each changed
 * and deleted. One `git log` of 2,000 commits costs up to 100 ms on a large
 * repository, paid by every new question after a commit; so the window of the
 * last place is kept (`<git common dir>/mem/window.json`) and carried to a new
 * HEAD that descends from it by the few commits between, as the results are
 * (services/history/staleness.ts).
 */
import { MAX_TOUCHING, type TouchingCommit } from '../../core/history/staleness.ts';
import { JsonFile } from '../../stores/cache/json-file.ts';
import { isAncestor, recentChanges } from '../../stores/git/history.ts';
import type { Repo } from '../../stores/git/repo.ts';

interface SavedWindow {
  place: string;
  commits: TouchingCommit[];
}

/** A place further than this from the saved one (in commits, or committed more than a week after) gets a window of its own. */
export const MAX_STEP = 200;
export const STEP_AGE = 7 * 24 * 3600;

/** Version 1. */
function cacheFile(repo: Repo): JsonFile<SavedWindow> {
  return new JsonFile<SavedWindow>(repo.mem, 'window', 1, (w) => typeof w.place === 'string' && Array.isArray(w.commits));
}

/** The newest MAX_TOUCHING commits of `place`, newest first. */
export function windowAt(repo: Repo, place: string): TouchingCommit[] {
  const saved = cacheFile(repo).read();
  if (saved?.place === place) return saved.commits;
  let commits: TouchingCommit[] | null = null;
  if (saved && isAncestor(repo, saved.place, place, STEP_AGE)) {
    const step = recentChanges(repo, 0, MAX_STEP + 1, place, [saved.place]);
    if (step.length <= MAX_STEP) commits = [...step, ...saved.commits].slice(0, MAX_TOUCHING);
  }
  commits ??= recentChanges(repo, 0, MAX_TOUCHING, place);
  cacheFile(repo).write({ place, commits });
  return commits;
}

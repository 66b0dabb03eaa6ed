/**
 * The window of commits staleness counts in (core/staleness.ts MAX_TOUCHING):
 * the newest commits where memories are measured, with the files each changed
 * and deleted. One `git log` of 2,000 commits costs up to 100 ms on a large
 * repository, paid by every new question after a commit; so the window of the
 * last place is kept (`<git common dir>/mem/window.json`) and carried to a new
 * HEAD that descends from it by the few commits between, as the results are
 * (services/staleness.ts).
 */
import fs from 'node:fs';
import { MAX_TOUCHING, type TouchingCommit } from '../core/staleness.ts';
import { writeFileAtomic } from '../io/atomic-write.ts';
import { isAncestor, recentChanges } from '../stores/git/history.ts';
import type { Repo } from '../stores/git/repo.ts';

interface SavedWindow {
  version: number;
  place: string;
  commits: TouchingCommit[];
}

const VERSION = 1;

/** A place further than this from the saved one (in commits, or committed more than a week after) gets a window of its own. */
export const MAX_STEP = 200;
export const STEP_AGE = 7 * 24 * 3600;

function read(file: string): SavedWindow | null {
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as SavedWindow;
    return saved.version === VERSION && typeof saved.place === 'string' && Array.isArray(saved.commits) ? saved : null;
  } catch {
    return null; // None yet: walked now.
  }
}

/** The newest MAX_TOUCHING commits of `place`, newest first. */
export function windowAt(repo: Repo, place: string): TouchingCommit[] {
  const file = repo.mem.file('window');
  const saved = read(file);
  if (saved?.place === place) return saved.commits;
  let commits: TouchingCommit[] | null = null;
  if (saved && isAncestor(repo, saved.place, place, STEP_AGE)) {
    const step = recentChanges(repo, 0, MAX_STEP + 1, place, [saved.place]);
    if (step.length <= MAX_STEP) commits = [...step, ...saved.commits].slice(0, MAX_TOUCHING);
  }
  commits ??= recentChanges(repo, 0, MAX_TOUCHING, place);
  try {
    if (repo.mem.writable()) writeFileAtomic(file, JSON.stringify({ version: VERSION, place, commits } satisfies SavedWindow));
  } catch {
    // A cache: walked again next time.
  }
  return commits;
}

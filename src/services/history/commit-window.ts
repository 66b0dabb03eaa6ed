/**
 * The window of commits staleness counts in (core/history/staleness.ts MAX_TOUCHING):
 * the newest commits where memories are measured, with the files each changed
 * and deleted. One `git log` of 2,000 commits costs up to 160 ms on a large
 * repository, paid by every new question after a commit; so the windows of the
 * last few places are kept (`<git common dir>/mem/window.json`): a place seen
 * before finds its window again (back on the branch after a checkout of an old
 * tag, where memories after the tag are measured at the branch's tip), and a
 * new HEAD that descends from a kept place gets its window by the few commits
 * between, as the results are (services/history/staleness.ts).
 */
import { MAX_TOUCHING, type TouchingCommit } from '../../core/history/staleness.ts';
import { JsonFile } from '../../stores/cache/json-file.ts';
import { isAncestor, recentChanges } from '../../stores/git/history.ts';
import { readFacts } from '../../stores/git/reachability.ts';
import type { Repo } from '../../stores/git/repo.ts';

interface SavedWindows {
  /**
   * The windows kept, the most recently made or used last: each place with its commits, newest
   * first, as text (read as one string and taken apart only for the window asked for: a JSON array
   * per commit took twice as long to read): a line per commit, `<id> <time>`, then a tab and an
   * entry per file it changed, `D<path>` for a file it deleted and ` <path>` for the others (git
   * quotes a path holding a tab or a line break).
   */
  places: Array<{ place: string; commits: string }>;
}

/** The text of a window (see SavedWindows). */
function windowText(commits: readonly TouchingCommit[]): string {
  return commits
    .map((c) => {
      const deleted = new Set(c.deleted ?? []);
      return `${c.commit} ${c.time}${c.paths.map((p) => `\t${deleted.has(p) ? 'D' : ' '}${p}`).join('')}`;
    })
    .join('\n');
}

/** The commits of a window's text. */
function windowCommits(text: string): TouchingCommit[] {
  if (text === '') return [];
  return text.split('\n').map((line) => {
    const [head = '', ...entries] = line.split('\t');
    const space = head.indexOf(' ');
    const paths: string[] = [];
    const deleted: string[] = [];
    for (const e of entries) {
      const path = e.slice(1);
      paths.push(path);
      if (e[0] === 'D') deleted.push(path);
    }
    return { commit: head.slice(0, space), time: Number(head.slice(space + 1)), paths, ...(deleted.length ? { deleted } : {}) };
  });
}

/** A place further than this from a kept one (in commits, or committed more than a week after) gets a window of its own. */
export const MAX_STEP = 200;
export const STEP_AGE = 7 * 24 * 3600;

/** Windows kept: a branch and the few places visited from it. */
const MAX_WINDOWS = 4;

/** Version 2: several windows, as text (version 1 kept one, as JSON). */
function cacheFile(repo: Repo): JsonFile<SavedWindows> {
  return new JsonFile<SavedWindows>(repo.mem, 'window', 2, (w) => Array.isArray(w.places) && w.places.every((p) => typeof p?.place === 'string' && typeof p.commits === 'string'));
}

/** The newest MAX_TOUCHING commits of `place`, newest first. */
export function windowAt(repo: Repo, place: string): TouchingCommit[] {
  const saved = cacheFile(repo).read() ?? { places: [] };
  const at = saved.places.findIndex((w) => w.place === place);
  if (at >= 0) {
    const found = saved.places[at]!;
    // Used again: kept longest. Written only when it was not the newest already.
    if (at !== saved.places.length - 1) cacheFile(repo).write({ places: [...saved.places.filter((w) => w !== found), found] });
    return windowCommits(found.commits);
  }
  let commits: TouchingCommit[] | null = null;
  let replaced = -1;
  // A kept place this one descends from, near: the newest kept first (HEAD a commit further on).
  // Their times are read at once: one committed long before or after this one is not asked about.
  const facts = saved.places.length ? readFacts(repo, [place, ...saved.places.map((w) => w.place)]) : new Map();
  const time = facts.get(place)?.time ?? 0;
  for (let i = saved.places.length - 1; i >= 0 && !commits; i--) {
    const kept = saved.places[i]!;
    const keptTime = facts.get(kept.place)?.time;
    if (keptTime === undefined || time - keptTime > STEP_AGE || keptTime > time + STEP_AGE) continue;
    if (!isAncestor(repo, kept.place, place, STEP_AGE)) continue;
    const step = recentChanges(repo, 0, MAX_STEP + 1, place, [kept.place]);
    if (step.length <= MAX_STEP) {
      commits = [...step, ...windowCommits(kept.commits)].slice(0, MAX_TOUCHING);
      replaced = i; // the place it grew from is rarely asked again: its window gives way
    }
  }
  commits ??= recentChanges(repo, 0, MAX_TOUCHING, place);
  save(repo, saved, place, commits, replaced);
  return commits;
}

/** Keeps `commits` as `place`'s window, the newest; `replace`: the index of a window it takes the place of (-1: none). */
function save(repo: Repo, saved: SavedWindows, place: string, commits: readonly TouchingCommit[], replace: number): void {
  const places = [...saved.places.filter((w, i) => i !== replace && w.place !== place), { place, commits: windowText(commits) }].slice(-MAX_WINDOWS);
  cacheFile(repo).write({ places });
}

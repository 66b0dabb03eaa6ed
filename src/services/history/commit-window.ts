/**
 * The window of commits staleness counts in (core/history/staleness.ts MAX_TOUCHING):
 * the newest commits where memories are measured, with the files each changed
 * and deleted. One `git log` of 2,000 commits costs up to 160 ms on a large
 * repository, paid by every new question after a commit; so what is known is
 * kept (`<git common dir>/mem/window.json`):
 *
 * - the windows of the last few places: a place seen before finds its window
 *   again (back on the branch after a checkout of an old tag, where memories
 *   after the tag are measured at the branch's tip), and a new HEAD that
 *   descends from a kept place gets its window by the few commits between, as
 *   the results are (services/history/staleness.ts);
 * - what each of their commits changed (a commit never changes): a place whose
 *   window mostly holds commits known already (another old tag near one seen
 *   before) lists its commits without diffs and asks git to diff the others only.
 */
import { MAX_TOUCHING, type TouchingCommit } from '../../core/history/staleness.ts';
import { JsonFile } from '../../stores/cache/json-file.ts';
import { changesOf, isAncestor, recentChanges, recentCommits } from '../../stores/git/history.ts';
import { readFacts } from '../../stores/git/reachability.ts';
import type { Repo } from '../../stores/git/repo.ts';

interface SavedWindows {
  /** The windows kept, the most recently made or used last: each place with its commits' ids, newest first, one line each. */
  places: Array<{ place: string; commits: string }>;
  /**
   * What the commits of the kept windows changed, as text (read as one string and taken apart
   * only as far as asked: a JSON array per commit took twice as long to read): a line per
   * commit, `<id> <time>`, then a tab and an entry per file it changed, `D<path>` for a file it
   * deleted and ` <path>` for the others (git quotes a path holding a tab or a line break).
   */
  changes: string;
}

/** A place further than this from a kept one (in commits, or committed more than a week after) gets a window of its own. */
export const MAX_STEP = 200;
export const STEP_AGE = 7 * 24 * 3600;

/** Windows kept: a branch and the few places visited from it. */
const MAX_WINDOWS = 4;

/** A new place's window is put together from known commits when at least this share of them is likely known. */
const MOSTLY_KNOWN = 0.5;

/** Version 3: the commits' changes kept once for all windows (version 2 kept each window whole, version 1 one window). */
function cacheFile(repo: Repo): JsonFile<SavedWindows> {
  return new JsonFile<SavedWindows>(
    repo.mem,
    'window',
    3,
    (w) => Array.isArray(w.places) && w.places.every((p) => typeof p?.place === 'string' && typeof p.commits === 'string') && typeof w.changes === 'string',
  );
}

/** The line of a commit in SavedWindows.changes. */
function changeLine(c: TouchingCommit): string {
  const deleted = new Set(c.deleted ?? []);
  return `${c.commit} ${c.time}${c.paths.map((p) => `\t${deleted.has(p) ? 'D' : ' '}${p}`).join('')}`;
}

function parseLine(line: string): TouchingCommit {
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
}

/** commit → its line, for the known commits (taken apart when asked for). */
function knownLines(saved: SavedWindows): Map<string, string> {
  const out = new Map<string, string>();
  if (saved.changes === '') return out;
  for (const line of saved.changes.split('\n')) out.set(line.slice(0, line.indexOf(' ')), line);
  return out;
}

const ids = (text: string): string[] => (text === '' ? [] : text.split('\n'));

/** The newest MAX_TOUCHING commits of `place`, newest first. */
export function windowAt(repo: Repo, place: string): TouchingCommit[] {
  const saved = cacheFile(repo).read() ?? { places: [], changes: '' };
  const known = knownLines(saved);
  const expand = (commits: readonly string[]): TouchingCommit[] | null => {
    const out: TouchingCommit[] = [];
    for (const c of commits) {
      const line = known.get(c);
      if (line === undefined) return null; // a damaged file: made again
      out.push(parseLine(line));
    }
    return out;
  };
  const at = saved.places.findIndex((w) => w.place === place);
  const found = at >= 0 ? expand(ids(saved.places[at]!.commits)) : null;
  if (found) {
    // Used again: kept longest. Written only when it was not the newest already.
    if (at !== saved.places.length - 1) save(repo, saved, known, place, found, at);
    return found;
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
    const before = step.length <= MAX_STEP ? expand(ids(kept.commits)) : null;
    if (before) {
      commits = [...step, ...before].slice(0, MAX_TOUCHING);
      replaced = i; // the place it grew from is rarely asked again: its window gives way
    }
  }
  // A kept window spanning this place's time (an old tag near one seen before): most of its commits are known.
  if (!commits && mostlyKnown(saved, known, time)) {
    const listed = recentCommits(repo, MAX_TOUCHING, place);
    const asked = changesOf(
      repo,
      listed.filter((c) => !known.has(c.commit)).map((c) => c.commit),
    );
    // A commit git says nothing of (a merge, one that changed nothing) changed no file, as in recentChanges.
    commits = listed.map((c) => asked.get(c.commit) ?? (known.has(c.commit) ? parseLine(known.get(c.commit)!) : { commit: c.commit, time: c.time, paths: [] }));
  }
  commits ??= recentChanges(repo, 0, MAX_TOUCHING, place);
  save(repo, saved, known, place, commits, replaced);
  return commits;
}

/**
 * Whether a window ending at `time` likely shares most of its commits with a kept one, taken to
 * span as long as that one: ending inside it, it shares what lies before `time`; ending after
 * it (a newer tag), what lies before the kept one's end.
 */
function mostlyKnown(saved: SavedWindows, known: ReadonlyMap<string, string>, time: number): boolean {
  return saved.places.some((w) => {
    const list = ids(w.commits);
    const [newest, oldest] = [known.get(list[0] ?? ''), known.get(list.at(-1) ?? '')];
    if (newest === undefined || oldest === undefined) return false;
    const [to, from] = [parseLine(newest).time, parseLine(oldest).time];
    if (!(to > from) || time < from) return false;
    const shared = time <= to ? (time - from) / (to - from) : 1 - (time - to) / (to - from);
    return shared >= MOSTLY_KNOWN;
  });
}

/** Keeps `commits` as `place`'s window, the newest; `replace`: the index of a window it takes the place of (-1: none). */
function save(repo: Repo, saved: SavedWindows, known: ReadonlyMap<string, string>, place: string, commits: readonly TouchingCommit[], replace: number): void {
  const places = [...saved.places.filter((w, i) => i !== replace && w.place !== place), { place, commits: commits.map((c) => c.commit).join('\n') }].slice(-MAX_WINDOWS);
  const lines = new Map<string, string>();
  for (const c of commits) lines.set(c.commit, known.get(c.commit) ?? changeLine(c));
  for (const w of places) for (const id of ids(w.commits)) if (!lines.has(id) && known.has(id)) lines.set(id, known.get(id)!);
  cacheFile(repo).write({ places, changes: [...lines.values()].join('\n') });
}

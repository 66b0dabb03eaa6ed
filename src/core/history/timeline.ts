/**
 * The timeline's shape (git mem ui, the HTML export): which commits sit on the
 * branch's first-parent line and which on a branch a merge brought in. Pure:
 * the commits come in, oldest first, with their parents.
 */
/** A commit of the timeline: a merge joins its branch's commits; a commit of a merged branch sits beside the line. */
export interface TimelineCommit {
  commit: string;
  subject: string;
  parents: string[];
  merge: boolean;
  /** Not on the first-parent line of the newest commit: a commit of a branch merged in. */
  side: boolean;
  /** For a merge: the commits of the range it brings in (its other parents' side). */
  joins: number;
}

/** The commits newest first, each placed: on the main line (first parents from the newest), or on a branch a merge joins. */
export function placeCommits(commits: ReadonlyArray<{ commit: string; subject: string; parents: string[] }>): TimelineCommit[] {
  const newestFirst = [...commits].reverse();
  const inRange = new Map(newestFirst.map((c) => [c.commit, c]));
  const main = new Set<string>();
  for (let c = newestFirst[0]; c && !main.has(c.commit); c = inRange.get(c.parents[0] ?? '')) main.add(c.commit);
  return newestFirst.map((c) => {
    let joins = 0;
    if (c.parents.length > 1) {
      const seen = new Set<string>();
      const todo = c.parents.slice(1);
      while (todo.length) {
        const o = todo.pop()!;
        if (seen.has(o) || main.has(o) || !inRange.has(o)) continue;
        seen.add(o);
        joins++;
        todo.push(...inRange.get(o)!.parents);
      }
    }
    return { commit: c.commit, subject: c.subject, parents: c.parents, merge: c.parents.length > 1, side: !main.has(c.commit), joins };
  });
}

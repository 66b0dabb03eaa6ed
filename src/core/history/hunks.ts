/** A line diff shown to people (a memory's scope at its commit, in git mem ui): hunks with context, pure. */

export interface DiffLine {
  /** ' ' kept, '-' removed, '+' added. */
  op: ' ' | '-' | '+';
  text: string;
  /** Line numbers before and after (null on the side that lacks the line). */
  old: number | null;
  new: number | null;
}

export interface DiffHunk {
  lines: DiffLine[];
}

/** Past this many cells (old lines × new lines after the common ends are cut) the diff is not computed. */
const MAX_CELLS = 4_000_000;

/**
 * The hunks turning `a` into `b`, with `context` kept lines around each
 * change; only those touching `ranges` (lines of `b`, inclusive) when given.
 * Null when the files are too large to compare here.
 */
export function lineDiff(a: readonly string[], b: readonly string[], context = 3, ranges?: ReadonlyArray<readonly [number, number]>): DiffHunk[] | null {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  if (x.length * y.length > MAX_CELLS) return null;
  // Longest common subsequence by dynamic programming, from the end.
  const w = y.length + 1;
  const lcs = new Uint32Array((x.length + 1) * w);
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i * w + j] = x[i] === y[j] ? lcs[(i + 1) * w + j + 1]! + 1 : Math.max(lcs[(i + 1) * w + j]!, lcs[i * w + j + 1]!);
    }
  }
  const all: DiffLine[] = [];
  for (let k = 0; k < head; k++) all.push({ op: ' ', text: a[k]!, old: k + 1, new: k + 1 });
  let i = 0;
  let j = 0;
  while (i < x.length || j < y.length) {
    if (i < x.length && j < y.length && x[i] === y[j]) {
      all.push({ op: ' ', text: x[i]!, old: head + i + 1, new: head + j + 1 });
      i++;
      j++;
    } else if (i < x.length && (j === y.length || lcs[(i + 1) * w + j]! >= lcs[i * w + j + 1]!)) {
      // Removed lines before the added ones that replace them, as git shows them.
      all.push({ op: '-', text: x[i]!, old: head + i + 1, new: null });
      i++;
    } else {
      all.push({ op: '+', text: y[j]!, old: null, new: head + j + 1 });
      j++;
    }
  }
  for (let k = 0; k < tail; k++) all.push({ op: ' ', text: a[a.length - tail + k]!, old: a.length - tail + k + 1, new: b.length - tail + k + 1 });

  const nearNew = (n: number) => all[n]!.new ?? all.slice(n).find((l) => l.new !== null)?.new ?? b.length;
  const wanted = (n: number) => !ranges?.length || ranges.some(([from, to]) => nearNew(n) >= from - context && nearNew(n) <= to + context);
  const keep = new Uint8Array(all.length);
  all.forEach((l, n) => {
    if (l.op === ' ' || !wanted(n)) return;
    for (let k = Math.max(0, n - context); k <= Math.min(all.length - 1, n + context); k++) keep[k] = 1;
  });
  const hunks: DiffHunk[] = [];
  let current: DiffLine[] | null = null;
  all.forEach((l, n) => {
    if (!keep[n]) {
      current = null;
      return;
    }
    if (!current) {
      current = [];
      hunks.push({ lines: current });
    }
    current.push(l);
  });
  return hunks;
}

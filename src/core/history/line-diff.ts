/**
 * Lines added and removed between two versions of a file, as `git diff
 * --numstat` counts them, computed in-process from the two blobs: one
 * `cat-file` reads any number of pairs, where git would need a diff process
 * per pair (a pathspec shared by many pairs diffs every file for each).
 */

export interface LineCounts {
  added: number;
  removed: number;
}

/** The exact count takes (lines × edits) steps; beyond this many it is not worth its time, and lines present on one side only are counted instead. */
const MAX_STEPS = 200_000;

/** Like git, a NUL in the first 8,000 bytes makes a file binary. */
function isBinary(data: Uint8Array): boolean {
  const n = Math.min(data.length, 8000);
  for (let i = 0; i < n; i++) if (data[i] === 0) return true;
  return false;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** `old` or `next` null: the file did not exist on that side. A changed binary file counts as one line added, as git's numstat parser here does. */
export function lineCounts(old: Uint8Array | null, next: Uint8Array | null): LineCounts {
  if ((old && isBinary(old)) || (next && isBinary(next))) return { added: 1, removed: 0 };
  const a = old ? splitLines(Buffer.from(old).toString('utf8')) : [];
  const b = next ? splitLines(Buffer.from(next).toString('utf8')) : [];
  return countEdits(a, b);
}

/** The fewest lines removed from `a` and added to get `b` (Myers' O(ND) walk on the lines left after the common ends). */
export function countEdits(a: readonly string[], b: readonly string[]): LineCounts {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const ids = new Map<string, number>();
  const id = (line: string) => {
    let n = ids.get(line);
    if (n === undefined) ids.set(line, (n = ids.size));
    return n;
  };
  const x = a.slice(start, endA).map(id);
  const y = b.slice(start, endB).map(id);
  const d = editDistance(x, y, Math.floor(MAX_STEPS / Math.max(1, x.length + y.length)));
  if (d === null) return unmatchedLines(x, y);
  // d = added + removed and added - removed = |y| - |x|.
  return { added: (d + y.length - x.length) / 2, removed: (d - y.length + x.length) / 2 };
}

function editDistance(a: readonly number[], b: readonly number[], limit: number): number | null {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) return n + m;
  const max = Math.min(n + m, limit);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) return d;
    }
  }
  return null;
}

/** Lines on one side beyond their count on the other: what a diff counts, except for moved lines. */
function unmatchedLines(a: readonly number[], b: readonly number[]): LineCounts {
  const count = new Map<number, number>();
  for (const l of a) count.set(l, (count.get(l) ?? 0) + 1);
  for (const l of b) count.set(l, (count.get(l) ?? 0) - 1);
  let added = 0;
  let removed = 0;
  for (const c of count.values()) {
    if (c > 0) removed += c;
    else added -= c;
  }
  return { added, removed };
}

/** How much of `old` is still in `next` (0 to 1): lines both hold, in any order, over the longer of the two (linear: it is asked of many candidate pairs). */
export function similarity(old: Uint8Array, next: Uint8Array): number {
  return lineSimilarity(textLines(old), textLines(next));
}

/** A file's lines, as similarity compares them (split once where one file is compared with many). */
export function textLines(data: Uint8Array): string[] {
  return splitLines(Buffer.from(data).toString('utf8'));
}

/** similarity of two files given as their lines. */
export function lineSimilarity(a: readonly string[], b: readonly string[]): number {
  const longer = Math.max(a.length, b.length);
  if (longer === 0) return 1;
  const count = new Map<string, number>();
  for (const l of a) count.set(l, (count.get(l) ?? 0) + 1);
  let kept = 0;
  for (const l of b) {
    const c = count.get(l) ?? 0;
    if (c > 0) {
      kept++;
      count.set(l, c - 1);
    }
  }
  return kept / longer;
}

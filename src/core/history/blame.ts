/** Reading `git blame --porcelain`, and folding line numbers into ranges. Pure. */

/** The commit behind each final line number, in the order blame printed them. */
export function parseBlamePorcelain(text: string): Array<{ commit: string; line: number }> {
  const out: Array<{ commit: string; line: number }> = [];
  // A header line: <commit> <original line> <final line> [<lines in group>]; then key/value lines; then "\t<content>".
  const header = /^([0-9a-f]{40,64}) \d+ (\d+)(?: \d+)?$/;
  for (const line of text.split('\n')) {
    const m = header.exec(line);
    if (m) out.push({ commit: m[1]!, line: Number(m[2]) });
  }
  return out;
}

/** Sorted, merged ranges of line numbers: [3, 4, 5, 9] → [[3, 5], [9, 9]]. */
export function lineRanges(lines: Iterable<number>): Array<[number, number]> {
  const sorted = [...new Set(lines)].sort((a, b) => a - b);
  const out: Array<[number, number]> = [];
  for (const n of sorted) {
    const last = out[out.length - 1];
    if (last && n === last[1] + 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

/** `12-40` or `12`: how a person writes a range. */
export function formatRange([from, to]: readonly [number, number]): string {
  return from === to ? String(from) : `${from}-${to}`;
}

/** `file`, `file:12` or `file:12,40` → the file and the lines asked for (inclusive). */
export function parseBlameTarget(text: string): { file: string; from?: number; to?: number } | null {
  const m = /^(.+?)(?::(\d+)(?:,(\d+))?)?$/.exec(text);
  if (!m || !m[1]) return null;
  const from = m[2] ? Number(m[2]) : undefined;
  const to = m[3] ? Number(m[3]) : from;
  if (from !== undefined && (from < 1 || to! < from)) return null;
  return { file: m[1], from, to };
}

/**
 * Which lines of a file an edit is about to change, from the tool's input as
 * Claude Code sends it (Edit: `old_string`; MultiEdit: `edits[].old_string`).
 * Pure: the file's current text in, inclusive 1-based line ranges out.
 */

/** The `old_string`s of an Edit or MultiEdit input (empty for any other shape). */
export function editNeedles(toolInput: Record<string, unknown>): string[] {
  const one = typeof toolInput.old_string === 'string' ? [toolInput.old_string] : [];
  const many = Array.isArray(toolInput.edits) ? toolInput.edits.flatMap((e) => (e && typeof e === 'object' && typeof (e as { old_string?: unknown }).old_string === 'string' ? [(e as { old_string: string }).old_string] : [])) : [];
  return [...one, ...many].filter((n) => n.trim() !== '');
}

/** Line ranges where each needle first occurs in `content`, merged and sorted; a needle not found adds nothing. */
export function editedLines(content: string, needles: readonly string[]): Array<[number, number]> {
  const ranges: Array<[number, number]> = [];
  for (const needle of needles) {
    const at = content.indexOf(needle);
    if (at < 0) continue;
    const from = countLines(content, 0, at) + 1;
    // A needle ending in a newline does not reach into the next line.
    const to = from + countLines(needle, 0, needle.endsWith('\n') ? needle.length - 1 : needle.length);
    ranges.push([from, to]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: Array<[number, number]> = [];
  for (const r of ranges) {
    const last = merged.at(-1);
    if (last && r[0] <= last[1] + 1) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

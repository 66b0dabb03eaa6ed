/**
 * Just enough roff (man(7) macros) for git-mem's manual page. Text goes
 * through `text()`: backslashes, hyphen-minus and line-initial dots are
 * escaped; `code` in backticks becomes bold, <placeholders> italic.
 */

/** Escapes plain text for roff; `-` becomes `\-` so options copy and search as typed. */
export function esc(s: string): string {
  return s.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/'/g, "\\(aq").replace(/"/g, '\\(dq');
}

/** Guards a line against being read as a request (leading `.` or `'`). */
function guard(line: string): string {
  return /^[.']/.test(line) ? `\\&${line}` : line;
}

/** Inline markup: `code` → bold, <placeholder> → italic inside its brackets (also in code), the rest escaped. */
export function inline(s: string): string {
  const italics = (t: string) => esc(t).replace(/<([^<>\s][^<>]*)>/g, '<\\fI$1\\fP>');
  return s
    .split(/(`[^`]*`)/)
    .map((part) => (part.startsWith('`') && part.endsWith('`') && part.length > 1 ? `\\fB${italics(part.slice(1, -1))}\\fR` : italics(part)))
    .join('');
}

/** A paragraph of inline text, one roff line per source line. */
export function text(s: string): string {
  return s
    .split('\n')
    .map((l) => guard(inline(l.trim())))
    .join('\n');
}

/** A block shown as is (examples, the note format). */
export function literal(s: string): string {
  return ['.RS 4', '.nf', ...s.split('\n').map((l) => guard(esc(l))), '.fi', '.RE'].join('\n');
}

/** Macro argument in quotes. */
export function arg(s: string): string {
  return `"${esc(s)}"`;
}

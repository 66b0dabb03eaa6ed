/**
 * Text from memories is written by teammates (it arrives by pull): before it
 * reaches a terminal, control characters are made visible, as git shows
 * unsafe characters in paths, so that no escape sequence in a memory can move
 * the cursor, retitle the window or hide what follows. Pure.
 */

/**
 * C0 controls other than tab, newline and the CR of a CRLF line end, DEL, and
 * the C1 controls (U+0080 to U+009F, e.g. CSI). A lone CR is one: it returns
 * the cursor, so what follows overwrites the line.
 */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]|\r(?!\n)/g;

/** Control characters shown as `^[` (caret notation) or `<U+009B>`; tabs and line ends kept. */
export function visible(text: string): string {
  return text.replace(CONTROL, (c) => {
    const code = c.charCodeAt(0);
    if (code < 0x20) return `^${String.fromCharCode(code + 64)}`;
    if (code === 0x7f) return '^?';
    return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
  });
}

/** Control characters removed (for context injected into a model, where caret notation would only be noise). */
export function withoutControls(text: string): string {
  return text.replace(CONTROL, '');
}

/**
 * The rule for a document of memory text (the markdown exports, `log --format md`):
 * shown as `visible` where it reaches a terminal, exact where it goes to a file or
 * a pipe, which keep the notes' bytes as `--json` does.
 */
export function forDestination(text: string, toTerminal: boolean): string {
  return toTerminal ? visible(text) : text;
}

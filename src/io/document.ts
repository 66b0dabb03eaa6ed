/** Writing a document (an export, a digest) where the user asked: a file given with -o, or stdout. */
import fs from 'node:fs';
import tty from 'node:tty';
import { forDestination } from '../core/terminal-text.ts';
import type { Io } from './io.ts';

/**
 * Writes `text` to `file`, or to stdout without one, through the terminal-text
 * rule for wherever it lands: a file named with -o may be a terminal too (/dev/tty).
 * JSON is written as it is, everywhere, as --json is: it escapes controls itself.
 */
export function writeDocument(io: Io, text: string, file: string | undefined, format: 'text' | 'json' = 'text'): void {
  const shown = (toTerminal: boolean) => (format === 'json' ? text : forDestination(text, toTerminal));
  if (file === undefined) {
    if (text) io.out(shown(io.stdoutIsTTY));
    return;
  }
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeFileSync(fd, shown(tty.isatty(fd)));
  } finally {
    fs.closeSync(fd);
  }
}

/** A one-line progress bar on stderr, drawn only when stderr is a terminal; otherwise every call does nothing. */
import type { Io } from './io.ts';

export interface Progress {
  update(done: number, total: number): void;
  /** Erases the bar. */
  finish(): void;
}

const WIDTH = 30;
const REDRAW_MS = 80;

export function progressBar(io: Io, label: string, unit = '', now: () => number = () => Date.now()): Progress {
  if (!io.stderrIsTTY) return { update: () => {}, finish: () => {} };
  let last = -Infinity;
  let drawn = false;
  return {
    update(done, total) {
      const t = now();
      if (done < total && t - last < REDRAW_MS) return;
      last = t;
      const ratio = total > 0 ? Math.min(1, done / total) : 1;
      const filled = Math.round(ratio * WIDTH);
      io.errRaw(`\r${label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.round(ratio * 100)).padStart(3)}% ${done}/${total}${unit ? ` ${unit}` : ''}`);
      drawn = true;
    },
    finish() {
      if (drawn) io.errRaw('\r\x1b[K');
      drawn = false;
    },
  };
}

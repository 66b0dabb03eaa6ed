/** Terminal I/O: data to stdout, notices to stderr, colour only on a TTY and never with NO_COLOR. */
import { isatty } from 'node:tty';
import { Chalk, type ChalkInstance } from 'chalk';

export interface Io {
  readonly stdoutIsTTY: boolean;
  /** Progress bars go to stderr, and only when it is a terminal. */
  readonly stderrIsTTY: boolean;
  readonly stdinIsTTY: boolean;
  readonly color: ChalkInstance;
  out(text: string): void;
  err(text: string): void;
  /** Writes to stderr as is (no newline added): for redrawing a progress line. */
  errRaw(text: string): void;
  readStdin(): Promise<string>;
}

/**
 * The last of --color / --no-color (before any `--`) decides; then NO_COLOR (set and not
 * empty, as no-color.org says) turns colour off and FORCE_COLOR on; else colour on a TTY.
 */
export function colorEnabled(env: NodeJS.ProcessEnv, isTTY: boolean, argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  const flags = end === -1 ? argv : argv.slice(0, end);
  for (let i = flags.length - 1; i >= 0; i--) {
    if (flags[i] === '--no-color' || flags[i] === '--color=false') return false;
    if (flags[i] === '--color' || flags[i] === '--color=true') return true;
  }
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0') return true;
  return isTTY && env.TERM !== 'dumb';
}

export function systemIo(env: NodeJS.ProcessEnv, argv: readonly string[]): Io {
  const stdoutIsTTY = Boolean(process.stdout.isTTY);
  return {
    stdoutIsTTY,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    // isatty, not process.stdin.isTTY: that makes the stdin stream, which a command that never reads it need not pay for.
    stdinIsTTY: isatty(0),
    color: new Chalk({ level: colorEnabled(env, stdoutIsTTY, argv) ? 1 : 0 }),
    out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
    errRaw: (text) => process.stderr.write(text),
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}

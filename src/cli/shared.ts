/** Options and helpers shared by command modules. */
import type { AppContext } from '../context.ts';
import { UsageError } from '../core/errors.ts';
import { canonicalTime, parseDateArg } from '../core/time.ts';

export const jsonOption = { type: 'boolean', default: false, describe: 'Print JSON for tools' } as const;

/**
 * The body of -m or --file. Standard input is read only when asked (`-m -` or `--file -`), as git
 * reads a message from it only for `-F -`: a harness that leaves stdin open never makes us wait.
 */
export async function readBody(ctx: AppContext, message: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (message === '-' || (message === undefined && file === '-')) return ctx.io.readStdin();
  if (message !== undefined) return message;
  if (file !== undefined) {
    const fs = await import('node:fs');
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  return undefined;
}

/** A --since or --until value: a date, an ISO time or an age (7d, 2w), as canonical UTC. */
export function dateOption(text: string | undefined, flag: string, now: Date): string | undefined {
  if (text === undefined) return undefined;
  const date = parseDateArg(text, now);
  if (!date) throw new UsageError(`--${flag} '${text}' is not a date; use 2026-01-31, an ISO time, or an age like 7d`);
  // `--until 2026-01-31` means up to the end of that day, as people read it, not its first second.
  if (flag === 'until' && /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(text)) return new Date(date.getTime() + 86_400_000 - 1).toISOString();
  return canonicalTime(date);
}

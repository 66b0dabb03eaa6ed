/** Options and helpers shared by command modules. */
import type { Argv } from 'yargs';
import type { AppContext } from '../context.ts';

export const jsonOption = { type: 'boolean', default: false, describe: 'Print JSON for tools' } as const;

/** Body text from -m, --file (`-` for stdin) or piped stdin. */
export async function readBody(ctx: AppContext, message: string | undefined, file: string | undefined): Promise<string | undefined> {
  if (message !== undefined) return message;
  if (file === '-') return ctx.io.readStdin();
  if (file !== undefined) {
    const fs = await import('node:fs');
    try {
      return fs.readFileSync(file, 'utf8');
    } catch (err) {
      const { UsageError } = await import('../core/errors.ts');
      throw new UsageError(`cannot read --file ${file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  return undefined;
}

export type CommandBuilder<T> = (y: Argv) => Argv<T>;

import fs from 'node:fs';
import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { checkNamespace } from '../../core/validate.ts';
import { json } from '../../render/render.ts';
import { progressBar } from '../../io/progress.ts';
import { type ExportFormat, exportMemories, importMemories } from '../../services/transfer.ts';
import { jsonOption } from '../shared.ts';

export function exportCommand(ctx: AppContext): CommandModule<object, { namespace?: string[]; format: ExportFormat; output?: string }> {
  return {
    command: 'export',
    describe: 'Write every memory as JSONL (one per line, the --json shape) or markdown',
    builder: (y) =>
      y
        .option('namespace', { alias: 'n', type: 'string', array: true, describe: 'Only this namespace (repeatable)' })
        .option('format', { type: 'string', choices: ['jsonl', 'md'], default: 'jsonl', describe: 'jsonl (lossless, for git mem import) or md' })
        .option('output', { alias: 'o', type: 'string', describe: 'Write to this file instead of stdout' })
        .example('git mem export > memories.jsonl', '') as never,
    handler: async (argv) => {
      const namespaces = argv.namespace?.map((n) => checkNamespace(n, ctx.settings.namespaces));
      const text = await exportMemories(ctx, { namespaces, format: argv.format });
      if (argv.output) fs.writeFileSync(argv.output, text);
      else if (text) process.stdout.write(text);
    },
  };
}

export function importCommand(ctx: AppContext): CommandModule<object, { file: string; json: boolean }> {
  return {
    command: 'import <file>',
    describe: 'Add memories from JSONL (- for stdin); every line is checked before anything is written',
    builder: (y) =>
      y
        .positional('file', { type: 'string', demandOption: true, describe: 'JSONL file, or - for stdin' })
        .option('json', jsonOption)
        .epilogue('Each line: {"namespace", "summary", optional "body", "tags", "status", "spec", "phase", "relates_to", "commit", "key", "created", "updated", "author"}. A line without a key gets a new one; a key the notes already hold is left as it is.') as never,
    handler: async (argv) => {
      let text: string;
      // yargs turns a lone `-` positional into an empty string.
      if (argv.file === '-' || (argv.file === '' && process.argv.includes('-'))) text = await ctx.io.readStdin();
      else {
        try {
          text = fs.readFileSync(argv.file, 'utf8');
        } catch (err) {
          throw new UsageError(`cannot read ${argv.file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
        }
      }
      const bar = progressBar(ctx.io, 'import', 'memories');
      const result = await importMemories(ctx, text, (done, total) => bar.update(done, total));
      bar.finish();
      ctx.io.out(argv.json ? json(result) : `imported ${result.imported} ${result.imported === 1 ? 'memory' : 'memories'}${result.unchanged ? `, ${result.unchanged} already present` : ''}`);
    },
  };
}

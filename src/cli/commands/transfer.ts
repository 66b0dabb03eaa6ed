import fs from 'node:fs';
import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { checkNamespace } from '../../core/validate.ts';
import { json, memoryJson } from '../../render/render.ts';
import { progressBar } from '../../io/progress.ts';
import { writeDocument } from '../../io/document.ts';
import { formatId } from '../../core/memory.ts';
import { visible } from '../../core/terminal-text.ts';
import { EXPORT_FORMATS, type ExportFormat, exportMemories, importFromClaude, importMemories } from '../../services/transfer.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

export function exportCommand(ctx: AppContext) {
  return defineCommand({
    command: 'export',
    describe: 'Write every memory as JSONL (one per line, the --json shape) or markdown',
    builder: (y) =>
      y
        .option('namespace', { alias: 'n', type: 'string', array: true, describe: 'Only this namespace (repeatable)' })
        .option('format', {
          type: 'string',
          choices: [...EXPORT_FORMATS, 'html'],
          default: 'jsonl',
          describe: 'jsonl (lossless, for git mem import), md (the notes as stored), claude-md (active decisions, patterns and blockers as a section to paste into CLAUDE.md), or html (the views of git mem ui as one read-only page: every memory, with the revisions, commit, changed files and scope diff of the newest 300, and the text of the 100 files most memories are about, at most 3,000 lines each and 8 MB in all)',
        })
        .option('output', { alias: 'o', type: 'string', describe: 'Write to this file instead of stdout (markdown keeps control characters exact, unless the file is a terminal)' })
        .example('git mem export > memories.jsonl', '')
        .example('git mem export --format claude-md >> CLAUDE.md', 'Append the project memory to CLAUDE.md')
        .example('git mem export --format html -o memories.html', 'One self-contained page to attach to a pull request') as never,
    parse: (argv: { namespace?: string[]; format: ExportFormat | 'html'; output?: string }) => ({
      namespaces: argv.namespace?.map((n) => checkNamespace(n, ctx.settings.namespaces)),
      format: argv.format,
      ...(argv.output !== undefined ? { output: argv.output } : {}),
    }),
    run: async (o) => {
      if (o.format === 'html') {
        const { exportHtml } = await import('../../ui/export.ts');
        return exportHtml(ctx, { namespaces: o.namespaces });
      }
      return exportMemories(ctx, { namespaces: o.namespaces, format: o.format });
    },
    render: (text, o) => writeDocument(ctx.io, text, o.output, o.format === 'jsonl' || o.format === 'html' ? 'json' : 'text'),
  });
}

interface ImportArgs {
  file?: string;
  from?: 'claude';
  'attach-to'?: string;
  'dry-run': boolean;
  json: boolean;
}

export function importCommand(ctx: AppContext): CommandModule<object, ImportArgs> {
  return {
    command: 'import [file]',
    describe: "Add memories from JSONL (- for stdin), or from Claude Code's own memory (--from claude); every line is checked before anything is written",
    builder: (y) =>
      y
        .positional('file', { type: 'string', describe: 'JSONL file, or - for stdin' })
        .option('from', { type: 'string', choices: ['claude'], describe: "claude: CLAUDE.md, .claude/CLAUDE.md and Claude Code's auto memory of this project (~/.claude/projects/<project>/memory/*.md)" })
        .option('attach-to', { type: 'string', describe: "Attach lines whose commit this repository lacks (another repository's export) to this commit instead of refusing the file" })
        .option('dry-run', { type: 'boolean', default: false, describe: 'Print what would be imported; write nothing' })
        .option('json', jsonOption)
        .example('git mem import memories.jsonl', '')
        .example('git mem import --attach-to HEAD other-repo.jsonl', "Import another repository's memories onto the commit checked out")
        .example('git mem import --from claude --dry-run', "See what Claude Code's memory of this project would add")
        .epilogue(
          'Each JSONL line: {"namespace", "summary", optional "body", "tags", "status", "spec", "phase", "relates_to", "commit", "key", "created", "updated", "author", "paths", "commit_subject", "patch_id"}. A commit this repository lacks fails the whole import unless --attach-to names the commit to attach those lines to. A line without a key gets one from its content, so importing a file twice adds nothing; lines without "created" are given the time of the import, a millisecond apart, so they list in the order of the file; a key the notes already hold is left as it is. --from claude proposes one memory per list item or paragraph (namespace from the signal detector, else the heading, else patterns), leaves out what a memory here already says, and redacts secrets as every write does.',
        ) as never,
    handler: async (argv) => {
      if (argv.from && argv.file !== undefined) throw new UsageError('give a file or --from claude, not both');
      if (argv.from && argv['attach-to'] !== undefined) throw new UsageError('--attach-to works with a JSONL file');
      if (argv.from === 'claude') {
        const r = await importFromClaude(ctx, { dryRun: argv['dry-run'] });
        if (argv.json) {
          ctx.io.out(json({ files: r.files, imported: r.imported, unchanged: r.unchanged, duplicates: r.duplicates, dryRun: argv['dry-run'], memories: r.memories.map(memoryJson) }));
          return;
        }
        if (!r.files.length) {
          ctx.io.out("no Claude Code memory for this project (CLAUDE.md, .claude/CLAUDE.md, ~/.claude/projects/<project>/memory/)");
          return;
        }
        const lines = r.memories.map((m) => `${argv['dry-run'] ? 'would import' : 'imported'}  ${ctx.io.color.cyan(m.namespace.padEnd(10))}  ${visible(m.summary)}${argv['dry-run'] ? '' : `  ${ctx.io.color.dim(formatId(m))}`}`);
        const n = r.memories.length;
        lines.push(`${argv['dry-run'] ? 'would import' : 'imported'} ${n} ${n === 1 ? 'memory' : 'memories'} from ${r.files.length} file${r.files.length === 1 ? '' : 's'}${r.duplicates + r.unchanged ? `; ${r.duplicates + r.unchanged} already here` : ''}`);
        ctx.io.out(lines.join('\n'));
        return;
      }
      if (argv['dry-run']) throw new UsageError('--dry-run works with --from claude');
      if (argv.file === undefined) throw new UsageError('give a JSONL file (- for stdin), or --from claude');
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
      const result = await importMemories(ctx, text, (done, total) => bar.update(done, total), { attachTo: argv['attach-to'] });
      bar.finish();
      const attached = result.attachedTo !== undefined ? { attached: result.attached ?? 0, attachedTo: result.attachedTo } : {};
      const onto = result.attached ? ` (${result.attached} attached to ${result.attachedTo!.slice(0, 7)}: their commits are not in this repository)` : '';
      ctx.io.out(argv.json ? json({ imported: result.imported, unchanged: result.unchanged, ...attached }) : `imported ${result.imported} ${result.imported === 1 ? 'memory' : 'memories'}${result.unchanged ? `, ${result.unchanged} already present` : ''}${onto}`);
    },
  };
}

import fs from 'node:fs';
import type { ChalkInstance } from 'chalk';
import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { checkNamespace } from '../../core/validate.ts';
import { json, memoryJson } from '../../render/render.ts';
import { progressBar } from '../../io/progress.ts';
import { writeDocument } from '../../io/document.ts';
import { formatId } from '../../core/memory.ts';
import { visible } from '../../core/terminal-text.ts';
import { type ClaudeImportResult, EXPORT_FORMATS, type ExportFormat, exportMemories, type ImportResult, importFromClaude, importMemories } from '../../services/transfer.ts';
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

/** Claude Code's memory of this project, or a JSONL file (`-`: standard input, read by the run step). */
export type ImportOptions = { from: 'claude'; dryRun: boolean; json: boolean } | { from: 'jsonl'; file: string; attachTo?: string; json: boolean };

export function parseImport(argv: ImportArgs): ImportOptions {
  if (argv.from && argv.file !== undefined) throw new UsageError('give a file or --from claude, not both');
  if (argv.from && argv['attach-to'] !== undefined) throw new UsageError('--attach-to works with a JSONL file');
  if (argv.from === 'claude') return { from: 'claude', dryRun: argv['dry-run'], json: argv.json };
  if (argv['dry-run']) throw new UsageError('--dry-run works with --from claude');
  if (argv.file === undefined) throw new UsageError('give a JSONL file (- for stdin), or --from claude');
  return { from: 'jsonl', file: argv.file, ...(argv['attach-to'] !== undefined ? { attachTo: argv['attach-to'] } : {}), json: argv.json };
}

export type ImportRun = { from: 'claude'; result: ClaudeImportResult } | { from: 'jsonl'; result: ImportResult };

export function renderImport(r: ImportRun, o: ImportOptions, c: ChalkInstance): string {
  if (r.from === 'claude') {
    const dryRun = o.from === 'claude' && o.dryRun;
    const m = r.result;
    if (o.json) return json({ files: m.files, imported: m.imported, unchanged: m.unchanged, duplicates: m.duplicates, dryRun, memories: m.memories.map(memoryJson) });
    if (!m.files.length) return 'no Claude Code memory for this project (CLAUDE.md, .claude/CLAUDE.md, ~/.claude/projects/<project>/memory/)';
    const verb = dryRun ? 'would import' : 'imported';
    const lines = m.memories.map((x) => `${verb}  ${c.cyan(x.namespace.padEnd(10))}  ${visible(x.summary)}${dryRun ? '' : `  ${c.dim(formatId(x))}`}`);
    const n = m.memories.length;
    lines.push(`${verb} ${n} ${n === 1 ? 'memory' : 'memories'} from ${m.files.length} file${m.files.length === 1 ? '' : 's'}${m.duplicates + m.unchanged ? `; ${m.duplicates + m.unchanged} already here` : ''}`);
    return lines.join('\n');
  }
  const result = r.result;
  if (o.json) {
    const attached = result.attachedTo !== undefined ? { attached: result.attached ?? 0, attachedTo: result.attachedTo } : {};
    return json({ imported: result.imported, unchanged: result.unchanged, ...attached });
  }
  const onto = result.attached ? ` (${result.attached} attached to ${result.attachedTo!.slice(0, 7)}: their commits are not in this repository)` : '';
  return `imported ${result.imported} ${result.imported === 1 ? 'memory' : 'memories'}${result.unchanged ? `, ${result.unchanged} already present` : ''}${onto}`;
}

export function importCommand(ctx: AppContext) {
  return defineCommand({
    command: 'import [file]',
    dashPositional: true,
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
    parse: parseImport,
    run: async (o: ImportOptions): Promise<ImportRun> => {
      if (o.from === 'claude') return { from: 'claude', result: await importFromClaude(ctx, { dryRun: o.dryRun }) };
      let text: string;
      if (o.file === '-') text = await ctx.io.readStdin();
      else {
        try {
          text = fs.readFileSync(o.file, 'utf8');
        } catch (err) {
          throw new UsageError(`cannot read ${o.file}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
        }
      }
      const bar = progressBar(ctx.io, 'import', 'memories');
      try {
        return { from: 'jsonl', result: await importMemories(ctx, text, (done, total) => bar.update(done, total), { attachTo: o.attachTo }) };
      } finally {
        bar.finish();
      }
    },
    render: (r, o) => ctx.io.out(renderImport(r, o, ctx.io.color)),
  });
}

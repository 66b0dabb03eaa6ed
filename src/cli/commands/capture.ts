import type { AppContext } from '../../context.ts';
import { checkNamespace, checkPaths, parseTags } from '../../core/validate.ts';
import { json, memoryJson } from '../../render/render.ts';
import { captureMemory } from '../../services/capture.ts';
import { findMemory, markSuperseded } from '../../services/memories.ts';
import { linkRef } from '../../core/lifecycle/links.ts';
import { defineCommand } from '../command.ts';
import { jsonOption, readBody } from '../shared.ts';

interface CaptureArgs {
  namespace: string;
  summary: string[];
  message?: string;
  file?: string;
  tags?: string;
  spec?: string;
  phase?: string;
  status?: string;
  'relates-to'?: string[];
  supersedes?: string;
  commit?: string;
  paths?: string;
  'force-truncate': boolean;
  json: boolean;
}

export function captureCommand(ctx: AppContext) {
  return defineCommand({
    command: 'capture <namespace> <summary..>',
    describe: 'Capture a memory, attached to HEAD (or --commit); prints its id',
    builder: (y) =>
      y
        .positional('namespace', { type: 'string', demandOption: true, describe: 'Namespace (see git mem namespaces)' })
        .positional('summary', { type: 'string', array: true, demandOption: true, describe: 'One-line summary, at most 100 characters' })
        .option('message', { alias: 'm', type: 'string', describe: 'Body (markdown); - reads it from stdin. Stdin is read only when asked (-m - or --file -), never otherwise' })
        .option('file', { alias: 'F', type: 'string', describe: 'Read the body from a file (- for stdin)' })
        .option('tags', { alias: 't', type: 'string', describe: 'Comma-separated tags' })
        .option('spec', { type: 'string', describe: 'Spec or project the memory belongs to' })
        .option('phase', { type: 'string', describe: 'Phase of work (e.g. design, implementation)' })
        .option('status', { type: 'string', choices: ['active', 'resolved', 'archived'], describe: 'Status (default active)' })
        .option('relates-to', { type: 'string', array: true, describe: 'Id of a related memory, which must exist (repeatable)' })
        .option('supersedes', { type: 'string', describe: 'Id of an older memory this one replaces (it is archived; both are linked)' })
        .option('commit', { alias: 'c', type: 'string', describe: 'Commit to attach to (default HEAD)' })
        .option('paths', { type: 'string', describe: "Comma-separated files the memory is about, each optionally with lines (src/a.py:10-40); '' for none. Default: files its text names, else the commit's when it changed at most 3" })
        .option('force-truncate', { type: 'boolean', default: false, describe: 'Truncate a summary over 100 characters instead of failing' })
        .option('json', jsonOption)
        .example('git mem capture decisions "Use sql.js for the index" -m "No native modules to build."', '')
        .example('git diff | git mem capture reviews "Review of the parser change" --file - --tags parser', '') as never,
    parse: async (argv: CaptureArgs) => ({
      namespace: checkNamespace(argv.namespace, ctx.settings.namespaces),
      summary: argv.summary.join(' '),
      body: await readBody(ctx, argv.message, argv.file),
      tags: parseTags(argv.tags),
      spec: argv.spec,
      phase: argv.phase,
      status: argv.status,
      relatesTo: argv['relates-to'] ?? [],
      supersedes: argv.supersedes,
      commit: argv.commit,
      ...(argv.paths !== undefined ? { paths: checkPaths(argv.paths) } : {}),
      forceTruncate: argv['force-truncate'],
      json: argv.json,
    }),
    run: async ({ relatesTo, supersedes, json: _, ...options }) => {
      // Found before anything is written: a wrong id captures nothing.
      const older = supersedes !== undefined ? await findMemory(ctx, supersedes, '--supersedes') : undefined;
      // Each link names a memory that exists, stored in the form a rebase does not change.
      const related: string[] = [];
      for (const id of relatesTo) related.push(linkRef(await findMemory(ctx, id, '--relates-to')));
      const result = await captureMemory(ctx, {
        ...options,
        relatesTo: [...new Set([...related, ...(older ? [linkRef(older)] : [])])],
        ...(older ? { supersedes: [linkRef(older)] } : {}),
      });
      if (older) await markSuperseded(ctx, older, result.memory);
      return result;
    },
    render: (result, options) => {
      if (result.redacted.length) {
        const kinds = [...new Set(result.redacted)].join(', ');
        ctx.io.err(ctx.settings.secrets === 'warn' ? `git-mem: warning: stored ${result.redacted.length} possible secret(s) as they are (mem.secrets=warn): ${kinds}` : `git-mem: redacted ${result.redacted.length} secret(s): ${kinds}`);
      }
      ctx.io.out(options.json ? json(memoryJson(result.memory)) : result.id);
    },
  });
}

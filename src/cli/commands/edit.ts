import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { formatId } from '../../core/memory.ts';
import { checkPaths, parseTags } from '../../core/validate.ts';
import { json, memoryJson } from '../../render/render.ts';
import { editMemory, findMemory, markSuperseded } from '../../services/memories.ts';
import { jsonOption, readBody } from '../shared.ts';

interface EditArgs {
  id: string;
  summary?: string;
  message?: string;
  file?: string;
  tags?: string;
  paths?: string;
  status?: string;
  supersedes?: string;
  'force-truncate': boolean;
  json: boolean;
}

export function editCommand(ctx: AppContext): CommandModule<object, EditArgs> {
  return {
    command: 'edit <id>',
    describe: 'Change a memory: summary, body, tags, paths or status',
    builder: (y) =>
      y
        .positional('id', { type: 'string', demandOption: true, describe: 'Memory id' })
        .option('summary', { type: 'string', describe: 'New summary' })
        .option('message', { alias: 'm', type: 'string', describe: 'New body' })
        .option('file', { alias: 'F', type: 'string', describe: 'Read the new body from a file (- for stdin)' })
        .option('tags', { alias: 't', type: 'string', describe: 'New comma-separated tags (replaces them)' })
        .option('paths', { type: 'string', describe: "New comma-separated files the memory is about, each optionally with lines (src/a.py:10-40); '' for none (replaces them)" })
        .option('status', { type: 'string', choices: ['active', 'resolved', 'archived'], describe: 'New status' })
        .option('supersedes', { type: 'string', describe: 'Id of an older memory this one replaces (it is archived; both are linked)' })
        .option('force-truncate', { type: 'boolean', default: false, describe: 'Truncate a summary over 100 characters' })
        .option('json', jsonOption) as never,
    handler: async (argv) => {
      const older = argv.supersedes !== undefined ? await findMemory(ctx, argv.supersedes, '--supersedes') : undefined;
      const m = await editMemory(ctx, argv.id, {
        summary: argv.summary,
        body: await readBody(ctx, argv.message, argv.file),
        tags: argv.tags !== undefined ? parseTags(argv.tags) : undefined,
        paths: argv.paths !== undefined ? checkPaths(argv.paths) : undefined,
        status: argv.status,
        ...(older ? { supersedes: older } : {}),
        forceTruncate: argv['force-truncate'],
      });
      if (older) await markSuperseded(ctx, older, m);
      ctx.io.out(argv.json ? json(memoryJson(m)) : formatId(m));
    },
  };
}

export function resolveCommand(ctx: AppContext): CommandModule<object, { id: string; json: boolean }> {
  return {
    command: 'resolve <id>',
    describe: 'Mark a memory resolved (e.g. a blocker that is cleared)',
    builder: (y) => y.positional('id', { type: 'string', demandOption: true, describe: 'Memory id' }).option('json', jsonOption) as never,
    handler: async (argv) => {
      const m = await editMemory(ctx, argv.id, { status: 'resolved' });
      ctx.io.out(argv.json ? json(memoryJson(m)) : `${formatId(m)} resolved`);
    },
  };
}

import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { formatId } from '../../core/memory.ts';
import { checkPaths, parseTags } from '../../core/validate.ts';
import { json, memoryJson } from '../../render/render.ts';
import { UsageError } from '../../core/errors.ts';
import { editMemory, findMemory, markSuperseded } from '../../services/memories.ts';
import { moveMemories } from '../../services/reanchor.ts';
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
  commit?: string;
  'dry-run': boolean;
  'force-truncate': boolean;
  json: boolean;
}

export function editCommand(ctx: AppContext): CommandModule<object, EditArgs> {
  return {
    command: 'edit <id>',
    describe: 'Change a memory: summary, body, tags, paths or status, or move it onto another commit',
    builder: (y) =>
      y
        .positional('id', { type: 'string', demandOption: true, describe: 'Memory id' })
        .option('summary', { type: 'string', describe: 'New summary' })
        .option('message', { alias: 'm', type: 'string', describe: 'New body (- reads it from stdin)' })
        .option('file', { alias: 'F', type: 'string', describe: 'Read the new body from a file (- for stdin)' })
        .option('tags', { alias: 't', type: 'string', describe: 'New comma-separated tags (replaces them)' })
        .option('paths', { type: 'string', describe: "New comma-separated files the memory is about, each optionally with lines (src/a.py:10-40); '' for none (replaces them)" })
        .option('status', { type: 'string', choices: ['active', 'resolved', 'archived'], describe: 'New status' })
        .option('supersedes', { type: 'string', describe: 'Id of an older memory this one replaces (it is archived; both are linked)' })
        .option('commit', { type: 'string', describe: 'Move the memory (every copy) onto this commit, e.g. when its own is gone (as git mem reanchor <id> --to <rev>)' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'With --commit alone: say where the memory would move; write nothing' })
        .option('force-truncate', { type: 'boolean', default: false, describe: 'Truncate a summary over 100 characters' })
        .option('json', jsonOption)
        .example('git mem edit decisions:ce48688:7f3a9c2e1b --commit HEAD', 'Attach a memory whose commit was pruned to the commit now checked out') as never,
    handler: async (argv) => {
      const changes = [argv.summary, argv.message, argv.file, argv.tags, argv.paths, argv.status, argv.supersedes].some((v) => v !== undefined);
      if (argv['dry-run'] && (changes || argv.commit === undefined)) throw new UsageError('--dry-run works with --commit alone');
      if (argv.commit !== undefined && (!changes || argv['dry-run'])) {
        const r = await moveMemories(ctx, [argv.id], argv.commit, { dryRun: argv['dry-run'] });
        const id = r.moved[0]?.id ?? r.already[0]!;
        if (argv.json && !argv['dry-run']) ctx.io.out(json(memoryJson(await findMemory(ctx, id))));
        else if (argv.json) ctx.io.out(json({ dryRun: true, id, from: r.moved[0]?.from ?? [], to: r.target }));
        else ctx.io.out(r.moved.length ? `${argv['dry-run'] ? 'would move' : 'moved'} ${id}  ${r.moved[0]!.from.map((o) => o.slice(0, 7)).join(',')} -> ${r.target.slice(0, 7)}` : `${id} is already on ${r.target.slice(0, 7)}`);
        return;
      }
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
      if (argv.commit !== undefined) {
        const r = await moveMemories(ctx, [formatId(m)], argv.commit);
        const moved = await findMemory(ctx, r.moved[0]?.id ?? r.already[0]!);
        ctx.io.out(argv.json ? json(memoryJson(moved)) : formatId(moved));
        return;
      }
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

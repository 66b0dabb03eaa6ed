import type { AppContext } from '../../context.ts';
import { formatId, type Memory } from '../../core/memory.ts';
import { checkPaths, parseTags } from '../../core/validate.ts';
import { json, memoryJson } from '../../render/render.ts';
import { UsageError } from '../../core/errors.ts';
import { editMemory, findMemory, markSuperseded } from '../../services/memories.ts';
import { moveMemories } from '../../services/history/reanchor.ts';
import { defineCommand } from '../command.ts';
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

export function editCommand(ctx: AppContext) {
  return defineCommand({
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
    parse: async (argv: EditArgs): Promise<EditOptions> => {
      const changed = [argv.summary, argv.message, argv.file, argv.tags, argv.paths, argv.status, argv.supersedes].some((v) => v !== undefined);
      if (argv['dry-run'] && (changed || argv.commit === undefined)) throw new UsageError('--dry-run works with --commit alone');
      const base = { id: argv.id, ...(argv.commit !== undefined ? { commit: argv.commit } : {}), dryRun: argv['dry-run'], json: argv.json };
      if (!changed) return base;
      return {
        ...base,
        changes: {
          summary: argv.summary,
          body: await readBody(ctx, argv.message, argv.file),
          tags: argv.tags !== undefined ? parseTags(argv.tags) : undefined,
          paths: argv.paths !== undefined ? checkPaths(argv.paths) : undefined,
          status: argv.status,
          forceTruncate: argv['force-truncate'],
        },
        ...(argv.supersedes !== undefined ? { supersedes: argv.supersedes } : {}),
      };
    },
    run: async (o): Promise<EditResult> => {
      if (o.commit !== undefined && !o.changes) {
        const r = await moveMemories(ctx, [o.id], o.commit, { dryRun: o.dryRun });
        const id = r.moved[0]?.id ?? r.already[0]!;
        return { move: { id, from: r.moved[0]?.from ?? [], to: r.target, moved: r.moved.length > 0 }, memory: o.json && !o.dryRun ? await findMemory(ctx, id) : undefined };
      }
      const older = o.supersedes !== undefined ? await findMemory(ctx, o.supersedes, '--supersedes') : undefined;
      const m = await editMemory(ctx, o.id, { ...o.changes, ...(older ? { supersedes: older } : {}) });
      if (older) await markSuperseded(ctx, older, m);
      if (o.commit === undefined) return { memory: m };
      const r = await moveMemories(ctx, [formatId(m)], o.commit);
      return { memory: await findMemory(ctx, r.moved[0]?.id ?? r.already[0]!) };
    },
    render: (r, o) => {
      if (r.move && !r.memory) {
        const { id, from, to, moved } = r.move;
        if (o.json) ctx.io.out(json({ dryRun: true, id, from, to }));
        else ctx.io.out(moved ? `${o.dryRun ? 'would move' : 'moved'} ${id}  ${from.map((x) => x.slice(0, 7)).join(',')} -> ${to.slice(0, 7)}` : `${id} is already on ${to.slice(0, 7)}`);
        return;
      }
      ctx.io.out(o.json ? json(memoryJson(r.memory!)) : formatId(r.memory!));
    },
  });
}

/** What `edit` asks: changes to the memory, a move onto another commit, or both (the changes first). */
interface EditOptions {
  id: string;
  changes?: EditChanges;
  /** Id of an older memory this one replaces. */
  supersedes?: string;
  /** Move every copy onto this commit. */
  commit?: string;
  /** With a move alone: say where it would go, write nothing. */
  dryRun: boolean;
  json: boolean;
}

type EditChanges = Omit<Parameters<typeof editMemory>[2], 'supersedes'>;

interface EditResult {
  /** A move alone: what moved where. */
  move?: { id: string; from: string[]; to: string; moved: boolean };
  /** The memory as it is now (a move alone with --json: read again). */
  memory?: Memory;
}

export function resolveCommand(ctx: AppContext) {
  return defineCommand({
    command: 'resolve <id>',
    describe: 'Mark a memory resolved (e.g. a blocker that is cleared)',
    builder: (y) => y.positional('id', { type: 'string', demandOption: true, describe: 'Memory id' }).option('json', jsonOption) as never,
    parse: (argv: { id: string; json: boolean }) => ({ id: argv.id, json: argv.json }),
    run: (o) => editMemory(ctx, o.id, { status: 'resolved' }),
    render: (m, o) => ctx.io.out(o.json ? json(memoryJson(m)) : `${formatId(m)} resolved`),
  });
}

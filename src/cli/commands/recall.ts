import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { formatId } from '../../core/memory.ts';
import { serializeMemory } from '../../core/note-format.ts';
import { visible } from '../../core/terminal-text.ts';
import { checkNamespace, checkStatus, parseTags } from '../../core/validate.ts';
import { hydratedJson, hydratedText } from '../../render/hydrate-render.ts';
import { json, memoryJson, memoryLine, staleJson } from '../../render/render.ts';
import { stalenessOf } from '../../services/staleness.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, hydrateMemory } from '../../services/hydrate.ts';
import { DEFAULT_RECALL_LIMIT, RECALL_MODES, type RecallMode, type RecallOptions, recall } from '../../services/recall.ts';
import { recallAt } from '../../services/recall-at.ts';
import { jsonOption } from '../shared.ts';
import { dateOption } from './list.ts';

const LEVELS = ['summary', 'full', 'files'] as const;

interface RecallArgs {
  query: string[];
  namespace?: string[];
  tags?: string;
  spec?: string;
  status?: string[];
  since?: string;
  until?: string;
  limit: number;
  level: (typeof LEVELS)[number];
  mode?: RecallMode;
  branch: boolean;
  at?: string;
  json: boolean;
}

export function recallCommand(ctx: AppContext): CommandModule<object, RecallArgs> {
  return {
    command: 'recall <query..>',
    describe: 'Search memories, best match first',
    builder: (y) =>
      y
        .positional('query', { type: 'string', array: true, demandOption: true, describe: 'What to look for, in your own words' })
        .option('namespace', { alias: 'n', type: 'string', array: true, describe: 'Only this namespace (repeatable)' })
        .option('tags', { alias: 't', type: 'string', describe: 'Only memories with all of these comma-separated tags' })
        .option('spec', { type: 'string', describe: 'Only memories of this spec' })
        .option('status', { alias: 's', type: 'string', array: true, describe: 'Only this status: active, resolved, archived (repeatable)' })
        .option('since', { type: 'string', describe: 'Created at or after: a date, an ISO time or an age (7d, 2w)' })
        .option('until', { type: 'string', describe: 'Created at or before' })
        .option('limit', { alias: 'l', type: 'number', default: DEFAULT_RECALL_LIMIT, describe: 'At most this many results' })
        .option('level', { type: 'string', choices: LEVELS, default: 'summary', describe: 'summary: one line each; full: whole memories; files: also their commits and changed files' })
        .option('mode', { type: 'string', choices: RECALL_MODES, describe: 'lexical (BM25), semantic (embeddings) or hybrid, both fused (default: mem.recall.mode, else hybrid)' })
        .option('at', { type: 'string', describe: 'What was known then: a commit or tag (its time), or a date; read from the notes refs\' history, searched lexically' })
        .option('branch', { type: 'boolean', default: false, describe: "Only memories on HEAD's history (by default all rank, HEAD's history a little first)" })
        .option('json', jsonOption) as never,
    handler: async (argv) => {
      const now = ctx.now();
      const search = argv.at === undefined ? recall : async (c: AppContext, o: RecallOptions) => recallAt(c, { ...o, at: argv.at! });
      const result = await search(ctx, {
        query: argv.query.join(' '),
        namespaces: argv.namespace?.map((n) => checkNamespace(n, ctx.settings.namespaces)),
        tags: argv.tags !== undefined ? parseTags(argv.tags) : undefined,
        spec: argv.spec,
        statuses: argv.status?.map(checkStatus),
        since: dateOption(argv.since, 'since', now),
        until: dateOption(argv.until, 'until', now),
        limit: argv.limit,
        mode: argv.mode,
        branch: argv.branch,
        // The command line may fetch the model on first semantic use; hooks never do.
        download: true,
      });
      if (result.notice) ctx.io.err(`git-mem: ${result.notice}`);
      const c = ctx.io.color;
      const score = (s: number) => Math.round(s * 1000) / 1000;

      if (argv.level === 'files') {
        const limits = { level: 'files', maxFiles: DEFAULT_MAX_FILES, maxBytes: DEFAULT_MAX_BYTES } as const;
        const hydrated = result.hits.map((h) => ({ h, x: hydrateMemory(ctx, h.memory, limits) }));
        if (argv.json) ctx.io.out(json(hydrated.map(({ h, x }) => ({ ...hydratedJson(x), score: score(h.score) }))));
        else if (hydrated.length) ctx.io.out(hydrated.map(({ h, x }) => `${c.bold(`# ${visible(formatId(h.memory))}  score ${score(h.score)}`)}\n${hydratedText(x, c)}`).join('\n\n'));
      } else if (argv.level === 'full') {
        if (argv.json) ctx.io.out(json(result.hits.map((h) => ({ ...memoryJson(h.memory), score: score(h.score) }))));
        else if (result.hits.length) ctx.io.out(result.hits.map((h) => `${c.bold(`# ${visible(formatId(h.memory))}  score ${score(h.score)}`)}\n${visible(serializeMemory(h.memory))}`).join('\n\n'));
      } else if (argv.json) {
        const stale = stalenessOf(ctx.repo, result.hits.map((h) => h.memory));
        ctx.io.out(
          json(
            result.hits.map(({ memory: m, score: s, reach }) => ({
              id: formatId(m),
              namespace: m.namespace,
              commit: m.object,
              created: m.created,
              summary: m.summary,
              tags: m.tags,
              status: m.status,
              stale: staleJson(stale.get(m.key)),
              reach: reach ?? null,
              score: score(s),
            })),
          ),
        );
      } else if (result.hits.length) {
        const stale = stalenessOf(ctx.repo, result.hits.map((h) => h.memory));
        ctx.io.out(result.hits.map((h) => `${memoryLine(h.memory, now, c, { stale: stale.get(h.memory.key), reach: h.reach })}  ${c.dim(score(h.score).toFixed(2))}`).join('\n'));
      }
      if (!argv.json && result.hits.length === 0) ctx.io.err('git-mem: no memories match');
    },
  };
}

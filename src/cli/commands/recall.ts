import { tracePhase } from '../../io/trace.ts';
import type { ChalkInstance } from 'chalk';
import type { AppContext } from '../../context.ts';
import type { Reach } from '../../core/history/anchor.ts';
import { type Explanation, explanationJson, explanationLines } from '../../core/search/explain.ts';
import { formatId, type Memory } from '../../core/memory.ts';
import type { Stale } from '../../core/history/staleness.ts';
import { memoryText } from '../../core/note-format.ts';
import { visible } from '../../core/terminal-text.ts';
import { checkNamespace, checkStatus, parseTags } from '../../core/validate.ts';
import { hydratedJson, hydratedText } from '../../render/hydrate-render.ts';
import { json, memoryJson, memoryLine, trustJson } from '../../render/render.ts';
import { asShown } from '../../services/shown.ts';
import type { TrustView } from '../../services/trust/trust.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, type Hydrated, hydrateMemory } from '../../services/hydrate.ts';
import { DEFAULT_RECALL_LIMIT, RECALL_MODES, type RecallMode, type RecallOptions, recall } from '../../services/search/recall.ts';
import { recallAt } from '../../services/search/recall-at.ts';
import { defineCommand } from '../command.ts';
import { dateOption, jsonOption } from '../shared.ts';

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
  explain: boolean;
  json: boolean;
}

export function recallCommand(ctx: AppContext) {
  return defineCommand({
    command: 'recall <query..>',
    describe: 'Search memories, best match first',
    builder: (y) =>
      y
        .positional('query', { type: 'string', array: true, demandOption: true, describe: 'What to look for, in your own words; words in double quotes are a phrase, whose memories rank first' })
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
        .option('explain', { type: 'boolean', default: false, describe: "Say why each memory ranked: the words that matched in which field, synonyms, related words, feedback words and phrases, the BM25F parts, placement, and whether the hooks' relevance floor keeps it" })
        .option('json', jsonOption) as never,
    parse: (argv: RecallArgs) => parseRecall(ctx, argv),
    run: (options) => runRecall(ctx, options),
    render: (view, options) => {
      if (view.notice) ctx.io.err(`git-mem: ${view.notice}`);
      const text = renderRecall(view, options, ctx.io.color, ctx.now());
      if (text) ctx.io.out(text);
      if (!options.json && view.hits.length === 0) ctx.io.err('git-mem: no memories match');
    },
  });
}

/** What a recall on the command line asks: the search, and how much of each hit to show. */
export interface RecallCommandOptions {
  search: RecallOptions;
  /** A commit, tag or date: search the notes as they were then. */
  at?: string;
  level: (typeof LEVELS)[number];
  json: boolean;
}

/** Parse: argv to the search's options (namespaces, statuses and dates checked). */
export function parseRecall(ctx: AppContext, argv: RecallArgs): RecallCommandOptions {
  const now = ctx.now();
  return {
    search: {
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
      explain: argv.explain,
      // The command line may fetch the model on first semantic use; hooks never do.
      download: true,
    },
    ...(argv.at !== undefined ? { at: argv.at } : {}),
    level: argv.level,
    json: argv.json,
  };
}

/** What recall shows: each hit with what the chosen level adds to it. */
interface RecallView {
  notice?: string;
  hits: Array<{ memory: Memory; score: number; reach?: Reach; stale?: Stale | null; trust?: TrustView; hydrated?: Hydrated; explanation?: Explanation }>;
}

/** Run: the search, and the staleness or hydration the output needs. Prints nothing. */
export async function runRecall(ctx: AppContext, options: RecallCommandOptions): Promise<RecallView> {
  const result = options.at === undefined ? await recall(ctx, options.search) : recallAt(ctx, { ...options.search, at: options.at });
  const memories = result.hits.map((h) => h.memory);
  tracePhase('recalled');
  const summary = options.level === 'summary';
  const shown = asShown(ctx, memories, { uses: true, staleness: summary, trust: summary });
  tracePhase('shown');
  if (options.level === 'files') {
    const limits = { level: 'files', maxFiles: DEFAULT_MAX_FILES, maxBytes: DEFAULT_MAX_BYTES } as const;
    return { notice: result.notice, hits: result.hits.map((h) => ({ ...h, hydrated: hydrateMemory(ctx, h.memory, limits) })) };
  }
  return { notice: result.notice, hits: result.hits.map((h, i) => ({ ...h, stale: shown[i]!.stale, trust: shown[i]!.trust })) };
}

/** Render: one line a hit, whole memories, or memories with their files; JSON for tools (`--json`). */
export function renderRecall(view: RecallView, argv: Pick<RecallCommandOptions, 'level' | 'json'>, c: ChalkInstance, now: Date): string {
  const score = (s: number) => Math.round(s * 1000) / 1000;
  const heading = (m: Memory, s: number) => c.bold(`# ${visible(formatId(m))}  score ${score(s)}`);
  // --explain: the reasons, indented under the hit (text), or an `explain` field (JSON).
  const why = (e: Explanation | undefined) => (e ? `\n${explanationLines(e).map((l) => c.dim(`    ${visible(l)}`)).join('\n')}` : '');
  const whyJson = (e: Explanation | undefined) => (e ? { explain: explanationJson(e) } : {});
  if (argv.level === 'files') {
    if (argv.json) return json(view.hits.map((h) => ({ ...hydratedJson(h.hydrated!), score: score(h.score) })));
    return view.hits.map((h) => `${heading(h.memory, h.score)}\n${hydratedText(h.hydrated!, c)}`).join('\n\n');
  }
  if (argv.level === 'full') {
    if (argv.json) return json(view.hits.map((h) => ({ ...memoryJson(h.memory), score: score(h.score), ...whyJson(h.explanation) })));
    return view.hits.map((h) => `${heading(h.memory, h.score)}${why(h.explanation)}\n${visible(memoryText(h.memory))}`).join('\n\n');
  }
  if (argv.json) {
    return json(
      view.hits.map(({ memory: m, score: s, reach, stale, trust, explanation }) => ({
        id: formatId(m),
        namespace: m.namespace,
        commit: m.object,
        created: m.created,
        summary: m.summary,
        tags: m.tags,
        status: m.status,
        stale: stale ?? null,
        reach: reach ?? null,
        ...trustJson(trust),
        score: score(s),
        ...whyJson(explanation),
      })),
    );
  }
  return view.hits.map((h) => `${memoryLine(h.memory, now, c, { stale: h.stale, reach: h.reach, trust: h.trust })}  ${c.dim(score(h.score).toFixed(2))}${why(h.explanation)}`).join('\n');
}

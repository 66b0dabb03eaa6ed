/**
 * git-mem's tools for an agent, over MCP: the same services as the command
 * line (validation, redaction, dedup included), answers as the command line
 * prints them. Each call gets a fresh context, so it sees what the previous
 * call wrote. Descriptions are what the model reads to decide when to call.
 */
import { Chalk } from 'chalk';
import { UsageError } from '../core/errors.ts';
import { normalizeForNovelty } from '../core/signals.ts';
import { formatId, isStatus, STATUSES, type Status } from '../core/memory.ts';
import { checkPaths } from '../core/validate.ts';
import { explanationLines } from '../core/search/explain.ts';
import { recordedMemories } from '../core/recorded-data.ts';
import { AppContext } from '../context.ts';
import type { Io } from '../io/io.ts';
import { hydratedText } from '../render/hydrate-render.ts';
import { memoryLine } from '../render/render.ts';
import { captureMemory } from '../services/capture.ts';
import { blameMemories, linesLabel } from '../services/code-memories.ts';
import { hydrate, HYDRATE_LEVELS } from '../services/hydrate.ts';
import { editMemory, findMemory, forgetMemory, listMemories } from '../services/memories.ts';
import { RECALL_MODES, recall, type RecallMode } from '../services/search/recall.ts';
import { injectable } from '../services/trust/trust.ts';
import { forAgent, type Shown } from '../services/shown.ts';
import type { Tool } from './protocol.ts';

/** stdout is the protocol's: anything a service would print goes to stderr. */
function quietIo(): Io {
  const toErr = (text: string) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`);
  return {
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    color: new Chalk({ level: 0 }),
    out: toErr,
    err: toErr,
    errRaw: (t) => process.stderr.write(t),
    readStdin: async () => '',
  };
}

function text(args: Record<string, unknown>, name: string, required: true): string;
function text(args: Record<string, unknown>, name: string, required?: false): string | undefined;
function text(args: Record<string, unknown>, name: string, required = false): string | undefined {
  const v = args[name];
  if (v === undefined || v === null) {
    if (required) throw new UsageError(`'${name}' is required`);
    return undefined;
  }
  if (typeof v !== 'string') throw new UsageError(`'${name}' must be a string`);
  return v;
}

function count(args: Record<string, unknown>, name: string): number | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new UsageError(`'${name}' must be a whole number of at least 1`);
  return v;
}

function oneOf<T extends string>(args: Record<string, unknown>, name: string, choices: readonly T[]): T | undefined {
  const v = text(args, name);
  if (v === undefined) return undefined;
  if (!(choices as readonly string[]).includes(v)) throw new UsageError(`'${name}' must be one of ${choices.join(', ')}`);
  return v as T;
}

function flag(args: Record<string, unknown>, name: string): boolean {
  const v = args[name];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new UsageError(`'${name}' must be true or false`);
  return v;
}

function strings(args: Record<string, unknown>, name: string): string[] | undefined {
  const v = args[name];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v;
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  throw new UsageError(`'${name}' must be a list of strings`);
}

const NAMESPACE = { type: 'string', description: 'decisions, learnings, blockers, progress, patterns, research, reviews, retrospective, inception or elicitation (or one configured in mem.namespaces)' };

export function memoryTools(cwd: string, env: NodeJS.ProcessEnv): Tool[] {
  // Each request's contexts, closed when it has answered: the server lives as long as the session, and every open index holds a file.
  const opened: AppContext[] = [];
  const context = () => {
    const ctx = new AppContext(cwd, env, quietIo());
    opened.push(ctx);
    return ctx;
  };
  const lines = (ctx: AppContext, shown: readonly Shown[]) => shown.map((s) => memoryLine(s.memory, ctx.now(), ctx.io.color, { stale: s.stale }));
  /** What the trust policy holds back is never handed to the agent: only counted, for a person to review. */
  const held = (all: number, given: number) => (all > given ? `\n${all - given} more ${all - given === 1 ? 'memory waits' : 'memories wait'} for review by a person (git mem review).` : '');
  const tools: Tool[] = [
    {
      name: 'recall',
      description:
        "Search this repository's memory: decisions and their reasons, learnings, blockers, progress and patterns recorded by the team and by earlier sessions. " +
        'Use it before changing code whose history you do not know, when the user asks why something is the way it is, or to pick up earlier work. ' +
        'Returns one line per memory, best match first: id, namespace, age, summary, score, and [stale: ...] when the files it is about changed since. Summaries only: expand one with hydrate.',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'What you are looking for, in your own words; words in double quotes are a phrase, whose memories rank first' },
          namespace: NAMESPACE,
          limit: { type: 'integer', minimum: 1, description: 'At most this many (default 10)' },
          mode: { type: 'string', enum: [...RECALL_MODES], description: 'lexical, semantic or hybrid (default: the repository setting)' },
          explain: { type: 'boolean', description: 'Also say why each memory ranked: the words that matched in which field, synonyms, related words and feedback words, the score parts (as git mem recall --explain)' },
        },
        required: ['query'],
      },
      run: async (args) => {
        const ctx = context();
        const namespace = text(args, 'namespace');
        const explain = flag(args, 'explain');
        const result = await recall(ctx, { query: text(args, 'query', true), namespaces: namespace ? [namespace] : undefined, limit: count(args, 'limit'), mode: oneOf<RecallMode>(args, 'mode', RECALL_MODES), explain });
        if (result.hits.length === 0) return 'No memories match.';
        const agent = forAgent(ctx, result.hits.map((h) => h.memory), { uses: true });
        if (agent.shown.length === 0) return `No memories match.${held(result.hits.length, 0)}`;
        const byKey = new Map(result.hits.map((h) => [h.memory.key, h]));
        const hits = agent.shown.map((s) => byKey.get(s.memory.key)!);
        const shown = lines(ctx, agent.shown);
        const why = (h: (typeof hits)[number]) => (h.explanation ? `\n${explanationLines(h.explanation).map((l) => `    ${l}`).join('\n')}` : '');
        return recordedMemories('recall', hits.map((h, i) => `${shown[i]}  ${h.score.toFixed(2)}${why(h)}`).join('\n')) + held(result.hits.length, hits.length);
      },
    },
    {
      name: 'hydrate',
      description:
        'One memory in full: its body and front matter, and the commit it is attached to (sha, author, date, subject); level "files" adds the files that commit changed, as they were then. ' +
        'Use it on an id from recall, list or blame when a summary looks relevant.',
      inputSchema: {
        type: 'object',
        properties: { id: { type: 'string', description: 'A memory id as recall, list or blame show it (namespace:commit:key), or a key prefix of 4+ hex digits' }, level: { type: 'string', enum: [...HYDRATE_LEVELS] } },
        required: ['id'],
      },
      run: async (args) => {
        const ctx = context();
        const h = await hydrate(ctx, text(args, 'id', true), { level: oneOf(args, 'level', HYDRATE_LEVELS) });
        if (injectable(ctx, [h.memory]).length === 0) return `${formatId(h.memory)} waits for review by a person (git mem review); it is not shown to agents until accepted.`;
        return recordedMemories('hydrate', hydratedText(h, ctx.io.color));
      },
    },
    {
      name: 'capture',
      description:
        'Record a memory in the repository, as a git note on the current commit, shared with the team through git. ' +
        'Use it for a decision and its reason, something learned the hard way, a blocker (and later its resolution), or progress worth resuming from. ' +
        'The summary is one line of at most 100 characters; put details in the body. Secrets are redacted before anything is written; a memory already stored word for word is not stored twice. Returns the new id.',
      inputSchema: {
        type: 'object',
        properties: {
          namespace: NAMESPACE,
          summary: { type: 'string', description: 'One line, at most 100 characters' },
          body: { type: 'string', description: 'Markdown details' },
          tags: { type: 'array', items: { type: 'string' } },
          commit: { type: 'string', description: 'The commit it is about (default HEAD)' },
          paths: {
            type: 'array',
            items: { type: 'string' },
            description: 'Files the memory is about, each optionally with lines (src/a.py:10-40); [] for none. Default: files its text names, else the commit\'s when it changed at most 3',
          },
          status: { type: 'string', enum: [...STATUSES], description: 'active (default), resolved or archived' },
          spec: { type: 'string', description: 'The spec or feature it belongs to (e.g. auth-v2)' },
          phase: { type: 'string', description: 'The phase of that work (e.g. design, implementation)' },
        },
        required: ['namespace', 'summary'],
      },
      run: async (args) => {
        const ctx = context();
        const namespace = text(args, 'namespace', true);
        const summary = text(args, 'summary', true);
        // As the hooks judge an explicit capture: new unless stored word for word (a search, not a scan of the namespace).
        const hits = await recall(ctx, { query: summary, namespaces: [namespace], limit: 5, mode: 'lexical' }).then((r) => r.hits, () => []);
        const existing = hits.map((h) => h.memory).find((m) => normalizeForNovelty(m.summary) === normalizeForNovelty(summary));
        if (existing) return `already stored as ${formatId(existing)}`;
        const r = await captureMemory(ctx, {
          namespace,
          summary,
          body: text(args, 'body'),
          tags: strings(args, 'tags'),
          commit: text(args, 'commit'),
          status: oneOf(args, 'status', STATUSES),
          spec: text(args, 'spec'),
          phase: text(args, 'phase'),
          ...(args.paths !== undefined ? { paths: checkPaths(strings(args, 'paths') ?? []) } : {}),
        });
        return `captured ${r.id}${r.redacted.length ? ` (redacted: ${[...new Set(r.redacted)].join(', ')})` : ''}`;
      },
    },
    {
      name: 'list',
      description: 'Memories newest first, one line each (id, namespace, age, summary). Use it to see what was recorded lately, e.g. the active blockers.',
      inputSchema: {
        type: 'object',
        properties: { namespace: NAMESPACE, status: { type: 'string', enum: ['active', 'resolved', 'archived'] }, limit: { type: 'integer', minimum: 1, description: 'At most this many (default 20)' } },
      },
      run: async (args) => {
        const ctx = context();
        const namespace = text(args, 'namespace');
        const status = text(args, 'status');
        if (status !== undefined && !isStatus(status)) throw new UsageError(`'status' must be one of active, resolved, archived`);
        const all = await listMemories(ctx, { namespaces: namespace ? [namespace] : undefined, statuses: status ? [status as Status] : undefined, limit: count(args, 'limit') ?? 20 });
        const { shown } = forAgent(ctx, all);
        return shown.length ? recordedMemories('list', lines(ctx, shown).join('\n')) + held(all.length, shown.length) : `No memories.${held(all.length, 0)}`;
      },
    },
    {
      name: 'edit',
      description:
        'Change a memory: its summary, body, tags or status (active, resolved, archived), e.g. to correct it or to record what happened since. ' +
        'Only the fields given change; the edit reaches every copy of the memory and wins over older copies when teammates pull. Secrets are redacted. Returns its id.',
      inputSchema: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'A memory id as recall, list or blame show it (namespace:commit:key)' },
          summary: { type: 'string', description: 'One line, at most 100 characters' },
          body: { type: 'string', description: 'Markdown details (replaces the body)' },
          tags: { type: 'array', items: { type: 'string' }, description: 'Replaces the tags' },
          status: { type: 'string', enum: [...STATUSES] },
        },
        required: ['id'],
      },
      run: async (args) => {
        const ctx = context();
        const id = text(args, 'id', true);
        const target = await findMemory(ctx, id);
        if (injectable(ctx, [target]).length === 0) return `${formatId(target)} waits for review by a person (git mem review); agents cannot change it until it is accepted.`;
        const m = await editMemory(ctx, formatId(target), { summary: text(args, 'summary'), body: text(args, 'body'), tags: strings(args, 'tags'), status: oneOf(args, 'status', STATUSES) });
        return `edited ${formatId(m)}`;
      },
    },
    {
      name: 'resolve',
      description: 'Mark a memory resolved (a blocker that no longer blocks, a question answered). It stays findable.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      run: async (args) => {
        const m = await editMemory(context(), text(args, 'id', true), { status: 'resolved' });
        return `resolved ${formatId(m)}`;
      },
    },
    {
      name: 'forget',
      description: 'Remove a memory that is wrong or no longer wanted. It leaves a tombstone, so a teammate\'s copy does not bring it back. Prefer resolve for what was true once.',
      inputSchema: { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] },
      run: async (args) => {
        const m = await forgetMemory(context(), text(args, 'id', true));
        return `forgot ${formatId(m)}`;
      },
    },
    {
      name: 'blame',
      description:
        'The memories behind lines of a file: git blame finds the commits that wrote them, and this lists the memories on those commits, each with the lines it explains. ' +
        'Use it before editing code, to learn why those lines are the way they are.',
      inputSchema: {
        type: 'object',
        properties: { file: { type: 'string', description: 'Path of the file, from the repository root or absolute' }, line: { type: 'integer', minimum: 1 }, end_line: { type: 'integer', minimum: 1 } },
        required: ['file'],
      },
      run: async (args) => {
        const ctx = context();
        const line = count(args, 'line');
        const end = count(args, 'end_line');
        const r = await blameMemories(ctx, `${text(args, 'file', true)}${line ? `:${line}${end ? `,${end}` : ''}` : ''}`);
        if (r.entries.length === 0) return `No memories on the ${r.commits} commit(s) behind those lines.`;
        const given = new Set(injectable(ctx, r.entries.map((e) => e.memory)).map((m) => m.key));
        const entries = r.entries.filter((e) => given.has(e.memory.key));
        if (entries.length === 0) return `No memories shown on the ${r.commits} commit(s) behind those lines.${held(r.entries.length, 0)}`;
        return recordedMemories('blame', entries.map((e) => `${memoryLine(e.memory, ctx.now(), ctx.io.color)}  ${linesLabel(e.ranges)}`).join('\n')) + held(r.entries.length, entries.length);
      },
    },
  ];
  // The server answers one request at a time (mcp/server.ts): the contexts opened meanwhile are this request's.
  return tools.map((tool) => ({
    ...tool,
    run: async (args) => {
      try {
        return await tool.run(args);
      } finally {
        await Promise.all(opened.splice(0).map((ctx) => ctx.close()));
      }
    },
  }));
}

/**
 * argv → options, command by command, as a table (the way gh tests its
 * commands): each row is what a user types and the options the command's
 * parse step makes of it (cli/command.ts), nothing run. A real repository
 * under a temporary folder gives the settings (namespaces, the clock); no
 * memory is read or written.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Chalk } from 'chalk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCommandLine } from '../../src/cli/index.ts';
import { argsBySpec } from '../../src/cli/fast-args.ts';
import { buildCliSpec, commandModules } from '../../src/cli/registry.ts';
import type { CommandSpec, OptionSpec } from '../../src/cli/spec.ts';
import { prng } from '../helpers/prng.ts';
import { AppContext } from '../../src/context.ts';
import type { Io } from '../../src/io/io.ts';

const NOW = new Date('2026-03-10T12:00:00Z');
let root: string;
let ctx: AppContext;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-argv-'));
  execFileSync('git', ['init', '-q', root]);
  const io: Io = {
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    color: new Chalk({ level: 0 }),
    out: () => {},
    err: () => {},
    errRaw: () => {},
    readStdin: async () => 'body from stdin',
  };
  ctx = new AppContext(root, { ...process.env, GIT_CONFIG_NOSYSTEM: '1', HOME: root }, io, () => NOW);
});
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const parse = (line: string[]) => parseCommandLine(line, ctx);

describe('argv → options', () => {
  const rows: Array<[string[], string, unknown]> = [
    [
      ['capture', 'decisions', 'Use', 'sql.js', '-m', 'No native modules.', '-t', 'db, index', '--paths', 'src/a.ts:10-20'],
      'capture',
      { namespace: 'decisions', summary: 'Use sql.js', body: 'No native modules.', tags: ['db', 'index'], relatesTo: [], paths: ['src/a.ts:10-20'], forceTruncate: false, json: false },
    ],
    [['capture', 'learnings', '--', '-x', 'is', 'a', 'flag', '-m', '- first point'], 'capture', { namespace: 'learnings', summary: '-x is a flag -m - first point', tags: [], relatesTo: [], forceTruncate: false, json: false }],
    [['capture', 'blockers', 'Waiting', 'on', 'infra', '-m', '-', '--status', 'resolved', '--relates-to', 'a1', '--relates-to', 'b2'], 'capture', { namespace: 'blockers', summary: 'Waiting on infra', body: 'body from stdin', tags: [], status: 'resolved', relatesTo: ['a1', 'b2'], forceTruncate: false, json: false }],
    [
      ['recall', 'why', 'sql.js', '-n', 'decisions', '--since', '7d', '--limit', '3', '--json'],
      'recall',
      {
        search: { query: 'why sql.js', namespaces: ['decisions'], since: '2026-03-03T12:00:00Z', limit: 3, branch: false, explain: false, download: true },
        level: 'summary',
        json: true,
      },
    ],
    [['recall', 'cache', '--at', 'v1.0', '--level', 'full', '-s', 'active'], 'recall', { search: { query: 'cache', statuses: ['active'], limit: 10, branch: false, explain: false, download: true }, at: 'v1.0', level: 'full', json: false }],
    [['list', '-n', 'blockers', '--status', 'active', '--limit', '5'], 'list', { filter: { namespaces: ['blockers'], statuses: ['active'], limit: 5 }, json: false }],
    [['ls', '--until', '2026-01-01'], 'list', { filter: { until: '2026-01-01T23:59:59.999Z' }, json: false }],
    [['edit', 'decisions:abc1234:deadbeef', '--summary', 'New words', '-t', 'x'], 'edit', { id: 'decisions:abc1234:deadbeef', dryRun: false, json: false, changes: { summary: 'New words', tags: ['x'], forceTruncate: false } }],
    [['edit', 'deadbeef', '--commit', 'HEAD', '--dry-run'], 'edit', { id: 'deadbeef', commit: 'HEAD', dryRun: true, json: false }],
    [['resolve', 'deadbeef', '--json'], 'resolve', { id: 'deadbeef', json: true }],
    [['forget', 'deadbeef'], 'forget', { id: 'deadbeef', json: false }],
    [['forget', '--before', '90d', '-n', 'progress', '--dry-run'], 'forget', { filter: { before: '2025-12-10T12:00:00Z', namespaces: ['progress'] }, dryRun: true, json: false }],
    [['hydrate', 'deadbeef', '--level', 'files', '--max-files', '3'], 'hydrate', { id: 'deadbeef', limits: { level: 'files', maxFiles: 3, maxBytes: 102400 }, json: false }],
    [['show', 'deadbeef'], 'show', { id: 'deadbeef', json: false }],
    [['blame', 'src/a.ts:3,9', '--json'], 'blame', { target: 'src/a.ts:3,9', json: true }],
    [['log', 'main..topic', '--format', 'md'], 'log', { range: 'main..topic', format: 'md' }],
    [['log', '--json'], 'log', { format: 'json' }],
    [['related', 'deadbeef', '--limit', '2'], 'related', { id: 'deadbeef', limit: 2, json: false }],
    [['stats', '--weeks', '4', '--json'], 'stats', { weeks: 4, json: true }],
    [['namespaces'], 'namespaces', { json: false }],
    [['gc', '--older-than', '12w', '--dry-run'], 'gc', { olderThan: '2025-12-16T12:00:00.000Z', dryRun: true, json: false }],
    [['consolidate', '-n', 'learnings', '--min-size', '3', '--dry-run'], 'consolidate', { namespaces: ['learnings'], minSize: 3, dryRun: true, json: false }],
    [['index', '--rebuild'], 'index', { rebuild: true, json: false }],
    [['config', '--json'], 'config', { json: true }],
    [['review', '--accept', 'a1', '--accept', 'b2'], 'review', { accept: ['a1', 'b2'], reject: [], all: false, json: false }],
    [['reanchor', 'a1', 'b2', '--to', 'HEAD~1', '--dry-run'], 'reanchor', { dryRun: true, quiet: false, json: false, move: { ids: ['a1', 'b2'], to: 'HEAD~1' } }],
    [['reanchor', '--quiet'], 'reanchor', { dryRun: false, quiet: true, json: false }],
    [['pull', 'upstream', '--no-fetch'], 'pull', { remote: 'upstream', fetch: false, json: false }],
    [['push', '--no-verify'], 'push', { verify: false, json: false }],
    [['doctor', '--json'], 'doctor', { json: true }],
    [['hook', 'Stop', '--agent', 'codex'], 'hook', { event: 'Stop', agent: 'codex' }],
    [['ui', '--port', '0', '--no-open', '--json'], 'ui', { port: 0, open: false, json: true }],
    [['mcp'], 'mcp', {}],
    [['export', '-n', 'decisions', '--format', 'md', '-o', 'out.md'], 'export', { namespaces: ['decisions'], format: 'md', output: 'out.md' }],
    [['verify-push', 'upstream', 'https://example.com/r.git'], 'verify-push', { remote: 'upstream' }],
    [['init'], 'init', { setup: 'repository', pushRefspec: false, showInLog: false, gitHooks: true, json: false }],
    [['init', '--remote', 'upstream', '--push-refspec', '--show-in-log', '--no-git-hooks', '--json'], 'init', { setup: 'repository', remote: 'upstream', pushRefspec: true, showInLog: true, gitHooks: false, json: true }],
    [['init', '--claude', '--scope', 'local'], 'init', { setup: 'clients', clients: ['claude'], scope: 'local', configScope: 'user', remove: false, list: false, json: false }],
    [['init', '--gemini', '--opencode', '--scope', 'user', '--remove'], 'init', { setup: 'clients', clients: ['gemini', 'opencode'], scope: 'user', configScope: 'user', remove: true, list: true, json: false }],
    [['init', '--agents', '--json'], 'init', { setup: 'clients', clients: 'found-on-path', scope: 'project', configScope: 'project', remove: false, list: true, json: true }],
    [['init', '--agents', '--remove'], 'init', { setup: 'clients', clients: ['claude', 'copilot', 'codex', 'gemini', 'opencode'], scope: 'project', configScope: 'project', remove: true, list: true, json: false }],
    [['import', 'memories.jsonl', '--attach-to', 'HEAD', '--json'], 'import', { from: 'jsonl', file: 'memories.jsonl', attachTo: 'HEAD', json: true }],
    [['import', '-'], 'import', { from: 'jsonl', file: '-', json: false }],
    // A lone `-` is stdin for import alone; elsewhere yargs reads it as an empty word, as it did (capture then says "summary is empty").
    [['capture', 'decisions', '-'], 'capture', { namespace: 'decisions', summary: '', tags: [], relatesTo: [], forceTruncate: false, json: false }],
    [['import', '--from', 'claude', '--dry-run'], 'import', { from: 'claude', dryRun: true, json: false }],
    [['model', 'status', '--check', '--json'], 'model', { action: 'status', check: true, json: true }],
    [['model', 'pull', '--force'], 'model', { action: 'pull', force: true, json: false }],
    [['model', 'embed'], 'model', { action: 'embed', json: false }],
    [['model', 'distill', '--json'], 'model', { action: 'distill', json: true }],
  ];
  it.each(rows)('%j', async (argv, command, options) => {
    const parsed = await parse(argv);
    expect(parsed.command).toBe(command);
    // Keys the parse step leaves undefined say nothing: compared as JSON would carry them.
    expect(JSON.parse(JSON.stringify(parsed.options))).toEqual(options);
  });

  it.each(rows)('%j: read without yargs, the same options as yargs gives', async (argv) => {
    expect(await parse(argv)).toEqual(await parseCommandLine(argv, ctx, 'yargs'));
  });
});

/**
 * Lines made from each command's declaration (cli/spec.ts): its positionals, then options in a
 * random order and form (long, short, --x=v, --no-x), sometimes an array option's several words,
 * a word too many or `--`. Whatever the line, the command read without yargs (cli/fast-args.ts)
 * gives the options yargs gives, or the same error, or leaves the line to yargs.
 */
describe('argv read without yargs, against yargs', () => {
  const spec = buildCliSpec();
  const someValue = (o: OptionSpec, rand: () => number): string =>
    o.choices ? o.choices[Math.floor(rand() * o.choices.length)]! : o.type === 'number' ? String(Math.floor(rand() * 50) + 1) : ['x', 'a1', 'HEAD', '7d', 'src/a.ts', 'decisions'][Math.floor(rand() * 6)]!;
  const lineFor = (c: CommandSpec, rand: () => number): string[] => {
    const line = [c.name];
    for (const p of c.positionals) {
      if (!p.required && rand() < 0.4) continue;
      line.push(p.choices ? p.choices[Math.floor(rand() * p.choices.length)]! : p.name === 'namespace' ? 'decisions' : `w${Math.floor(rand() * 9)}`);
      if (p.variadic && rand() < 0.5) line.push('more', 'words');
    }
    for (const o of [...c.options, ...spec.globalOptions].filter((o) => !o.hidden && rand() < 0.3)) {
      const names = [o.name, ...o.aliases];
      const name = names[Math.floor(rand() * names.length)]!;
      const flag = name.length === 1 ? `-${name}` : `--${name}`;
      if (o.type === 'boolean') line.push(rand() < 0.2 && name.length > 1 ? `--no-${name}` : flag);
      else if (o.type === 'count') line.push(flag, flag);
      else if (rand() < 0.2 && name.length > 1) line.push(`${flag}=${someValue(o, rand)}`);
      else {
        line.push(flag, someValue(o, rand));
        if (o.array && rand() < 0.4) line.push(someValue(o, rand));
      }
    }
    if (rand() < 0.1) line.push('extra');
    if (rand() < 0.1) line.push('--', '-dash');
    return line;
  };
  const outcome = (p: Promise<{ command: string; options: unknown }>) =>
    p.then(
      (r) => ({ ok: JSON.parse(JSON.stringify(r)) }),
      (e: Error) => ({ error: e.message }),
    );
  it('give the same options or the same error, on 600 lines over every command', async () => {
    const rand = prng(29);
    let read = 0;
    for (let n = 0; n < 600; n++) {
      const c = spec.commands[n % spec.commands.length]!;
      const line = lineFor(c, rand);
      const fast = await outcome(parseCommandLine(line, ctx));
      const slow = await outcome(parseCommandLine(line, ctx, 'yargs'));
      expect({ line, ...fast }).toEqual({ line, ...slow });
      if (argsBySpec(line, c, spec.globalOptions, spec.scriptName)) read++;
    }
    // Most of them are read without yargs: the comparison is not of yargs with itself.
    expect(read).toBeGreaterThan(300);
  });
});

describe('argv that no command accepts', () => {
  const rows: Array<[string[], RegExp]> = [
    [['capture', 'decision', 'Use sql.js'], /unknown namespace 'decision'.*did you mean decisions/],
    [['capture', 'decisions'], /missing <summary>: git mem capture <namespace> <summary\.\.>/],
    [['recall', 'x', '--since', 'last tuesday-ish'], /--since/],
    [['list', '--limit', '2.5'], /--limit must be a whole number/],
    [['edit', 'deadbeef', '--summary', 'x', '--dry-run'], /--dry-run works with --commit alone/],
    [['forget', 'deadbeef', '-n', 'decisions'], /give a memory id or filters, not both/],
    [['related', 'deadbeef', '--limit', '-1'], /--limit must be a whole number/],
    [['stats', '--weeks', '0'], /--weeks must be a whole number from 1 to 520/],
    [['gc', '--older-than', 'soon'], /--older-than 'soon' is not an age or a date/],
    [['reanchor', 'a1'], /give --to <commit> to move memories by hand/],
    [['reanchor', '--to', 'HEAD'], /--to needs the ids of the memories to move/],
    [['ui', '--port', '70000'], /--port must be a whole number from 0 to 65535/],
    [['init', '--codex', '--scope', 'user'], /--scope applies to --claude, --gemini and --opencode/],
    [['init', '--gemini', '--scope', 'local'], /--scope local is for Claude Code only/],
    [['init', '--scope', 'sideways'], /Invalid values:.*scope/],
    [['init', '--remove'], /--remove takes out a client's hooks: name it/],
    [['import'], /give a JSONL file \(- for stdin\), or --from claude/],
    [['import', 'x.jsonl', '--from', 'claude'], /give a file or --from claude, not both/],
    [['import', '--from', 'claude', '--attach-to', 'HEAD'], /--attach-to works with a JSONL file/],
    [['import', 'x.jsonl', '--dry-run'], /--dry-run works with --from claude/],
    [['import', '--from', 'chatgpt'], /Invalid values:.*from/],
    [['model'], /missing <action>: git mem model <action>/],
    [['model', 'fetch'], /Invalid values:.*action/],
    [['recal', 'x'], /Unknown argument|Did you mean/],
  ];
  it.each(rows)('%j', async (argv, message) => {
    await expect(parse(argv)).rejects.toThrow(message);
  });
});

describe('every command', () => {
  it('has a parse step, so that its row here checks options and not yargs\' arguments', () => {
    const without = commandModules(ctx)
      .filter((c) => typeof (c as { parse?: unknown }).parse !== 'function')
      .map((c) => String(c.command));
    expect(without).toEqual([]);
  });
});

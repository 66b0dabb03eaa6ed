import type { AppContext } from '../../context.ts';
import { type InitClientsRun, initClientsJson, initClientsNotices, initJson, renderInit, renderInitClients } from '../../render/init.ts';
import { AGENTS, type AgentId } from '../../agents/event.ts';
import { CLIENTS } from '../../agents/index.ts';
import { installCodex } from '../../agents/codex/install.ts';
import { installCopilot } from '../../agents/copilot/install.ts';
import { GitMemError, UsageError } from '../../core/errors.ts';
import { findOnPath } from '../../services/doctor.ts';
import { json } from '../../render/render.ts';
import { installClaudeHooks, type Scope, SCOPES } from '../../agents/claude/install.ts';
import { init, type InitResult } from '../../services/sync.ts';
import { installGemini } from '../../agents/gemini/install.ts';
import { installOpencode } from '../../agents/opencode/install.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface InitArgs {
  claude: boolean;
  codex: boolean;
  copilot: boolean;
  agents: boolean;
  gemini: boolean;
  opencode: boolean;
  scope: Scope;
  remove: boolean;
  remote?: string;
  'push-refspec': boolean;
  'show-in-log': boolean;
  'git-hooks': boolean;
  json: boolean;
}

/**
 * Either the repository's set-up (refspecs, notes config, git hooks), or the
 * agent clients' hooks: those named, or with --agents every client on PATH
 * (`found-on-path`; with --remove every client, on PATH or not).
 */
export type InitCommandOptions =
  | { setup: 'repository'; remote?: string; pushRefspec: boolean; showInLog: boolean; gitHooks: boolean; json: boolean }
  | {
      setup: 'clients';
      clients: AgentId[] | 'found-on-path';
      /** Claude Code's settings file. */
      scope: Scope;
      /** Gemini CLI's and OpenCode's: project or user (--agents: the project). */
      configScope: 'project' | 'user';
      remove: boolean;
      /** One client named: its result alone is printed; --agents or several: a list. */
      list: boolean;
      json: boolean;
    };

export function parseInit(argv: InitArgs): InitCommandOptions {
  if (argv.scope !== 'project' && (argv.codex || argv.copilot) && !argv.claude) throw new UsageError('--scope applies to --claude, --gemini and --opencode: Codex and Copilot read git-mem\'s hooks from the project');
  const named = AGENTS.filter((id) => argv[id]);
  if (!argv.agents && !named.length) {
    // Setting up the repository has no undo here; --remove alone would otherwise do the opposite of what it says.
    if (argv.remove) throw new UsageError('--remove takes out a client\'s hooks: name it (--claude, --codex, --copilot, --gemini, --opencode) or --agents for all');
    return { setup: 'repository', ...(argv.remote !== undefined ? { remote: argv.remote } : {}), pushRefspec: argv['push-refspec'], showInLog: argv['show-in-log'], gitHooks: argv['git-hooks'], json: argv.json };
  }
  if (!argv.agents && argv.scope === 'local' && (argv.gemini || argv.opencode)) throw new UsageError('--scope local is for Claude Code only; Gemini CLI and OpenCode take project or user');
  return {
    setup: 'clients',
    clients: argv.agents ? (argv.remove ? [...AGENTS] : 'found-on-path') : named,
    scope: argv.scope,
    configScope: argv.agents || argv.scope === 'project' ? 'project' : 'user',
    remove: argv.remove,
    list: argv.agents || named.length > 1,
    json: argv.json,
  };
}

export function initCommand(ctx: AppContext) {
  const installClients = async (o: Extract<InitCommandOptions, { setup: 'clients' }>): Promise<InitClientsRun> => {
    const clients = o.clients === 'found-on-path' ? AGENTS.filter((id) => findOnPath(ctx.env, CLIENTS[id].program)) : o.clients;
    if (!clients.length) throw new GitMemError(`none of ${AGENTS.map((id) => CLIENTS[id].program).join(', ')} is on PATH; name one: git mem init --claude, --codex, --copilot, --gemini or --opencode`);
    const installs: InitClientsRun['installs'] = [];
    for (const id of clients) {
      if (id === 'claude') installs.push({ kind: 'claude', result: installClaudeHooks(ctx, o.scope, o.remove) });
      else if (id === 'gemini' || id === 'opencode') installs.push({ kind: 'config', result: (id === 'gemini' ? installGemini : installOpencode)(ctx, o.configScope, o.remove) });
      else installs.push({ kind: 'agent', result: id === 'codex' ? await installCodex(ctx, o.remove) : installCopilot(ctx, o.remove) });
    }
    return { installs, removed: o.remove };
  };

  return defineCommand({
    command: 'init',
    describe: 'Prepare the repository to share memories (idempotent)',
    builder: (y) =>
      y
        .option('claude', { type: 'boolean', default: false, describe: "Install git-mem's Claude Code hooks into settings.json (see --scope, --remove)" })
        .option('codex', { type: 'boolean', default: false, describe: "Install git-mem's Codex CLI hooks (.codex/hooks.json) and MCP server (.codex/config.toml), and mark the hooks trusted through codex app-server" })
        .option('copilot', { type: 'boolean', default: false, describe: "Install git-mem's Copilot CLI hooks (.github/hooks/git-mem.json) and MCP server (.mcp.json)" })
        .option('gemini', { type: 'boolean', default: false, describe: "Install git-mem's Gemini CLI hooks and MCP server into .gemini/settings.json (--scope user: ~/.gemini/settings.json; see --remove)" })
        .option('opencode', { type: 'boolean', default: false, describe: "Install git-mem's OpenCode plugin (.opencode/plugins/git-mem.js) and MCP server (opencode.json); --scope user: ~/.config/opencode/; see --remove" })
        .option('agents', { type: 'boolean', default: false, describe: 'Set up every supported client found on PATH (claude, copilot, codex, gemini, opencode), each as its own flag does' })
        .option('scope', { type: 'string', choices: SCOPES, default: 'project', describe: 'With --claude: project (.claude/settings.json), local (.claude/settings.local.json) or user (~/.claude/settings.json); with --gemini or --opencode: project or user' })
        .option('remove', { type: 'boolean', default: false, describe: "With --claude, --codex, --copilot, --gemini, --opencode or --agents: remove exactly git-mem's entries (with --agents: every client's, on PATH or not)" })
        .option('remote', { type: 'string', describe: "Remote to fetch memories from (default: the branch's upstream remote, else origin)" })
        .option('push-refspec', {
          type: 'boolean',
          default: false,
          describe: 'Also add push refspecs (HEAD and refs/notes/mem/*) so plain git push sends memories. A push refspec replaces push.default for a plain git push; without this flag git mem init leaves git push alone',
        })
        .option('show-in-log', { type: 'boolean', default: false, describe: 'Add notes.displayRef so git log shows memories' })
        .option('git-hooks', {
          type: 'boolean',
          default: true,
          describe: 'Install post-rewrite, post-merge and reference-transaction git hooks that run git mem reanchor in the background after a rewrite, a merge, a deleted branch or a git reset, and a pre-push hook that refuses to push memories holding a secret (a hook already there is kept and run first); --no-git-hooks skips them',
        })
        .option('json', jsonOption)
        .epilogue(
          'Adds, beside existing values and never replacing them: a fetch refspec +refs/notes/mem/*:refs/notes/remotes/<remote>/mem/* (so git fetch brings memories; merge them with git mem pull --no-fetch), and notes.rewriteRef refs/notes/mem/* (memories follow their commits through git commit --amend and git rebase).',
        ) as never,
    parse: parseInit,
    run: async (o: InitCommandOptions): Promise<{ setup: 'repository'; result: InitResult } | { setup: 'clients'; result: InitClientsRun }> => {
      if (o.setup === 'clients') return { setup: 'clients', result: await installClients(o) };
      return { setup: 'repository', result: init(ctx, { remote: o.remote, pushRefspec: o.pushRefspec, showInLog: o.showInLog, gitHooks: o.gitHooks }) };
    },
    render: (r, o) => {
      if (r.setup === 'repository') {
        ctx.io.out(o.json ? json(initJson(r.result)) : renderInit(r.result, ctx.io.color));
        return;
      }
      for (const line of initClientsNotices(r.result)) ctx.io.err(`git-mem: ${line}`);
      const list = o.setup === 'clients' && o.list;
      ctx.io.out(o.json ? json(initClientsJson(r.result, list)) : renderInitClients(r.result));
    },
  });
}

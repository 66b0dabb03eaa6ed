import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { agentInstallJson, claudeInstallJson, initJson, renderAgentInstall, renderClaudeInstall, renderInit } from '../../render/init.ts';
import { AGENTS, type AgentId } from '../../agents/event.ts';
import { CLIENTS } from '../../agents/index.ts';
import { installCodex } from '../../agents/codex/install.ts';
import { installCopilot } from '../../agents/copilot/install.ts';
import { GitMemError, UsageError } from '../../core/errors.ts';
import { findOnPath } from '../../services/doctor.ts';
import { json } from '../../render/render.ts';
import { installClaudeHooks, type Scope, SCOPES } from '../../agents/claude/install.ts';
import { init } from '../../services/sync.ts';
import { installGemini } from '../../agents/gemini/install.ts';
import { installOpencode } from '../../agents/opencode/install.ts';
import { clientInstallJson, renderClientInstall } from '../../render/agent-install.ts';
import { jsonOption } from '../shared.ts';

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

export function initCommand(ctx: AppContext): CommandModule<object, InitArgs> {
  return {
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
    handler: async (argv) => {
      if (argv.scope !== 'project' && (argv.codex || argv.copilot) && !argv.claude) throw new UsageError('--scope applies to --claude, --gemini and --opencode: Codex and Copilot read git-mem\'s hooks from the project');
      const clients: AgentId[] = argv.agents ? AGENTS.filter((id) => argv.remove || findOnPath(ctx.env, CLIENTS[id].program)) : AGENTS.filter((id) => argv[id]);
      if (argv.agents && !clients.length) throw new GitMemError(`none of ${AGENTS.map((id) => CLIENTS[id].program).join(', ')} is on PATH; name one: git mem init --claude, --codex, --copilot, --gemini or --opencode`);
      if (clients.length) {
        // Gemini CLI and OpenCode take project or user; --agents installs them in the project.
        const scope = (): 'project' | 'user' => {
          if (argv.agents || argv.scope === 'project') return 'project';
          if (argv.scope === 'local') throw new UsageError('--scope local is for Claude Code only; Gemini CLI and OpenCode take project or user');
          return 'user';
        };
        const results: unknown[] = [];
        const texts: string[] = [];
        for (const id of clients) {
          if (id === 'claude') {
            const r = installClaudeHooks(ctx, argv.scope, argv.remove);
            if (r.warning) ctx.io.err(`git-mem: ${r.warning}`);
            results.push(claudeInstallJson(r));
            texts.push(renderClaudeInstall(r, argv.remove));
            continue;
          }
          if (id === 'gemini' || id === 'opencode') {
            const r = (id === 'gemini' ? installGemini : installOpencode)(ctx, scope(), argv.remove);
            for (const w of r.warnings) ctx.io.err(`git-mem: ${w}`);
            results.push(clientInstallJson(r));
            texts.push(renderClientInstall(r));
            continue;
          }
          const r = id === 'codex' ? await installCodex(ctx, argv.remove) : installCopilot(ctx, argv.remove);
          for (const note of r.notes) ctx.io.err(`git-mem: ${note}`);
          results.push(agentInstallJson(r));
          texts.push(renderAgentInstall(r, argv.remove));
        }
        // One client named: its result alone, as --claude always printed it; --agents or several: a list.
        ctx.io.out(argv.json ? json(results.length === 1 && !argv.agents ? results[0] : results) : texts.join('\n'));
        return;
      }
      const result = init(ctx, { remote: argv.remote, pushRefspec: argv['push-refspec'], showInLog: argv['show-in-log'], gitHooks: argv['git-hooks'] });
      ctx.io.out(argv.json ? json(initJson(result)) : renderInit(result, ctx.io.color));
    },
  };
}

import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { claudeInstallJson, initJson, renderClaudeInstall, renderInit } from '../../render/init.ts';
import { json } from '../../render/render.ts';
import { installClaudeHooks, type Scope, SCOPES } from '../../agents/claude/install.ts';
import { init } from '../../services/sync.ts';
import { UsageError } from '../../core/errors.ts';
import { installGemini } from '../../agents/gemini/install.ts';
import { installOpencode } from '../../agents/opencode/install.ts';
import type { ClientInstall } from '../../agents/config-install.ts';
import { clientInstallJson, renderClientInstall } from '../../render/agent-install.ts';
import { jsonOption } from '../shared.ts';

interface InitArgs {
  claude: boolean;
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
        .option('gemini', { type: 'boolean', default: false, describe: "Install git-mem's Gemini CLI hooks and MCP server into .gemini/settings.json (--scope user: ~/.gemini/settings.json; see --remove)" })
        .option('opencode', { type: 'boolean', default: false, describe: "Install git-mem's OpenCode plugin (.opencode/plugins/git-mem.js) and MCP server (opencode.json); --scope user: ~/.config/opencode/; see --remove" })
        .option('scope', { type: 'string', choices: SCOPES, default: 'project', describe: 'With --claude: project (.claude/settings.json), local (.claude/settings.local.json) or user (~/.claude/settings.json); with --gemini or --opencode: project or user' })
        .option('remove', { type: 'boolean', default: false, describe: "With --claude, --gemini or --opencode: remove exactly what git-mem added" })
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
          describe: 'Install post-rewrite, post-merge and reference-transaction git hooks that run git mem reanchor in the background after a rewrite, a merge or a deleted branch, and a pre-push hook that refuses to push memories holding a secret (a hook already there is kept and run first); --no-git-hooks skips them',
        })
        .option('json', jsonOption)
        .epilogue(
          'Adds, beside existing values and never replacing them: a fetch refspec +refs/notes/mem/*:refs/notes/remotes/<remote>/mem/* (so git fetch brings memories; merge them with git mem pull --no-fetch), and notes.rewriteRef refs/notes/mem/* (memories follow their commits through git commit --amend and git rebase).',
        ) as never,
    handler: async (argv) => {
      const clients: Array<() => ClientInstall> = [];
      const scope = () => {
        if (argv.scope === 'local') throw new UsageError('--scope local is for Claude Code only; Gemini CLI and OpenCode take project or user');
        return argv.scope as 'project' | 'user';
      };
      if (argv.gemini) clients.push(() => installGemini(ctx, scope(), argv.remove));
      if (argv.opencode) clients.push(() => installOpencode(ctx, scope(), argv.remove));
      if (clients.length) {
        const results = clients.map((install) => install());
        for (const w of results.flatMap((r) => r.warnings)) ctx.io.err(`git-mem: ${w}`);
        ctx.io.out(argv.json ? json(results.map(clientInstallJson)) : results.map(renderClientInstall).join('\n'));
        if (!argv.claude) return;
      }
      if (argv.claude) {
        const r = installClaudeHooks(ctx, argv.scope, argv.remove);
        if (r.warning) ctx.io.err(`git-mem: ${r.warning}`);
        ctx.io.out(argv.json ? json(claudeInstallJson(r)) : renderClaudeInstall(r, argv.remove));
        return;
      }
      const result = init(ctx, { remote: argv.remote, pushRefspec: argv['push-refspec'], showInLog: argv['show-in-log'], gitHooks: argv['git-hooks'] });
      ctx.io.out(argv.json ? json(initJson(result)) : renderInit(result, ctx.io.color));
    },
  };
}

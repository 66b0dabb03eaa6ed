import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { json } from '../../io/render.ts';
import { init } from '../../services/sync.ts';
import { jsonOption } from '../shared.ts';

interface InitArgs {
  remote?: string;
  'push-refspec': boolean;
  'show-in-log': boolean;
  json: boolean;
}

export function initCommand(ctx: AppContext): CommandModule<object, InitArgs> {
  return {
    command: 'init',
    describe: 'Prepare the repository to share memories (idempotent)',
    builder: (y) =>
      y
        .option('remote', { type: 'string', describe: "Remote to fetch memories from (default: the branch's upstream remote, else origin)" })
        .option('push-refspec', {
          type: 'boolean',
          default: false,
          describe: 'Also add push refspecs (HEAD and refs/notes/mem/*) so plain git push sends memories. A push refspec replaces push.default for a plain git push; without this flag git mem init leaves git push alone',
        })
        .option('show-in-log', { type: 'boolean', default: false, describe: 'Add notes.displayRef so git log shows memories' })
        .option('json', jsonOption)
        .epilogue(
          'Adds, beside existing values and never replacing them: a fetch refspec +refs/notes/mem/*:refs/notes/remotes/<remote>/mem/* (so git fetch brings memories; merge them with git mem pull --no-fetch), and notes.rewriteRef refs/notes/mem/* (memories follow their commits through git commit --amend and git rebase).',
        ) as never,
    handler: async (argv) => {
      const result = init(ctx, { remote: argv.remote, pushRefspec: argv['push-refspec'], showInLog: argv['show-in-log'] });
      if (argv.json) {
        ctx.io.out(json(result));
        return;
      }
      const c = ctx.io.color;
      const lines = result.steps.map((s) => `${s.changed ? c.green('added  ') : c.dim('present')}  ${s.key} ${s.value}`);
      if (!result.remote) lines.push(c.dim('no remote configured: add one with git remote add, then run git mem init again'));
      ctx.io.out(lines.join('\n'));
    },
  };
}

import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { reanchor } from '../../services/reanchor.ts';
import { jsonOption } from '../shared.ts';

interface ReanchorArgs {
  'dry-run': boolean;
  quiet: boolean;
  json: boolean;
}

export function reanchorCommand(ctx: AppContext): CommandModule<object, ReanchorArgs> {
  return {
    command: 'reanchor',
    describe: 'Move memories from commits no branch reaches any more onto the commits that now hold their change',
    builder: (y) =>
      y
        .option('dry-run', { type: 'boolean', default: false, describe: 'Say what would move; write nothing' })
        .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Print nothing unless something is left unmatched (for git hooks)' })
        .option('json', jsonOption)
        .example('git mem reanchor --dry-run', 'After a squash merge and deleting the branch: where would its memories go?')
        .epilogue(
          'A commit is orphaned when HEAD, no branch, remote-tracking branch or tag reaches it: gc will drop it and git notes prune the memories on it. ' +
            'A memory with another copy on a live commit keeps that one (with its newest revision); otherwise its commit is matched among the live commits: ' +
            'by patch-id, then by a squash message that names it or lists its subject, then by the files it changed (recorded at capture). ' +
            'Unmatched memories stay where they are and are listed. git mem init installs post-rewrite and post-merge hooks that run this in the background; git mem pull runs it too.',
        ) as never,
    handler: async (argv) => {
      const r = await reanchor(ctx, { dryRun: argv['dry-run'] });
      if (argv.json) {
        ctx.io.out(json(r));
        return;
      }
      const c = ctx.io.color;
      const verb = r.dryRun ? 'would move' : 'moved';
      const lines = argv.quiet ? [] : r.moved.map((m) => `${verb} ${c.yellow(m.id)}  ${m.from.map((o) => o.slice(0, 7)).join(',')} -> ${m.to.map((o) => o.slice(0, 7)).join(',')}  ${c.dim(`(${m.via})`)}`);
      for (const u of r.unmatched) lines.push(`${c.red('unmatched')} ${u.id}: its commit ${u.objects.map((o) => o.slice(0, 7)).join(',')} is on no branch and nothing matched it; it stays there`);
      if (!argv.quiet && lines.length === 0) lines.push(c.dim('nothing to reanchor'));
      if (lines.length) ctx.io.out(lines.join('\n'));
    },
  };
}

import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { memoryText } from '../../core/note-format.ts';
import { visible } from '../../core/terminal-text.ts';
import { outPaged } from '../../io/pager.ts';
import { json, memoryJson, trustJson } from '../../render/render.ts';
import { describeProvenance } from '../../core/trust.ts';
import { trustOf } from '../../services/trust.ts';
import { findMemory } from '../../services/memories.ts';
import { jsonOption } from '../shared.ts';

interface ShowArgs {
  id: string;
  json: boolean;
}

export function showCommand(ctx: AppContext): CommandModule<object, ShowArgs> {
  return {
    command: 'show <id>',
    describe: 'Show a memory: front matter and body',
    builder: (y) =>
      y
        .positional('id', { type: 'string', demandOption: true, describe: 'Memory id (<namespace>:<commit>:<key>, or a key prefix)' })
        .option('json', jsonOption) as never,
    handler: async (argv) => {
      const m = await findMemory(ctx, argv.id);
      const trust = trustOf(ctx, [m]).get(m.key);
      if (argv.json) ctx.io.out(json({ ...memoryJson(m), ...trustJson(trust) }));
      else {
        // The commit it is attached to is the note's place, not in its front matter: said below it.
        const facts = [`# commit ${m.object}`, `# ${visible(describeProvenance(trust?.provenance))}; ${trust?.trusted ? 'trusted' : 'waits for review (git mem review)'}`];
        await outPaged(ctx, `${visible(memoryText(m))}\n\n${ctx.io.color.dim(facts.join('\n'))}`);
      }
    },
  };
}

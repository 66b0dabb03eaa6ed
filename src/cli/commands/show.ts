import type { AppContext } from '../../context.ts';
import { memoryText } from '../../core/note-format.ts';
import { visible } from '../../core/terminal-text.ts';
import { outPaged } from '../../io/pager.ts';
import { json, memoryJson, trustJson } from '../../render/render.ts';
import { describeProvenance } from '../../core/trust.ts';
import { asShown } from '../../services/shown.ts';
import { findMemory } from '../../services/memories.ts';
import { defineCommand } from '../command.ts';
import { jsonOption } from '../shared.ts';

interface ShowArgs {
  id: string;
  json: boolean;
}

export function showCommand(ctx: AppContext) {
  return defineCommand({
    command: 'show <id>',
    describe: 'Show a memory: front matter and body',
    builder: (y) =>
      y
        .positional('id', { type: 'string', demandOption: true, describe: 'Memory id (<namespace>:<commit>:<key>, or a key prefix)' })
        .option('json', jsonOption) as never,
    parse: (argv: ShowArgs) => ({ id: argv.id, json: argv.json }),
    run: async (o) => asShown(ctx, [await findMemory(ctx, o.id)], { trust: true })[0]!,
    render: async ({ memory: m, trust }, o) => {
      if (o.json) ctx.io.out(json({ ...memoryJson(m), ...trustJson(trust) }));
      else {
        // The commit it is attached to is the note's place, not in its front matter: said below it.
        const facts = [`# commit ${m.object}`, `# ${visible(describeProvenance(trust?.provenance))}; ${trust?.trusted ? 'trusted' : 'waits for review (git mem review)'}`];
        await outPaged(ctx, `${visible(memoryText(m))}\n\n${ctx.io.color.dim(facts.join('\n'))}`);
      }
    },
  });
}

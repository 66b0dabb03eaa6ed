import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { namespaceCounts } from '../../services/memories.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

export function namespacesCommand(ctx: AppContext) {
  return defineCommand({
    command: 'namespaces',
    describe: 'List namespaces with memory counts and descriptions',
    builder: (y) => y.option('json', jsonOption) as never,
    parse: (argv: { json: boolean }) => ({ json: argv.json }),
    run: () => namespaceCounts(ctx),
    render: (rows, o) => {
      if (o.json) {
        ctx.io.out(json(rows.map((r) => ({ name: r.name, description: r.description, builtin: r.builtin, count: r.count }))));
        return;
      }
      const c = ctx.io.color;
      const width = Math.max(...rows.map((r) => r.name.length));
      ctx.io.out(rows.map((r) => `${c.cyan(r.name.padEnd(width))}  ${String(r.count).padStart(5)}  ${c.dim(r.description)}`).join('\n'));
    },
  });
}

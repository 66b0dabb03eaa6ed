import type { AppContext } from '../../context.ts';
import { json, memoryJson, memoryLine } from '../../render/render.ts';
import { blameMemories, describeRanges, linesLabel } from '../../services/code-memories.ts';
import { defineCommand } from '../command.ts';
import { jsonOption } from '../shared.ts';

interface BlameArgs {
  target: string;
  json: boolean;
}

export function blameCommand(ctx: AppContext) {
  return defineCommand({
    command: 'blame <target>',
    describe: 'The memories behind lines of a file: git blame, then the memories on those commits',
    builder: (y) =>
      y
        .positional('target', { type: 'string', demandOption: true, describe: '<file>, <file>:<line> or <file>:<from>,<to>' })
        .option('json', jsonOption)
        .example('git mem blame src/index.ts:40,60', 'Why are lines 40 to 60 the way they are?') as never,
    parse: (argv: BlameArgs) => ({ target: argv.target, json: argv.json }),
    run: (o) => blameMemories(ctx, o.target),
    render: (r, o) => {
      if (o.json) {
        const { entries, ...rest } = r;
        ctx.io.out(json({ ...rest, memories: entries.map((e) => ({ ...memoryJson(e.memory), blame_commits: e.commits, lines: e.ranges })) }));
        return;
      }
      const c = ctx.io.color;
      const where = r.from === undefined ? r.file : `${r.file}:${describeRanges([[r.from, r.to ?? r.from]])}`;
      const lines = [c.dim(`${where}: ${r.entries.length} ${r.entries.length === 1 ? 'memory' : 'memories'} from ${r.commits} ${r.commits === 1 ? 'commit' : 'commits'}`)];
      for (const e of r.entries) lines.push(`${memoryLine(e.memory, ctx.now(), c)}  ${c.dim(linesLabel(e.ranges))}`);
      ctx.io.out(lines.join('\n'));
    },
  });
}

import type { AppContext } from '../../context.ts';
import { hydratedJson, hydratedText } from '../../render/hydrate-render.ts';
import { outPaged } from '../../io/pager.ts';
import { json } from '../../render/render.ts';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_FILES, HYDRATE_LEVELS, type HydrateLevel, hydrate } from '../../services/hydrate.ts';
import { defineCommand } from '../command.ts';
import { jsonOption } from '../shared.ts';

interface HydrateArgs {
  id: string;
  level: HydrateLevel;
  'max-files': number;
  'max-bytes': number;
  json: boolean;
}

export function hydrateCommand(ctx: AppContext) {
  return defineCommand({
    command: 'hydrate <id>',
    describe: 'A memory in depth: with its commit (full), and the files that commit changed (files)',
    builder: (y) =>
      y
        .positional('id', { type: 'string', demandOption: true, describe: 'Memory id (<namespace>:<commit>:<key>, or a key prefix)' })
        .option('level', { type: 'string', choices: HYDRATE_LEVELS, default: 'full', describe: 'full: memory and commit; files: also the changed files as they were at that commit' })
        .option('max-files', { type: 'number', default: DEFAULT_MAX_FILES, describe: 'Show at most this many changed files' })
        .option('max-bytes', { type: 'number', default: DEFAULT_MAX_BYTES, describe: 'Show at most this many bytes of each file' })
        .option('json', jsonOption) as never,
    parse: (argv: HydrateArgs) => ({ id: argv.id, limits: { level: argv.level, maxFiles: argv['max-files'], maxBytes: argv['max-bytes'] }, json: argv.json }),
    run: (o) => hydrate(ctx, o.id, o.limits),
    render: async (h, o) => {
      if (o.json) ctx.io.out(json(hydratedJson(h)));
      else await outPaged(ctx, hydratedText(h, ctx.io.color));
    },
  });
}

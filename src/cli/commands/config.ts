import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { configJson, renderConfig } from '../../render/config.ts';
import { readConfigReport } from '../../services/config-report.ts';
import { jsonOption } from '../shared.ts';

export function configCommand(ctx: AppContext): CommandModule<object, { json: boolean }> {
  return {
    command: 'config',
    describe: 'Show every setting: its effective value and where it came from (default, git config, environment)',
    builder: (y) =>
      y
        .option('json', jsonOption)
        .example('git mem config', '')
        .example('git config --global mem.autoCapture false', 'Change a setting with git config (repository: without --global)')
        .epilogue(
          'Settings are git config keys under mem.* (repository, global or system config), each overridden by its GIT_MEM_* environment variable. Change them with git config; an invalid value is reported and the default used.',
        ) as never,
    handler: async (argv) => {
      const report = readConfigReport(ctx.cwd, ctx.env);
      ctx.io.out(argv.json ? json(configJson(report)) : renderConfig(report, ctx.io.color));
    },
  };
}

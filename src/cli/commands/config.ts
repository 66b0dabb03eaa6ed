import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { configJson, renderConfig } from '../../render/config.ts';
import { readConfigReport } from '../../services/config-report.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

export function configCommand(ctx: AppContext) {
  return defineCommand({
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
    parse: (argv: { json: boolean }) => ({ json: argv.json }),
    run: async () => readConfigReport(ctx.cwd, ctx.env),
    render: (report, o) => ctx.io.out(o.json ? json(configJson(report)) : renderConfig(report, ctx.io.color)),
  });
}

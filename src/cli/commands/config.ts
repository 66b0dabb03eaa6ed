import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { readConfigReport, valueText } from '../../services/config-report.ts';
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
      if (argv.json) {
        ctx.io.out(json(report));
        return;
      }
      const c = ctx.io.color;
      const rows = report.settings.map((s) => [s.key, valueText(s.value), s.source === 'default' ? 'default' : `${s.source} (${s.origin})`] as const);
      const w0 = Math.max(...rows.map((r) => r[0].length));
      const w1 = Math.max(...rows.map((r) => r[1].length));
      const lines = rows.map(([k, v, src], i) => {
        const s = report.settings[i]!;
        return `${c.cyan(k.padEnd(w0))}  ${(s.source === 'default' ? c.dim : (t: string) => t)(v.padEnd(w1))}  ${c.dim(src)}`;
      });
      for (const s of report.settings) if (s.problem) lines.push(c.yellow(`warning: ${s.key}: ${s.problem}`));
      for (const u of report.unknown) lines.push(c.yellow(`warning: ${u.key} (${u.scope}) is not a git-mem setting; known: ${report.settings.map((s) => s.key).join(', ')}`));
      ctx.io.out(lines.join('\n'));
    },
  };
}

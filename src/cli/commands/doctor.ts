import type { CommandModule } from 'yargs';
import type { AppContext } from '../../context.ts';
import { GitMemError } from '../../core/errors.ts';
import { json } from '../../render/render.ts';
import { type CheckStatus, runDoctor } from '../../services/doctor.ts';
import { jsonOption } from '../shared.ts';

export function doctorCommand(ctx: AppContext): CommandModule<object, { json: boolean }> {
  return {
    command: 'doctor',
    describe: 'Check git, PATH, notes refs and config, the index, the model, Claude Code hooks and locks; explain each problem and its fix',
    builder: (y) =>
      y
        .option('json', jsonOption)
        .example('git mem doctor', '')
        .epilogue('Exits 1 when a check warns or fails (info lines are not problems). Read-only: it changes nothing.') as never,
    handler: async (argv) => {
      const report = await runDoctor(ctx);
      if (argv.json) ctx.io.out(json(report));
      else {
        const c = ctx.io.color;
        const mark: Record<CheckStatus, string> = { ok: c.green('ok  '), info: c.blue('info'), warn: c.yellow('warn'), fail: c.red('FAIL') };
        const lines: string[] = [];
        for (const check of report.checks) {
          lines.push(`${mark[check.status]}  ${c.dim(check.id.padEnd(13))} ${check.message}`);
          if (check.fix && check.status !== 'ok') lines.push(`      ${' '.repeat(13)} ${c.dim('fix:')} ${check.fix}`);
        }
        if (report.ok) lines.push('', c.green('no problems found'));
        ctx.io.out(lines.join('\n'));
      }
      const problems = report.checks.filter((x) => x.status === 'warn' || x.status === 'fail').length;
      // Exit 1, with one line on stderr (main.ts prints it).
      if (problems) throw new GitMemError(`doctor found ${problems} problem${problems === 1 ? '' : 's'}`);
    },
  };
}

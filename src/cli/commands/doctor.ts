import type { AppContext } from '../../context.ts';
import { GitMemError } from '../../core/errors.ts';
import { json } from '../../render/render.ts';
import { doctorJson, doctorProblems, renderDoctor } from '../../render/doctor.ts';
import { runDoctor } from '../../services/doctor.ts';
import { agentChecks } from '../../agents/index.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

export function doctorCommand(ctx: AppContext) {
  return defineCommand({
    command: 'doctor',
    describe: 'Check git, PATH, notes refs and config, stranded memories, the index, the model, the agent clients\' hooks (Claude Code, Copilot CLI, Codex CLI, Gemini CLI, OpenCode) and locks; explain each problem and its fix',
    builder: (y) =>
      y
        .option('json', jsonOption)
        .example('git mem doctor', '')
        .epilogue('Exits 1 when a check warns or fails (info lines are not problems). Read-only: it changes nothing.') as never,
    parse: (argv: { json: boolean }) => ({ json: argv.json }),
    run: () => runDoctor(ctx, agentChecks),
    render: (report, o) => {
      ctx.io.out(o.json ? json(doctorJson(report)) : renderDoctor(report, ctx.io.color));
      const problems = doctorProblems(report);
      // Exit 1, with one line on stderr (main.ts prints it).
      if (problems) throw new GitMemError(`doctor found ${problems} problem${problems === 1 ? '' : 's'}`);
    },
  });
}

import type { AppContext } from '../../context.ts';
import { UsageError } from '../../core/errors.ts';
import { parseDateArg } from '../../core/time.ts';
import { json } from '../../render/render.ts';
import { gcJson, renderGc } from '../../render/lifecycle.ts';
import { gc } from '../../services/lifecycle/gc.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface GcArgs {
  'older-than': string;
  'dry-run': boolean;
  with?: string;
  json: boolean;
}

export function gcCommand(ctx: AppContext) {
  return defineCommand({
    command: 'gc',
    describe: 'Archive old, isolated memories that say too little; reprieve the rest',
    builder: (y) =>
      y
        .option('older-than', { type: 'string', default: '90d', describe: 'Only memories captured before this: an age (90d, 12w) or a date' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'Print what would be done; write nothing' })
        .option('with', { type: 'string', describe: 'A command that judges which memories are worth keeping (JSON on stdin and stdout)' })
        .option('json', jsonOption)
        .example('git mem gc --dry-run', '')
        .epilogue(
          'Judged: active memories older than the limit with no link either way and no similar memory (mem.lifecycle.connect). Without --with, one lacking substance (short, no reason given, no code identifier or path, no link) is archived; one with substance is reprieved (reprieves: n in its note), and after 3 reprieves kept for good. --with CMD gets {"memories": [{"id","namespace","summary","body","tags","created"}]} on stdin and must print {"keep": [ids]}. Never aged: namespaces in mem.lifecycle.protect (default decisions), memories tagged keep, resolved or archived ones, and those captured less than the limit ago.',
        ) as never,
    parse: (argv: GcArgs) => {
      const olderThan = parseDateArg(argv['older-than'], ctx.now());
      if (!olderThan) throw new UsageError(`--older-than '${argv['older-than']}' is not an age or a date; use 90d, 12w or 2026-01-31`);
      return { olderThan, dryRun: argv['dry-run'], with: argv.with, json: argv.json };
    },
    run: ({ json: _, ...options }) => gc(ctx, options),
    render: (result, o) => ctx.io.out(o.json ? json(gcJson(result)) : renderGc(result, ctx.io.color, ctx.now())),
  });
}

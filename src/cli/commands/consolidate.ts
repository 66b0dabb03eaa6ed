import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { consolidateJson, renderConsolidate } from '../../render/lifecycle.ts';
import { consolidate } from '../../services/lifecycle/consolidate.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface ConsolidateArgs {
  namespace?: string[];
  'min-size': number;
  'dry-run': boolean;
  with?: string;
  json: boolean;
}

export function consolidateCommand(ctx: AppContext) {
  return defineCommand({
    command: 'consolidate',
    describe: 'Merge groups of connected memories into one; the originals are archived, not deleted',
    builder: (y) =>
      y
        .option('namespace', { alias: 'n', type: 'string', array: true, describe: 'Only this namespace (repeatable; default all)' })
        .option('min-size', { type: 'number', default: 3, describe: 'Smallest group consolidated' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'Print what would be done; write nothing' })
        .option('with', { type: 'string', describe: 'A command that writes each consolidated memory (JSON on stdin and stdout)' })
        .option('json', jsonOption)
        .example('git mem consolidate --dry-run', '')
        .example(`git mem consolidate -n learnings --with 'claude -p "Merge these memories; answer JSON {summary, body, tags}"'`, '')
        .epilogue(
          'A group is a memory (its hub) and the memories of its namespace connected to it: linked (relates_to) or similar in words at or above mem.lifecycle.connect. Without --with, the consolidated memory takes the summary of the hub, and its body keeps every original summary and the lines that give a reason (because, so that, instead of); tags are the union. --with CMD gets {"namespace", "memories": [{"id","summary","body","tags","created"}]} on stdin and must print {"summary","body","tags"?} within mem.lifecycle.timeout seconds; if it fails for any group, nothing is written. Originals get status archived and consolidated_into; recall then finds the consolidated memory (the originals with --status archived).',
        ) as never,
    parse: (argv: ConsolidateArgs) => ({ namespaces: argv.namespace, minSize: argv['min-size'], dryRun: argv['dry-run'], with: argv.with, json: argv.json }),
    run: ({ json: _, ...options }) => consolidate(ctx, options),
    render: (result, o) => ctx.io.out(o.json ? json(consolidateJson(result)) : renderConsolidate(result, ctx.io.color, ctx.now())),
  });
}

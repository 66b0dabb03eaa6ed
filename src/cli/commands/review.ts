import type { AppContext } from '../../context.ts';
import { formatId } from '../../core/memory.ts';
import { memoryText } from '../../core/note-format.ts';
import { visible } from '../../core/terminal-text.ts';
import { describeProvenance } from '../../core/trust.ts';
import { outPaged } from '../../io/pager.ts';
import { json, memoryJson, trustJson } from '../../render/render.ts';
import { review, type Waiting, waitingForReview } from '../../services/trust/review.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface ReviewArgs {
  accept?: string[];
  reject?: string[];
  all: boolean;
  json: boolean;
}

export function reviewCommand(ctx: AppContext) {
  return defineCommand({
    command: 'review',
    describe: 'List the memories waiting for review (not shown to agents under mem.trust), and accept or reject them',
    builder: (y) =>
      y
        .option('accept', { alias: 'a', type: 'string', array: true, describe: 'Accept these memories (ids): written again by you, agents see them' })
        .option('reject', { alias: 'r', type: 'string', array: true, describe: 'Reject these memories (ids): forgotten, with a tombstone that syncs' })
        .option('all', { type: 'boolean', default: false, describe: 'Accept every memory waiting' })
        .option('json', jsonOption)
        .example('git mem review', 'See who wrote what, where it came from, and its text')
        .example('git mem review --accept decisions:1a2b3c4:5d6e7f8a9b --reject learnings:9f8e7d6:0a1b2c3d4e', '')
        .epilogue(
          'Which revisions agents see without review is mem.trust (default local,signed: written in this clone, or signed by a key git trusts). ' +
            'Accepting writes the memory again as yours (signed when mem.sign or commit.gpgSign is on), so teammates who trust you need not review it; push to share it.',
        ) as never,
    parse: (argv: ReviewArgs) => ({ accept: argv.accept ?? [], reject: argv.reject ?? [], all: argv.all, json: argv.json }),
    run: async (o) => {
      if (!o.all && !o.accept.length && !o.reject.length) return { waiting: await waitingForReview(ctx) };
      return { done: await review(ctx, { accept: o.accept, reject: o.reject, all: o.all }) };
    },
    render: async (r, o) => {
      if (r.waiting) {
        const waiting = r.waiting;
        if (o.json) ctx.io.out(json(waiting.map((w) => ({ ...memoryJson(w.memory), ...trustJson(w.trust), previous: w.previous ? memoryJson(w.previous) : null }))));
        else if (waiting.length === 0) ctx.io.out('nothing waits for review');
        else await outPaged(ctx, renderWaiting(waiting, ctx));
        return;
      }
      const result = r.done!;
      if (o.json) ctx.io.out(json({ accepted: result.accepted.map(formatId), rejected: result.rejected.map(formatId) }));
      else {
        const lines = [...result.accepted.map((m) => `accepted ${formatId(m)}`), ...result.rejected.map((m) => `rejected ${formatId(m)}`)];
        ctx.io.out(lines.length ? lines.join('\n') : 'nothing waits for review');
      }
    },
  });
}

function renderWaiting(waiting: readonly Waiting[], ctx: AppContext): string {
  const c = ctx.io.color;
  const blocks = waiting.map(({ memory: m, trust, previous }) => {
    const what = previous ? `changes the revision of ${previous.updated.slice(0, 10)}` : 'a new memory';
    const head = `${c.yellow(visible(formatId(m)))}  ${c.dim(`${visible(describeProvenance(trust.provenance))}; ${what}`)}`;
    const changed = previous ? `\n${c.dim('changed since the revision before it:')}\n${visible(textChanges(memoryText(previous), memoryText(m)).join('\n'))}` : '';
    return `${head}\n${visible(memoryText(m))}${changed}`;
  });
  return `${waiting.length} ${waiting.length === 1 ? 'memory waits' : 'memories wait'} for review (agents do not see ${waiting.length === 1 ? 'it' : 'them'}):\n\n${blocks.join('\n\n')}\n\naccept: git mem review --accept <id>…   reject: git mem review --reject <id>…   all: git mem review --all`;
}

/** The lines only one side has: `- old`, `+ new` (front matter and body alike). */
function textChanges(before: string, after: string): string[] {
  const old = before.split('\n');
  const now = after.split('\n');
  const kept = new Set(old.filter((l) => now.includes(l)));
  return [...old.filter((l) => !kept.has(l)).map((l) => `- ${l}`), ...now.filter((l) => !kept.has(l)).map((l) => `+ ${l}`)];
}

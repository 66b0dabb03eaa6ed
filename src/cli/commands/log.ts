import type { AppContext } from '../../context.ts';
import { formatId } from '../../core/memory.ts';
import { visible } from '../../core/terminal-text.ts';
import { json, memoryJson } from '../../render/render.ts';
import { writeDocument } from '../../io/document.ts';
import { branchLog, type LogResult } from '../../services/code-memories.ts';
import { defineCommand } from '../command.ts';

interface LogArgs {
  range?: string;
  format: 'text' | 'md' | 'json';
  json: boolean;
}

/**
 * Markdown for a pull request's description: each commit with memories, then the memories, bodies quoted.
 * Exact text: io/document.ts shows its control characters where it reaches a terminal, as the rule for documents says.
 */
export function logMarkdown(r: LogResult): string {
  const out = [`### Memories in ${r.range}`, ''];
  for (const entry of r.commits.filter((e) => e.memories.length)) {
    out.push(`#### \`${entry.commit.slice(0, 7)}\` ${entry.subject}`, '');
    for (const m of entry.memories) {
      out.push(`- **${m.namespace}**: ${m.summary}${m.status === 'active' ? '' : ` _(${m.status})_`}`);
      if (m.body.trim()) out.push(...m.body.trim().split('\n').map((l) => `  > ${l}`.trimEnd()));
    }
    out.push('');
  }
  if (out.length === 2) out.push('_No memories on these commits._', '');
  return out.join('\n').trimEnd();
}

export function logCommand(ctx: AppContext) {
  return defineCommand({
    command: 'log [range]',
    describe: "The memories on a branch's commits, in commit order: a reviewer's digest",
    builder: (y) =>
      y
        .positional('range', { type: 'string', describe: 'Commits (a..b, as git log takes them); default: the branch against its upstream, else the default branch' })
        .option('format', { type: 'string', choices: ['text', 'md', 'json'], default: 'text', describe: 'md: markdown to paste into a pull request' })
        .option('json', { type: 'boolean', default: false, describe: 'Print JSON for tools (same as --format json)' })
        .example('git mem log --format md', 'A digest of this branch for its pull request')
        .example('git mem log v1.2..v1.3', 'What was decided and learned between two releases') as never,
    parse: (argv: LogArgs) => ({ range: argv.range, format: argv.json ? ('json' as const) : argv.format }),
    run: (o) => branchLog(ctx, o.range),
    render: (r, o) => {
      if (o.format === 'json') {
        ctx.io.out(json({ range: r.range, commits: r.commits.map((e) => ({ commit: e.commit, subject: e.subject, memories: e.memories.map(memoryJson) })) }));
        return;
      }
      if (o.format === 'md') {
        writeDocument(ctx.io, logMarkdown(r), undefined);
        return;
      }
      const c = ctx.io.color;
      const withMemories = r.commits.filter((e) => e.memories.length);
      const count = withMemories.reduce((n, e) => n + e.memories.length, 0);
      const lines = [c.dim(`${r.range}: ${r.commits.length} ${r.commits.length === 1 ? 'commit' : 'commits'}, ${count} ${count === 1 ? 'memory' : 'memories'}`)];
      for (const e of withMemories) {
        lines.push(`${c.yellow(e.commit.slice(0, 7))} ${visible(e.subject)}`);
        // Status marked as list marks it.
        for (const m of e.memories) lines.push(`  ${visible(formatId(m))}  ${c.cyan(m.namespace)}  ${visible(m.summary)}${m.status === 'active' ? '' : ` ${c.magenta(`[${m.status}]`)}`}`);
      }
      ctx.io.out(lines.join('\n'));
    },
  });
}

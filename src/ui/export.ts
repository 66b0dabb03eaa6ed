/**
 * `git mem export --format html`: the views of `git mem ui` as one file, for
 * a pull request or an archive. The page's own script and style are inlined
 * and allowed by their hashes (a Content-Security-Policy in the page: no
 * other script, nothing fetched); the memories are JSON in a data block
 * (`<script type="application/json">`, never run, `<` escaped), which the
 * script reads and puts into the page as text. Read-only: no server.
 */
import { createHash } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { formatId } from '../core/memory.ts';
import { memoryJson } from '../core/memory-json.ts';
import { describeStale } from '../core/history/staleness.ts';
import { branchLog } from '../services/code-memories.ts';
import { listMemories } from '../services/memories.ts';
import { asShown } from '../services/shown.ts';
import { timelineRange } from '../services/file-views.ts';
import { PAGE, SCRIPT, STYLE } from './assets.ts';

const TIMELINE_COMMITS = 200;

/** JSON that cannot close the block it sits in, nor start markup. */
function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

export async function exportHtml(ctx: AppContext, options: { namespaces?: string[]; now?: Date }): Promise<string> {
  const memories = await listMemories(ctx, { namespaces: options.namespaces });
  const shown = new Map(asShown(ctx, memories, { staleness: true, reach: true }).map((s) => [s.memory.key, s]));
  const range = timelineRange(ctx.repo, TIMELINE_COMMITS);
  let commits: Array<{ commit: string; subject: string; memories: string[] }> = [];
  try {
    const wanted = new Set(memories.map((m) => `${m.namespace}:${m.key}`));
    commits = (await branchLog(ctx, range)).commits
      .slice(-TIMELINE_COMMITS)
      .reverse()
      .map((c) => ({ commit: c.commit, subject: c.subject, memories: c.memories.filter((m) => wanted.has(`${m.namespace}:${m.key}`)).map(formatId) }));
  } catch {
    // No commits yet: the timeline by time alone.
  }
  const data = {
    generated: (options.now ?? ctx.now()).toISOString(),
    range,
    commits,
    memories: memories.map((m) => {
      const s = shown.get(m.key);
      return { ...memoryJson(m), stale: s?.stale ? describeStale(s.stale) : null, reach: s?.reach ?? null };
    }),
  };
  const script = SCRIPT.replace(/<\/script/gi, '<\\/script');
  const style = STYLE.replace(/<\/style/gi, '<\\/style');
  const policy = ["default-src 'none'", `script-src ${sha256(script)}`, `style-src ${sha256(style)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"].join('; ');
  return PAGE.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${policy}">`)
    .replace('<link rel="stylesheet" href="/app.css">', () => `<style>${style}</style>`)
    .replace('<script src="/app.js" defer></script>\n', '')
    .replace('</body>', () => `<script type="application/json" id="git-mem-data">${inertJson(data)}</script>\n<script>${script}</script>\n</body>`);
}

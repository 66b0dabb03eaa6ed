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
import { formatId, type Memory } from '../core/memory.ts';
import { memoryJson } from '../core/memory-json.ts';
import { parseScope } from '../core/history/scope.ts';
import { branchLog } from '../services/code-memories.ts';
import type { Hydrated } from '../services/hydrate.ts';
import { listMemories } from '../services/memories.ts';
import { revisionsOfMany } from '../services/memory-revisions.ts';
import { movesOf } from '../services/history/moves.ts';
import { timelineRange } from '../services/file-views.ts';
import { placeCommits } from '../core/history/timeline.ts';
import { fileView, memoryDetails, rows } from './api.ts';
import { PAGE, SCRIPT, STYLE } from './assets.ts';

const TIMELINE_COMMITS = 200;
/**
 * The bounds of an export, so that a large repository still gives a file a
 * browser opens: the revisions, commit, changed files and scope diff of the
 * newest EXPORT_DETAILS memories (older ones show their text and facts), and
 * the file view (text and memories by line range) of the EXPORT_FILES files
 * most memories are about, each up to EXPORT_FILE_LINES lines, all files'
 * text together up to EXPORT_FILE_BYTES. `git mem export --help` says so.
 */
export const EXPORT_DETAILS = 300;
export const EXPORT_FILES = 100;
export const EXPORT_FILE_LINES = 3000;
export const EXPORT_FILE_BYTES = 8 * 1024 * 1024;

/** JSON that cannot close the block it sits in, nor start markup. */
function inertJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The files memories are about (their scope), those most memories name first. */
function filesOf(memories: readonly Memory[]): string[] {
  const count = new Map<string, number>();
  for (const m of memories) for (const path of new Set((m.paths ?? []).map((e) => parseScope(e).path))) count.set(path, (count.get(path) ?? 0) + 1);
  return [...count].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([path]) => path);
}

export async function exportHtml(ctx: AppContext, options: { namespaces?: string[]; now?: Date }): Promise<string> {
  const memories = await listMemories(ctx, { namespaces: options.namespaces });
  const facts = rows(ctx, memories, { moves: true });
  const range = timelineRange(ctx.repo, TIMELINE_COMMITS);
  let commits: Array<ReturnType<typeof placeCommits>[number] & { memories: string[] }> = [];
  try {
    const wanted = new Set(memories.map((m) => `${m.namespace}:${m.key}`));
    const log = (await branchLog(ctx, range)).commits.slice(-TIMELINE_COMMITS);
    const byCommit = new Map(log.map((c) => [c.commit, c.memories]));
    commits = placeCommits(log).map((c) => ({ ...c, memories: (byCommit.get(c.commit) ?? []).filter((m) => wanted.has(`${m.namespace}:${m.key}`)).map(formatId) }));
  } catch {
    // No commits yet: the timeline by time alone.
  }
  // Newest first (list's order): the newest memories get their history and code.
  const details: Record<string, ReturnType<typeof memoryDetails>> = {};
  const newest = memories.slice(0, EXPORT_DETAILS);
  const moves = movesOf(ctx, newest);
  const revisions = revisionsOfMany(ctx, newest, new Map([...moves].map(([k, mv]) => [k, mv.from])));
  const commitsSeen = new Map<string, Hydrated>();
  for (const m of newest) details[formatId(m)] = memoryDetails(ctx, m, revisions.get(`${m.namespace}:${m.key}`) ?? [], commitsSeen);
  const files: Record<string, { lines: string[] | null; note: string | null; memories: Array<{ id: string; ranges: Array<[number, number]>; why: string[] }> }> = {};
  let bytes = 0;
  const paths = filesOf(memories);
  for (const path of paths.slice(0, EXPORT_FILES)) {
    const v = await fileView(ctx, new URLSearchParams({ path })).catch(() => null);
    if (!v) continue;
    let { lines, note } = v;
    if (lines && lines.length > EXPORT_FILE_LINES) {
      note = `its first ${EXPORT_FILE_LINES} of ${lines.length} lines (an export's bound)`;
      lines = lines.slice(0, EXPORT_FILE_LINES);
    }
    const size = lines ? lines.reduce((n, l) => n + l.length + 1, 0) : 0;
    if (lines && bytes + size > EXPORT_FILE_BYTES) {
      lines = null;
      note = 'its text is left out: the export holds the text of files up to 8 MB in all';
    }
    bytes += lines ? size : 0;
    files[path] = { lines, note, memories: v.memories.map((r) => ({ id: r.id, ranges: r.ranges, why: r.why })) };
  }
  const data = {
    generated: (options.now ?? ctx.now()).toISOString(),
    range,
    commits,
    memories: memories.map((m, i) => ({ ...memoryJson(m), ...facts[i]! })),
    details,
    files,
    bounds: { details: EXPORT_DETAILS, files: EXPORT_FILES, fileLines: EXPORT_FILE_LINES, filesLeftOut: Math.max(0, paths.length - EXPORT_FILES) },
  };
  const script = SCRIPT.replace(/<\/script/gi, '<\\/script');
  const style = STYLE.replace(/<\/style/gi, '<\\/style');
  const policy = ["default-src 'none'", `script-src ${sha256(script)}`, `style-src ${sha256(style)}`, "img-src 'none'", "base-uri 'none'", "form-action 'none'"].join('; ');
  return PAGE.replace('<meta charset="utf-8">', `<meta charset="utf-8">\n<meta http-equiv="Content-Security-Policy" content="${policy}">`)
    .replace('<link rel="stylesheet" href="/app.css">', () => `<style>${style}</style>`)
    .replace('<script src="/app.js" defer></script>\n', '')
    .replace('</body>', () => `<script type="application/json" id="git-mem-data">${inertJson(data)}</script>\n<script>${script}</script>\n</body>`);
}

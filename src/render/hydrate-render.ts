/** Rendering hydrated memories (git mem hydrate, git mem recall --level files): text for people, a stable shape for --json. */
import type { ChalkInstance } from 'chalk';
import { memoryText } from '../core/note-format.ts';
import { visible } from '../core/terminal-text.ts';
import type { Hydrated, HydratedFile } from '../services/hydrate.ts';
import { memoryJson, type MemoryJson } from './render.ts';

export interface HydratedJson {
  memory: MemoryJson;
  level: string;
  commit: { sha: string; author: string; date: string; subject: string; parents: string[] } | null;
  notice: string | null;
  files?: {
    base: string | null;
    total: number;
    omitted: number;
    max_files: number;
    max_bytes: number;
    shown: HydratedFile[];
  };
}

export function hydratedJson(h: Hydrated): HydratedJson {
  const out: HydratedJson = { memory: memoryJson(h.memory), level: h.level, commit: h.commit, notice: h.notice ?? null };
  if (h.files) {
    const f = h.files;
    out.files = { base: f.base, total: f.total, omitted: f.omitted, max_files: f.maxFiles, max_bytes: f.maxBytes, shown: f.shown };
  }
  return out;
}

function fileHeader(f: HydratedFile, c: ChalkInstance): string {
  const facts: string[] = [f.status];
  if (f.kind !== 'file') facts.push(f.kind);
  if (f.binary) facts.push('binary');
  if (f.size !== null) facts.push(`${f.size} bytes`);
  let tail = '';
  if (f.binary) tail = '; not shown';
  else if (f.truncated && f.content !== null) tail = `; first ${Buffer.byteLength(f.content)} shown`;
  return c.bold(`=== ${f.path} (${facts.join(', ')}${tail}) ===`);
}

export function hydratedText(h: Hydrated, c: ChalkInstance): string {
  // Everything here comes from teammates (the memory) or the repository (author, subject, files): made safe for a terminal.
  const parts: string[] = [visible(memoryText(h.memory))];
  if (h.commit) {
    const k = h.commit;
    const merge = k.parents.length > 1 ? `Merge: ${k.parents.map((p) => p.slice(0, 7)).join(' ')}\n` : '';
    parts.push(`${c.yellow(`commit ${k.sha}`)}\n${merge}Author: ${visible(k.author)}\nDate:   ${k.date}\n\n    ${visible(k.subject)}`);
  } else if (h.notice) {
    parts.push(c.dim(`(${h.notice})`));
  }
  if (h.files) {
    const f = h.files;
    const against = f.base ? ` against ${f.base.slice(0, 7)}` : '';
    const count = f.total === 0 ? 'no files changed' : `${f.total} file${f.total === 1 ? '' : 's'} changed${against}`;
    const more = f.omitted ? `; ${f.omitted} more not shown (--max-files ${f.maxFiles})` : '';
    const lines = [c.dim(`${count}${more}`)];
    for (const file of f.shown) {
      lines.push(fileHeader(file, c));
      if (file.content !== null) {
        lines.push(visible(file.content.replace(/\n$/, '')));
        if (file.truncated) lines.push(c.dim(`[truncated at ${f.maxBytes} bytes (--max-bytes)]`));
      }
    }
    parts.push(lines.join('\n'));
  }
  return parts.join('\n\n');
}

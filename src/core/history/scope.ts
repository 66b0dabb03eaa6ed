/**
 * A memory's scope: the files (and line ranges) it is about, recorded in its
 * `paths` as `src/a.py` or `src/a.py:10-40`. Plain strings in a YAML list, so
 * readers that know only file names still read them (as a file they lack).
 * Pure: the callers read the repository's files and the commit's.
 */

export interface ScopeEntry {
  path: string;
  /** 1-based, inclusive; absent for the whole file. */
  start?: number;
  end?: number;
}

/** At most this many files make a commit small enough to be what its memories are about. */
export const SMALL_COMMIT = 3;

const RANGE = /^(.+?):(\d+)(?:-(\d+))?$/;

/** `src/a.py:10-40` → the file and its lines; anything else is a file name as it is. */
export function parseScope(entry: string): ScopeEntry {
  const m = RANGE.exec(entry);
  if (!m) return { path: entry };
  const start = Number(m[2]);
  const end = m[3] === undefined ? start : Number(m[3]);
  if (start < 1 || end < start || !Number.isSafeInteger(end)) return { path: entry };
  return { path: m[1]!, start, end };
}

export function formatScope(e: ScopeEntry): string {
  if (e.start === undefined) return e.path;
  return e.end === undefined || e.end === e.start ? `${e.path}:${e.start}` : `${e.path}:${e.start}-${e.end}`;
}

/** The files of a scope, each once, in order. */
export function scopeFiles(paths: readonly string[]): string[] {
  return [...new Set(paths.map((p) => parseScope(p).path))];
}

/**
 * `--paths a.py,b.py:10-40` → the scope entries; `bad`: the first entry that is
 * not a path in the repository (absolute, with `..`, or a range that ends before it starts).
 * An empty string is an explicit empty scope: the memory is about nothing in particular.
 */
export function parsePathsOption(text: string): { paths: string[]; bad?: string } {
  return parsePathEntries(text.split(','));
}

/** parsePathsOption for entries already apart (import's and MCP's lists): a comma in a file's name stays in it. */
export function parsePathEntries(entries: readonly string[]): { paths: string[]; bad?: string } {
  const paths: string[] = [];
  for (const raw of entries) {
    const entry = raw.trim().replace(/^\.\//, '');
    if (!entry) continue;
    const m = RANGE.exec(entry);
    if (entry.startsWith('/') || entry.split('/').includes('..') || (m && (Number(m[2]) < 1 || (m[3] !== undefined && Number(m[3]) < Number(m[2]))))) return { paths, bad: raw.trim() };
    paths.push(formatScope(parseScope(entry)));
  }
  return { paths: [...new Set(paths)] };
}

const WORD_CHAR = /[A-Za-z0-9_.\/-]/;

/** True when `needle` occurs in `text` as a whole token (not inside a longer path or word). */
function namesToken(text: string, needle: string): boolean {
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) {
    const before = text[i - 1];
    let after = text[i + needle.length];
    // A sentence's full stop after a name still names it: "see cache.py."
    if (after === '.' && !WORD_CHAR.test(text[i + needle.length + 1] ?? ' ')) after = ' ';
    if ((before === undefined || !WORD_CHAR.test(before)) && (after === undefined || !WORD_CHAR.test(after))) return true;
  }
  return false;
}

/**
 * The files a text names: by their path (`src/cache.py`), or by a file name
 * with an extension (`cache.py`) that only a few of `files` carry.
 */
export function namedFiles(text: string, files: readonly string[]): string[] {
  if (!text) return [];
  const out: string[] = [];
  const byName = new Map<string, string[]>();
  for (const f of files) {
    if (f.includes('/') && namesToken(text, f)) {
      out.push(f);
      continue;
    }
    const name = f.slice(f.lastIndexOf('/') + 1);
    // A name without an extension ("Makefile" aside) is too often a plain word.
    if (!/\.[A-Za-z0-9]+$/.test(name) || (name.startsWith('.') && !name.slice(1).includes('.'))) continue;
    if (!text.includes(name)) continue;
    byName.set(name, [...(byName.get(name) ?? []), f]);
  }
  for (const [name, holders] of byName) {
    // A name many files share says nothing about which one.
    if (holders.length <= SMALL_COMMIT && namesToken(text, name)) out.push(...holders.filter((h) => !out.includes(h)));
  }
  return out;
}

/** What a memory's scope is chosen from when none was given (`--paths`, import, MCP: services/capture.ts scopeAt keeps those as they are). */
export interface ScopeSources {
  /** The files the session was working on when the memory was said (hooks). */
  working?: readonly string[];
  /** The memory's summary and body. */
  text: string;
  /** The files the commit changed (all of them, or more than SMALL_COMMIT when it is large). */
  commitFiles: readonly string[];
  /** Files the repository holds, to find those the text names (the commit's are searched too). */
  repoFiles?: readonly string[];
}

/**
 * What a memory is about, in order: the files the session was working on
 * and those its text names; the commit's files when the commit is small.
 * A large commit's files say nothing about one memory.
 */
export function chooseScope(s: ScopeSources, max: number): string[] {
  const named = namedFiles(s.text, [...new Set([...s.commitFiles, ...(s.repoFiles ?? [])])]);
  const worked = new Set(scopeFiles(s.working ?? []));
  const found = [...new Set([...(s.working ?? []), ...named.filter((f) => !worked.has(f))])];
  return found.length ? found.slice(0, max) : commitScope(s.commitFiles);
}

/** The files an old memory without recorded paths is judged by: its commit's, when the commit is small. */
export function commitScope(commitFiles: readonly string[]): string[] {
  return commitFiles.length <= SMALL_COMMIT ? [...commitFiles] : [];
}

/**
 * The scope entries of the files a session worked on, relative to the top of
 * the work tree (files outside it left out): when some were edited, only
 * those, with the lines edited; else the files read.
 */
export function workingScope(top: string, worked: ReadonlyArray<{ file: string; lines?: string; edited?: boolean }>, relative: (from: string, to: string) => string): string[] {
  const edited = worked.filter((w) => w.edited);
  const out: string[] = [];
  for (const w of edited.length ? edited : worked) {
    const rel = relative(top, w.file).split('\\').join('/');
    if (!rel || rel.startsWith('../') || rel === '..' || rel.startsWith('/')) continue;
    const ranges = w.lines?.split(',').filter((r) => /^\d+(-\d+)?$/.test(r)) ?? [];
    out.push(...(ranges.length ? ranges.map((r) => `${rel}:${r}`) : [rel]));
  }
  return [...new Set(out)];
}

/**
 * Files as a view shows them beside their memories (git mem ui): a file's
 * text at a commit, the diff a memory's commit made to the files of its
 * scope, and the range of commits a timeline walks. The git reads are here,
 * so that surfaces only ask.
 */
import type { Memory } from '../core/memory.ts';
import { type DiffHunk, lineDiff } from '../core/history/hunks.ts';
import { parseScope } from '../core/history/scope.ts';
import { blobsAt, defaultRange, resolveCommit } from '../stores/git/history.ts';
import { readObjects } from '../stores/git/objects.ts';
import type { Repo } from '../stores/git/repo.ts';

/** Past this, a file's text is not shown (its memories still are). */
const MAX_FILE_BYTES = 1024 * 1024;

type Text = { lines: string[]; binary: boolean } | null;

function textOf(buf: Buffer | undefined): Text {
  if (!buf || buf.length > MAX_FILE_BYTES) return null;
  if (buf.includes(0)) return { lines: [], binary: true };
  const lines = buf.toString('utf8').split('\n');
  if (lines.at(-1) === '') lines.pop();
  return { lines, binary: false };
}

/** The lines of `path` at `rev`, or why they are not shown. */
export function fileAt(repo: Repo, rev: string, path: string): { lines: string[] | null; note: string | null } {
  const [oid] = blobsAt(repo, [{ rev, path }]);
  if (!oid) return { lines: null, note: `${path} is not in ${rev}` };
  const buf = readObjects(repo, [oid]).get(oid)?.content;
  if (!buf) return { lines: null, note: 'not readable' };
  const text = textOf(buf);
  if (!text) return { lines: null, note: 'too large to show' };
  return text.binary ? { lines: null, note: 'binary file' } : { lines: text.lines, note: null };
}

export interface ScopeDiff {
  path: string;
  ranges: Array<[number, number]>;
  hunks: DiffHunk[] | null;
  note: string | null;
}

/** The changes the memory's commit made to the files of its scope (or, with no scope, to the first few it changed), from `base`. */
export function scopeDiff(repo: Repo, m: Memory, base: string | null, changed: ReadonlyArray<{ path: string; blob: string | null; kind: string }>): ScopeDiff[] {
  const scope = (m.paths ?? []).map(parseScope);
  const targets = (scope.length ? changed.filter((f) => scope.some((s) => s.path === f.path)) : changed.slice(0, 5)).filter((f) => f.kind === 'file');
  if (!targets.length) return [];
  const before = base ? blobsAt(repo, targets.map((f) => ({ rev: base, path: f.path }))) : targets.map(() => null);
  const objects = readObjects(repo, [...targets.map((f) => f.blob), ...before].filter((o): o is string => o !== null));
  const text = (oid: string | null): Text => (oid ? textOf(objects.get(oid)?.content) : { lines: [], binary: false });
  return targets.map((f, i) => {
    const a = text(before[i] ?? null);
    const b = text(f.blob);
    const ranges = scope.filter((s) => s.path === f.path && s.start !== undefined).map((s) => [s.start!, s.end ?? s.start!] as [number, number]);
    if (!a || !b) return { path: f.path, ranges, hunks: null, note: 'too large to show' };
    if (a.binary || b.binary) return { path: f.path, ranges, hunks: null, note: 'binary file' };
    const hunks = lineDiff(a.lines, b.lines, 3, ranges);
    return { path: f.path, ranges, hunks, note: hunks ? null : 'too large to compare here' };
  });
}

/** The commits a timeline walks: the branch's own, else (on the default branch) the newest `count` of its history. */
export function timelineRange(repo: Repo, count: number): string {
  return defaultRange(repo) ?? (resolveCommit(repo, `HEAD~${count}`) ? `HEAD~${count}..HEAD` : 'HEAD');
}

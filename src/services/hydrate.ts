/**
 * Progressive hydration: a memory at FULL level (all its metadata plus the
 * commit it is attached to) or FILES level (plus the files that commit
 * changed, as they were at that commit). Everything comes from git objects:
 * paths from `git diff-tree`, contents through one `git cat-file --batch`;
 * the working tree is never read.
 */
import { UsageError } from '../core/errors.ts';
import { parseCommit } from '../core/commit.ts';
import { formatId, type Memory } from '../core/memory.ts';
import type { Deps } from './deps.ts';
import type { MemoriesDeps } from './memories.ts';
import { hashObject, readBatch } from '../stores/git/objects.ts';
import type { Repo } from '../stores/git/repo.ts';
import { findMemory } from './memories.ts';
import { countUses, type UsageDeps } from './usage.ts';

/** What this file's services use. */
export type HydrateDeps = Pick<Deps, 'repo'> & MemoriesDeps & UsageDeps;

export const HYDRATE_LEVELS = ['full', 'files'] as const;
export type HydrateLevel = (typeof HYDRATE_LEVELS)[number];
export const DEFAULT_MAX_FILES = 20;
export const DEFAULT_MAX_BYTES = 100 * 1024;
/** Like git, a file with a NUL byte in its first 8000 bytes is binary. */
const BINARY_SNIFF = 8000;

export interface HydrateOptions {
  level?: HydrateLevel;
  /** Files whose contents are shown, at most. */
  maxFiles?: number;
  /** Bytes of each file shown, at most. */
  maxBytes?: number;
}

export interface CommitInfo {
  sha: string;
  /** `Name <email>`. */
  author: string;
  /** Author date, ISO-8601 in the author's offset. */
  date: string;
  subject: string;
  parents: string[];
}

export type FileStatus = 'added' | 'modified' | 'deleted' | 'type-changed' | 'changed';
export type FileKind = 'file' | 'symlink' | 'submodule';

export interface HydratedFile {
  path: string;
  status: FileStatus;
  kind: FileKind;
  /** The blob at the commit; null when the commit deleted the file. */
  blob: string | null;
  /** Bytes of the whole file; null when not read. */
  size: number | null;
  binary: boolean;
  /** Content shown was cut at maxBytes. */
  truncated: boolean;
  /** Text at the commit (perhaps truncated); null for deleted, binary and submodule entries. */
  content: string | null;
}

export interface FilesInfo {
  /** What the changes are against: the first parent for a merge, the parent otherwise, null for a root commit. */
  base: string | null;
  /** Files the commit changed, in all. */
  total: number;
  /** The first `maxFiles` of them. */
  shown: HydratedFile[];
  /** How many changed files beyond `maxFiles` were left out (not even named: a commit can touch thousands). */
  omitted: number;
  maxFiles: number;
  maxBytes: number;
}

export interface Hydrated {
  memory: Memory;
  level: HydrateLevel;
  /** The commit the memory is attached to; null when it is attached to something else or the commit is absent. */
  commit: CommitInfo | null;
  /** Why there is no commit, when there is none. */
  notice?: string;
  files?: FilesInfo;
}

const STATUS: Record<string, FileStatus> = { A: 'added', M: 'modified', D: 'deleted', T: 'type-changed' };

function kindOf(mode: string): FileKind {
  if (mode === '160000') return 'submodule';
  if (mode === '120000') return 'symlink';
  return 'file';
}

function checkLimit(value: number | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new UsageError(`--${flag} must be a whole number`);
  return value;
}

/** Cuts at most `max` bytes without splitting a UTF-8 sequence. */
export function utf8Prefix(buf: Buffer, max: number): Buffer {
  if (buf.length <= max) return buf;
  let cut = max;
  while (cut > 0 && (buf[cut]! & 0xc0) === 0x80) cut--;
  return buf.subarray(0, cut);
}

/** Files changed by `commit`, from `git diff-tree -z` raw output: against the first parent, or everything for a root commit. */
function changedFiles(repo: Repo, commit: string, parents: readonly string[]): Array<{ path: string; status: FileStatus; mode: string; blob: string | null }> {
  const args = parents.length > 1 ? ['diff-tree', '-r', '-z', '--no-renames', parents[0]!, commit] : ['diff-tree', '--no-commit-id', '-r', '--root', '-z', '--no-renames', commit];
  const fields = repo.git.run(args).split('\0');
  const zero = /^0+$/;
  const out: Array<{ path: string; status: FileStatus; mode: string; blob: string | null }> = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const meta = fields[i]!.replace(/^:/, '').split(' ');
    const [, newMode = '', , newBlob = '', letter = ''] = meta;
    const status = STATUS[letter[0] ?? ''] ?? 'changed';
    out.push({ path: fields[i + 1]!, status, mode: status === 'deleted' ? meta[0]! : newMode, blob: status === 'deleted' || zero.test(newBlob) ? null : newBlob });
  }
  return out;
}

function readFiles(repo: Repo, changes: ReturnType<typeof changedFiles>, maxBytes: number): HydratedFile[] {
  const wanted = changes.filter((c) => c.blob && kindOf(c.mode) !== 'submodule').map((c) => c.blob!);
  const objects = new Map<string, Buffer>();
  // One `git cat-file --batch` for every file shown.
  for (const obj of readBatch(repo, [...new Set(wanted)])) if (obj?.type === 'blob') objects.set(obj.oid, obj.content);
  return changes.map((c) => {
    const kind = kindOf(c.mode);
    const file: HydratedFile = { path: c.path, status: c.status, kind, blob: c.blob, size: null, binary: false, truncated: false, content: null };
    const data = c.blob ? objects.get(c.blob) : undefined;
    if (!data) return file;
    file.size = data.length;
    if (data.subarray(0, BINARY_SNIFF).includes(0)) {
      file.binary = true;
      return file;
    }
    const shown = utf8Prefix(data, maxBytes);
    file.truncated = shown.length < data.length;
    file.content = shown.toString('utf8');
    return file;
  });
}

export async function hydrate(ctx: HydrateDeps, idText: string, options: HydrateOptions = {}): Promise<Hydrated> {
  const level = options.level ?? 'full';
  if (!HYDRATE_LEVELS.includes(level)) throw new UsageError(`unknown level '${level}'; valid: ${HYDRATE_LEVELS.join(', ')}`);
  const maxFiles = checkLimit(options.maxFiles, DEFAULT_MAX_FILES, 'max-files');
  const maxBytes = checkLimit(options.maxBytes, DEFAULT_MAX_BYTES, 'max-bytes');
  const memory = await findMemory(ctx, idText);
  countUses(ctx, [memory]);
  return hydrateMemory(ctx, memory, { level, maxFiles, maxBytes });
}

/** Hydrates a memory already in hand (recall --level files). */
export function hydrateMemory(ctx: HydrateDeps, memory: Memory, options: Required<HydrateOptions>): Hydrated {
  const { level, maxFiles, maxBytes } = options;
  const repo = ctx.repo;
  const short = memory.object.slice(0, 7);

  const [obj] = readBatch(repo, [memory.object]);
  if (!obj) return { memory, level, commit: null, notice: `commit ${short} is not in this repository (perhaps not fetched, or rewritten and pruned; git mem reanchor, or move it: git mem reanchor ${formatId(memory)} --to <commit>)` };
  if (obj.type !== 'commit') {
    const empty = obj.type === 'tree' && obj.oid === hashObject(repo.objectFormat, 'tree', Buffer.alloc(0));
    const notice = empty
      ? 'no commit: this memory is attached to the empty tree (it was captured before the repository had any commits)'
      : `no commit: this memory is attached to a ${obj.type} (${short}), not a commit`;
    return { memory, level, commit: null, notice };
  }
  const parsed = parseCommit(obj.content.toString('utf8'));
  const commit: CommitInfo = {
    sha: obj.oid,
    author: parsed.author ? `${parsed.author.name} <${parsed.author.email}>` : '',
    date: parsed.author?.date ?? '',
    subject: parsed.subject,
    parents: parsed.parents,
  };
  if (level === 'full') return { memory, level, commit };

  const changes = changedFiles(repo, obj.oid, parsed.parents);
  const shown = changes.slice(0, maxFiles);
  return {
    memory,
    level,
    commit,
    files: {
      base: parsed.parents[0] ?? null,
      total: changes.length,
      shown: readFiles(repo, shown, maxBytes),
      omitted: Math.max(0, changes.length - maxFiles),
      maxFiles,
      maxBytes,
    },
  };
}

/**
 * The one owner of `<git common dir>/mem`, the folder of git-mem's caches:
 * the names of the files in it, where it is, and whether it can be written.
 *
 * Everything in it is derived from the notes (the index, the term index,
 * vectors, anchors, staleness, usage counts) or lives for a session (hooks'
 * state), so a folder that cannot be used (not writable, a dangling symlink,
 * a symlink loop, a file) loses nothing. What must not happen is a failed
 * read, or a write claimed and not made. When the folder cannot be used,
 * the caches go to this user's own folder for the repository under the
 * temporary directory (`$TMPDIR/git-mem-<uid>/<digest of the path>`), and
 * every command that uses them says so in one line, with the fix; doctor
 * reports it. If that folder cannot be had safely either, writers are told
 * `writable() === false` and work in memory (the path a process that cannot
 * take the index lock already takes).
 *
 * Why a temporary folder and not memory alone: building the caches from the
 * notes in memory costs every command and every hook a full read of them
 * (2 to 4 s at 10,000 memories, measured), and without the hooks' session
 * state a hook registered twice injects twice. The temporary folder costs one
 * build, then every command is as fast as in a healthy repository. It is used
 * only when it is a real folder of this user that no one else can write:
 * in a shared /tmp another user could otherwise prepare one holding
 * memories for the hooks to inject.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The files and folders kept in it, by what they are. */
const MEM_FILES = {
  /** The SQLite index of revisions and tombstones (stores/index/revisions/revision-index.ts). */
  index: 'index.sqlite',
  /** The term index lexical search reads (stores/index/terms/reader.ts); `terms.add` is its overlay. */
  terms: 'terms.idx',
  /** Embeddings, int8 (stores/index/vectors/vector-store.ts); version 1 was vectors.sqlite, removed at the first write. */
  vectors: 'vectors.bin',
  /** For which notes tips every memory had a stored vector: recall then skips the SQLite index (services/search/semantic.ts). */
  vectorsCovered: 'vectors-covered.json',
  /** Placements of commits that hold copies of a memory (services/history/anchors.ts); version 1 was anchors.json, removed at the first write. */
  anchors: 'anchors.tab',
  /** The last reanchor run that moved nothing, under a digest of the refs and notes (services/history/reanchor-memo.ts). */
  reanchor: 'reanchor.json',
  /** Commits holding memories that this clone has held: once gone, pruned here, not never fetched (stores/cache/held-log.ts). */
  held: 'held.log',
  /** The newest commits where memories are measured, with their files (services/history/commit-window.ts). */
  window: 'window.json',
  /** Which memories' files changed, per HEAD (services/history/staleness.ts). */
  staleness: 'staleness.json',
  /** Which notes commit brought each revision, and who made it (services/trust/provenance.ts). */
  provenance: 'provenance',
  /** What each memory's commit changed, and when (services/history/file-history.ts); version 1 was commit-files.json, removed at the first write. */
  commitFiles: 'commit-files.tab',
  /** How often each memory was shown (stores/cache/usage-log.ts). */
  usage: 'usage.log',
  /** The notes commits doctor has scanned for secrets, and what it found (services/note-secrets.ts). */
  secrets: 'secrets.json',
  /** Hooks' per-session state (stores/cache/sessions.ts). */
  sessions: 'sessions',
} as const;

export type MemFile = keyof typeof MEM_FILES;

/**
 * Files that git-mem's git hooks write with shell builtins. A hook knows no
 * fallback, so these are always in the folder itself (`dir`), never moved.
 */
export const HOOK_FILES = {
  /** The pid of the background reanchor the reference-transaction hook started, until that run begins (stores/cache/reanchor-due.ts). */
  reanchorDue: 'reanchor-due',
} as const;

export type HookFile = keyof typeof HOOK_FILES;

type MemDirProblemKind = 'dangling-symlink' | 'symlink-loop' | 'not-a-directory' | 'read-only' | 'not-writable' | 'cannot-create' | 'unusable';

export interface MemDirProblem {
  kind: MemDirProblemKind;
  /** One line: what is wrong, naming the folder. */
  message: string;
  /** What fixes it: a command where there is one. Once fixed, git-mem makes the folder again if need be and rebuilds the cache from the notes. */
  fix: string;
}

const code = (err: unknown): string => (err as NodeJS.ErrnoException | null)?.code ?? String(err);

/** A path as one shell word, quoted only when it needs it. */
function shellPath(p: string): string {
  return /^[\w@%+=:,./-]+$/.test(p) ? p : `'${p.replace(/'/g, "'\\''")}'`;
}

/** The command that lets this user write in `dir` (and, with `recursive`, in everything under it). */
function permissionFix(dir: string, recursive: boolean): string {
  let owner: number | undefined;
  try {
    owner = fs.statSync(dir).uid;
  } catch {
    // Gone meanwhile: the chmod below is the likelier fix anyway.
  }
  const uid = process.getuid?.();
  const r = recursive ? ' -R' : '';
  // Typically left by a `sudo git mem ...`: the folder belongs to root.
  return owner !== undefined && uid !== undefined && owner !== uid ? `sudo chown${r} "$(id -u)" ${shellPath(dir)}` : `chmod${r} u+w ${shellPath(dir)}`;
}

/** The problem an errno from a write in the folder means (EACCES, EPERM, EROFS). */
function unwritable(dir: string, errno: string): MemDirProblem {
  if (errno === 'EROFS') return { kind: 'read-only', message: `${dir} is on a read-only file system`, fix: 'remount its file system read-write' };
  return { kind: 'not-writable', message: `${dir} is not writable (${errno})`, fix: permissionFix(dir, true) };
}

/** The problem an errno from making the folder means. */
function uncreatable(dir: string, errno: string): MemDirProblem {
  const parent = path.dirname(dir);
  if (errno === 'EROFS') return { kind: 'cannot-create', message: `${dir} cannot be created: ${parent} is on a read-only file system`, fix: 'remount its file system read-write' };
  return { kind: 'cannot-create', message: `${dir} cannot be created (${errno})`, fix: `${permissionFix(parent, false)}, or mkdir ${shellPath(dir)} as the owner of ${shellPath(parent)}` };
}

/**
 * What keeps `dir` from being used as the cache folder, or null when it is a
 * writable folder, or missing where it can be made. Nothing is made or
 * changed. A healthy folder costs a stat and an access().
 */
export function inspectMemDir(dir: string): MemDirProblem | null {
  const q = shellPath(dir);
  let st: fs.Stats;
  try {
    st = fs.statSync(dir);
  } catch (err) {
    const errno = code(err);
    if (errno === 'ELOOP') return { kind: 'symlink-loop', message: `${dir} is a symlink loop`, fix: `rm ${q}` };
    if (errno !== 'ENOENT') return { kind: 'unusable', message: `${dir} cannot be read (${errno})`, fix: `ls -ld ${shellPath(path.dirname(dir))} ${q}, and make both readable and writable by you` };
    const link = fs.lstatSync(dir, { throwIfNoEntry: false });
    if (link?.isSymbolicLink()) {
      let target = '?';
      try {
        target = fs.readlinkSync(dir);
      } catch {
        // Replaced meanwhile: the message still holds.
      }
      const resolved = path.resolve(path.dirname(dir), target);
      return { kind: 'dangling-symlink', message: `${dir} is a symlink to ${target}, which does not exist`, fix: `mkdir -p ${shellPath(resolved)}, or rm ${q}` };
    }
    // Missing: whether it can be made is read from the folder above.
    try {
      fs.accessSync(path.dirname(dir), fs.constants.W_OK | fs.constants.X_OK);
      return null;
    } catch (err2) {
      return uncreatable(dir, code(err2));
    }
  }
  if (!st.isDirectory()) {
    const link = fs.lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink();
    const what = link ? 'a symlink to a file' : st.isFile() ? 'a file' : 'a special file';
    return { kind: 'not-a-directory', message: `${dir} is ${what}, not a directory`, fix: `mv ${q} ${shellPath(`${dir}.bak`)}` };
  }
  try {
    fs.accessSync(dir, fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    return unwritable(dir, code(err));
  }
  return null;
}

/** This user's folder for the cache of `dir` under `tmp` (not made), or null where users have no uid. */
export function fallbackDir(dir: string, tmp = os.tmpdir()): string | null {
  const uid = process.getuid?.();
  if (uid === undefined) return null;
  return path.join(tmp, `git-mem-${uid}`, createHash('sha1').update(dir).digest('hex').slice(0, 16));
}

/** Whether the folder holding this user's fallbacks may be trusted: a real folder of this user, closed to others (else someone else could have put a cache there for us to read). */
function trusted(mine: string): boolean {
  const st = fs.lstatSync(mine, { throwIfNoEntry: false });
  return Boolean(st?.isDirectory() && st.uid === process.getuid?.() && (st.mode & 0o077) === 0);
}

/** The fallback folder for `dir` when one could be used (made or not yet), else null: for doctor, which makes nothing. */
export function usableFallback(dir: string, tmp = os.tmpdir()): string | null {
  const target = fallbackDir(dir, tmp);
  if (!target) return null;
  const mine = path.dirname(target);
  if (!fs.existsSync(mine)) return inspectMemDir(mine) ? null : target;
  return trusted(mine) && !inspectMemDir(target) ? target : null;
}

/** Makes the fallback folder; null when it cannot be had, or the folder above it is not this user's alone. */
function makeFallback(dir: string, tmp: string): string | null {
  const target = fallbackDir(dir, tmp);
  if (!target) return null;
  const mine = path.dirname(target);
  try {
    fs.mkdirSync(mine, { mode: 0o700 });
  } catch (err) {
    if (code(err) !== 'EEXIST') return null;
  }
  if (!trusted(mine)) return null;
  try {
    fs.mkdirSync(target, { recursive: true });
  } catch {
    return null;
  }
  return inspectMemDir(target) ? null : target;
}

interface Place {
  /** Where the caches are read and written. */
  root: string;
  /** What is wrong with `dir`, when it is not the root. */
  problem: MemDirProblem | null;
  writable: boolean;
}

export class MemDir {
  /**
   * Told once, when the folder is first used, that it cannot be, and where
   * the caches go instead (null: nowhere, they are kept in memory). The
   * composition root prints it.
   */
  onProblem?: (problem: MemDirProblem, fallback: string | null) => void;
  private place?: Place;
  private made = false;
  private told = false;

  /** `dir`: the folder itself, `<git common dir>/mem`; `tmp`: where a fallback goes (null: none). */
  constructor(
    readonly dir: string,
    private readonly tmp: string | null = os.tmpdir(),
  ) {}

  static inCommonDir(commonDir: string): MemDir {
    return new MemDir(path.join(commonDir, 'mem'));
  }

  /**
   * Where the caches are: `dir`, or the fallback when it cannot be used.
   * Looked at once per instance (a command, an MCP request): a stat and an
   * access() in a healthy repository; nothing is made here.
   */
  get root(): string {
    return this.used().root;
  }

  private where(): Place {
    if (!this.place) {
      const problem = inspectMemDir(this.dir);
      if (!problem) this.place = { root: this.dir, problem: null, writable: true };
      else {
        const fallback = this.tmp === null ? null : makeFallback(this.dir, this.tmp);
        this.place = { root: fallback ?? this.dir, problem, writable: fallback !== null };
      }
    }
    return this.place;
  }

  /** The place, as a reader or writer of the caches uses it: the first use of a fallback (or of none) is told. */
  private used(): Place {
    const place = this.where();
    if (place.problem && !this.told) {
      this.told = true;
      this.onProblem?.(place.problem, place.writable ? place.root : null);
    }
    return place;
  }

  file(name: MemFile): string {
    return path.join(this.root, MEM_FILES[name]);
  }

  /** A file a git hook writes: in `dir` itself, wherever the caches are (HOOK_FILES). */
  hookFile(name: HookFile): string {
    return path.join(this.dir, HOOK_FILES[name]);
  }

  /**
   * True the first time `what` is asked in this repository (a marker file
   * `said-<what>` records it): for what is said once, not on every command.
   */
  firstTime(what: string): boolean {
    const marker = path.join(this.root, `said-${what}`);
    if (fs.existsSync(marker)) return false;
    try {
      if (this.writable()) fs.writeFileSync(marker, new Date().toISOString());
    } catch {
      // Said again next time: no harm.
    }
    return true;
  }

  /** What keeps `dir` itself from being used, or null (the caches may still be in a fallback: see root). Tells no one. */
  problem(): MemDirProblem | null {
    return this.where().problem;
  }

  /** Whether a cache may be written now (the folder is made when missing); false: keep it in memory. */
  writable(): boolean {
    const place = this.used();
    if (!place.writable || this.made) return place.writable;
    try {
      fs.mkdirSync(place.root, { recursive: true });
      this.made = true;
    } catch (err) {
      // Made impossible since it was looked at (a race with another process, or a user): in memory from now on.
      const problem = uncreatable(place.root, code(err));
      this.place = { root: place.root, problem, writable: false };
      this.told = false;
      this.used();
    }
    return this.place!.writable;
  }
}

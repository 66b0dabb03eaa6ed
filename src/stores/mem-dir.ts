/**
 * The one owner of `<git common dir>/mem`, the folder of git-mem's caches:
 * the names of the files in it, and whether it can be written.
 *
 * Everything in it is derived from the notes (the index, the term index,
 * vectors, anchors, staleness, usage counts) or lives for a session (hooks'
 * state), so a folder that cannot be used loses nothing: commands read the
 * notes and build what they need in memory, and skip the writes. What it
 * must never do is fail a read, or claim a write it did not make. So every
 * writer asks `writable()` first; the first refusal is reported once per
 * process (`onProblem`: one line on stderr), and doctor shows the fix.
 *
 * Why memory and not a temporary folder elsewhere: the fallback already
 * exists (a process that cannot take the index lock keeps its update in
 * memory), it costs one read of the notes per command (~60 ms at 2,000
 * memories, ~1 s at 10,000), and a shared /tmp is a place another user could
 * prepare a folder for us holding memories that hooks would then inject.
 * A broken folder is a state to fix, not to live in: each command says how.
 */
import fs from 'node:fs';
import path from 'node:path';

/** The files and folders kept in it, by what they are. */
export const MEM_FILES = {
  /** The SQLite index of revisions and tombstones (stores/index/memory-index.ts). */
  index: 'index.sqlite',
  /** The term index lexical search reads (stores/index/term-index.ts); `terms.add` is its overlay. */
  terms: 'terms.idx',
  /** Embeddings (stores/embed/vector-store.ts). */
  vectors: 'vectors.sqlite',
  /** Placements of commits that hold copies of a memory (services/anchors.ts). */
  anchors: 'anchors.json',
  /** Which memories' files changed, per HEAD (services/staleness.ts). */
  staleness: 'staleness.json',
  /** How often each memory was shown (stores/index/usage-log.ts). */
  usage: 'usage.log',
  /** Hooks' per-session state (services/session-state.ts). */
  sessions: 'sessions',
} as const;

export type MemFile = keyof typeof MEM_FILES;

export type MemDirProblemKind = 'dangling-symlink' | 'symlink-loop' | 'not-a-directory' | 'read-only' | 'not-writable' | 'cannot-create' | 'unusable';

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
 * writable folder (or missing: with `create`, it is made now, else it is made
 * by the first write). A healthy folder costs a stat and an access().
 */
export function inspectMemDir(dir: string, create: boolean): MemDirProblem | null {
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
    if (!create) {
      // Nothing is made here (doctor): whether it could be is read from the folder above.
      try {
        fs.accessSync(path.dirname(dir), fs.constants.W_OK | fs.constants.X_OK);
        return null;
      } catch (err2) {
        return uncreatable(dir, code(err2));
      }
    }
    try {
      fs.mkdirSync(dir, { recursive: true });
      return null;
    } catch (err2) {
      // Made by another process in between: look again.
      return code(err2) === 'EEXIST' ? inspectMemDir(dir, false) : uncreatable(dir, code(err2));
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

export class MemDir {
  /** Told the first problem a writer meets (once per process): the composition root prints it. */
  onProblem?: (problem: MemDirProblem) => void;
  private checked?: MemDirProblem | null;
  private told = false;

  /** `dir`: the folder itself, `<git common dir>/mem`. */
  constructor(readonly dir: string) {}

  static inCommonDir(commonDir: string): MemDir {
    return new MemDir(path.join(commonDir, 'mem'));
  }

  file(name: MemFile): string {
    return path.join(this.dir, MEM_FILES[name]);
  }

  /** A marker file: something said once in this repository (`said-<what>`). */
  marker(what: string): string {
    return path.join(this.dir, `said-${what}`);
  }

  /** What keeps the folder from being written, or null; made when missing. Looked at once per instance (a command, an MCP request). */
  problem(): MemDirProblem | null {
    if (this.checked === undefined) this.checked = inspectMemDir(this.dir, true);
    return this.checked;
  }

  /** Whether a cache may be written now; the first refusal is reported through onProblem. */
  writable(): boolean {
    const problem = this.problem();
    if (problem && !this.told) {
      this.told = true;
      this.onProblem?.(problem);
    }
    return problem === null;
  }
}

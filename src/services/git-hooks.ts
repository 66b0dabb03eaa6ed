/**
 * git hooks that keep memories on their commits through rewrites git does not
 * report to notes.rewriteRef's copy (squash merges, a pull that brings a
 * forge's squash commit): post-rewrite and post-merge run `git mem reanchor`
 * in the background, and reference-transaction runs it when a branch is
 * deleted (`git branch -D`, `git update-ref -d`, `git fetch --prune`),
 * before gc takes the commits it left, and after a `git reset`. pre-push refuses a push of memories that hold a secret
 * (`git mem verify-push`); a push that sends no refs/notes/mem/* ref costs it
 * only the shell's start, git-mem is not run. A hook the user already has is kept, moved aside to
 * `<hook>.chained`, and run first with the same arguments and input; its exit
 * status is the hook's. core.hooksPath is honoured (git rev-parse --git-path).
 */
import fs from 'node:fs';
import path from 'node:path';
import { GitMemError } from '../core/errors.ts';
import type { Repo } from '../stores/git/repo.ts';
import { gitPath } from '../stores/git/repo.ts';
import { HOOK_FILES } from '../stores/cache/mem-dir.ts';

export const GIT_HOOKS = ['post-rewrite', 'post-merge', 'reference-transaction', 'pre-push'] as const;
const MARKER = '# git-mem hook:';

/**
 * reference-transaction (git 2.28+) runs at every state of every ref update: a
 * commit, a fetch, git-mem's own notes writes (git 2.39 runs it twice for a
 * commit, five times for a `git branch -D`: test/bench/reference-transaction.bench.mjs
 * counts them). It must cost next to nothing beyond what git pays to run any
 * hook, so it decides with shell builtins alone, and only in the committed
 * state (the input is read with `read`, no process, unless a chained hook
 * needs it too). It starts `git mem reanchor` in the background, a second
 * later, once git is done and no longer competes with it for the processor:
 * - for a committed deletion of a branch, remote-tracking branch or tag
 *   (`git branch -D`, `git update-ref -d`, `git fetch --prune`), while the
 *   commits the ref held still exist (deleting a branch deletes its reflog);
 * - for a `git reset` (any mode), told by its write of ORIG_HEAD (merge,
 *   rebase and am write it too): a rewound branch's commits stay in its reflog,
 *   but a reset onto commits that already hold their change (a squash merge
 *   fetched from the forge) is followed at once. Other rewinds (`git branch -f`,
 *   `git update-ref` to an older commit) are left to the reflog, where the next
 *   reanchor finds them: telling a rewind from a fast-forward would cost a git
 *   process at every commit.
 * One run at a time is due: the hook writes the run's pid to
 * `mem/reanchor-due` (HOOK_FILES) and starts none while that process lives (a
 * zombie, which /proc tells where there is one, does not count: one stat); the run removes
 * the file before it reads the refs (stores/cache/reanchor-due.ts). The hook finds
 * that file beside its own folder, so only when it is the repository's own
 * `hooks` folder (`due`); under a core.hooksPath, which may serve several
 * repositories, every deletion starts its run. Notes refs are never looked
 * at: git-mem's own writes do not recurse.
 */
function referenceTransactionScript(due: boolean): string {
  return [
    '#!/bin/sh',
    `${MARKER} reference-transaction (installed by git mem init; see git mem reanchor --help)`,
    '# Memories follow commits that a deleted branch or a git reset leaves behind: reanchor them in the background, while those commits exist.',
    '# Only a committed transaction is read, with builtins alone: no process unless a deletion or a reset is found.',
    'case $1 in committed) ;; *) [ -x "$0.chained" ] || exit 0 ;; esac',
    'follow() {',
    '  while read -r old new ref; do',
    '    case $ref in',
    '      ORIG_HEAD) ;;',
    '      refs/heads/*|refs/remotes/*|refs/tags/*) case $new in *[!0]*) continue ;; esac ;;',
    '      *) continue ;;',
    '    esac',
    ...(due
      ? [
          `    # One run due at a time: its pid, in ${HOOK_FILES.reanchorDue} until it begins (it removes the file, then reads the refs).`,
          `    case $0 in */hooks/*) due=\${0%/hooks/*}/mem/${HOOK_FILES.reanchorDue} ;; hooks/*) due=mem/${HOOK_FILES.reanchorDue} ;; *) due= ;; esac`,
          '    pid=',
          '    [ -e "$due" ] && { read -r pid < "$due"; } 2>/dev/null',
          '    # Alive: its /proc/<pid>/exe resolves, which a zombie\'s does not (where nothing reaps orphans, as in some containers, an ended run stays one); kill -0 without /proc.',
          "    case $pid in *[!0-9]*|'') ;; *) if [ -e /proc/self/exe ]; then [ -e \"/proc/$pid/exe\" ] && return 0; elif kill -0 \"$pid\" 2>/dev/null; then return 0; fi ;; esac",
        ]
      : []),
    '    # A second later: git has finished (a fetch --prune deletes ref after ref), and the run does not compete with it.',
    '    { sleep 1; exec git mem reanchor --quiet; } </dev/null >/dev/null 2>&1 &',
    ...(due ? ['    { echo $! > "$due"; } 2>/dev/null'] : []),
    '    return 0',
    '  done',
    '}',
    'if [ -x "$0.chained" ]; then',
    '  input=$(cat)',
    '  printf \'%s\\n\' "$input" | "$0.chained" "$@"',
    '  status=$?',
    '  [ "$1" = committed ] && printf \'%s\\n\' "$input" | follow',
    '  exit $status',
    'fi',
    'follow',
    'exit 0',
    '',
  ].join('\n');
}

/**
 * pre-push: the user's hook first (its refusal stops the push); then, only when a line of
 * git's input names a ref under refs/notes/mem/, git mem verify-push with the same input.
 * `git mem push` sets GIT_MEM_PUSH_VERIFIED on the git push it runs: it has scanned already.
 */
function prePushScript(): string {
  return [
    '#!/bin/sh',
    `${MARKER} pre-push (installed by git mem init; see git mem verify-push --help)`,
    '# Refuses to push memories that hold a secret; git push --no-verify skips it.',
    'input=$(cat)',
    'if [ -x "$0.chained" ]; then',
    '  printf \'%s\\n\' "$input" | "$0.chained" "$@" || exit $?',
    'fi',
    'case "$input" in',
    '  *refs/notes/mem/*) ;;',
    '  *) exit 0 ;;',
    'esac',
    '[ -n "$GIT_MEM_PUSH_VERIFIED" ] && exit 0',
    'printf \'%s\\n\' "$input" | git mem verify-push "$@"',
    '',
  ].join('\n');
}

/** The script: sh, so it runs wherever git runs hooks. post-rewrite's input (old and new ids) is read once and handed on. */
export function hookScript(name: string, options: { ownHooksDir?: boolean } = {}): string {
  if (name === 'reference-transaction') return referenceTransactionScript(options.ownHooksDir ?? true);
  if (name === 'pre-push') return prePushScript();
  const takesInput = name === 'post-rewrite';
  return [
    '#!/bin/sh',
    `${MARKER} ${name} (installed by git mem init; see git mem reanchor --help)`,
    '# Memories follow commits that git rewrote or squashed: reanchor them in the background.',
    ...(takesInput ? ['input=$(cat)'] : []),
    'status=0',
    'if [ -x "$0.chained" ]; then',
    takesInput ? '  printf \'%s\\n\' "$input" | "$0.chained" "$@"' : '  "$0.chained" "$@"',
    '  status=$?',
    'fi',
    '(git mem reanchor --quiet </dev/null >/dev/null 2>&1 &)',
    'exit $status',
    '',
  ].join('\n');
}

export function hooksDir(repo: Repo): string {
  return gitPath(repo, 'hooks');
}

export interface GitHookState {
  name: string;
  file: string;
  installed: boolean;
  /** A hook of the user's, run before ours. */
  chained: boolean;
  changed: boolean;
}

function isOurs(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').includes(MARKER);
  } catch {
    return false;
  }
}

function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function gitHookStates(repo: Repo): GitHookState[] {
  const dir = hooksDir(repo);
  return GIT_HOOKS.map((name) => {
    const file = path.join(dir, name);
    return { name, file, installed: isOurs(file) && isExecutable(file), chained: fs.existsSync(`${file}.chained`), changed: false };
  });
}

/** Installs (or refreshes) both hooks; idempotent. */
export function installGitHooks(repo: Repo): GitHookState[] {
  const dir = hooksDir(repo);
  fs.mkdirSync(dir, { recursive: true });
  // The repository's own hooks folder (not a core.hooksPath elsewhere): the mem folder is beside it.
  const ownHooksDir = path.resolve(dir) === path.join(repo.commonDir, 'hooks');
  // The hook marks the run it leaves due in the mem folder, which it cannot make: made now if missing.
  if (ownHooksDir) repo.mem.writable();
  return GIT_HOOKS.map((name) => {
    const file = path.join(dir, name);
    const script = hookScript(name, { ownHooksDir });
    let current: string | null = null;
    try {
      current = fs.readFileSync(file, 'utf8');
    } catch {
      // No hook yet.
    }
    const chainedFile = `${file}.chained`;
    if (current === script && isExecutable(file)) return { name, file, installed: true, chained: fs.existsSync(chainedFile), changed: false };
    if (current !== null && !current.includes(MARKER)) {
      // The user's own hook: kept, and run first by ours. Never overwrite one already moved aside.
      if (fs.existsSync(chainedFile)) throw new GitMemError(`${file} is not git-mem's and ${chainedFile} exists too; merge them by hand, or run git mem init --no-git-hooks`);
      fs.renameSync(file, chainedFile);
    }
    fs.writeFileSync(file, script, { mode: 0o755 });
    fs.chmodSync(file, 0o755);
    return { name, file, installed: true, chained: fs.existsSync(chainedFile), changed: true };
  });
}

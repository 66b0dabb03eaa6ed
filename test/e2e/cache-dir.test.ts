/**
 * A `.git/mem` git-mem cannot use: not writable, a dangling symlink, a symlink
 * loop, a file, or missing under a `.git` it cannot write. The notes are the
 * truth: list, recall and show answer from them, captures reach them, hooks
 * inject from them and exit 0 with at most one line on stderr; the caches go
 * to this user's folder under $TMPDIR meanwhile (or, when that is not safe,
 * stay in memory); `git mem index` fails in one line; doctor names the
 * problem with its fix, and the fix works.
 *
 * Root writes through any mode (CAP_DAC_OVERRIDE), so where the tests run as
 * root the permission cases run git-mem under setpriv without that capability:
 * a mode of 0555 then refuses writes with EACCES, as it does for any other user.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, memOk, type RunResult, sandbox } from './helpers.ts';

const ROOT = process.getuid?.() === 0;
const DROP_DAC = ['setpriv', '--inh-caps=-all', '--bounding-set=-dac_override,-dac_read_search', '--'];

interface Case {
  name: string;
  /** Runs git-mem without root's power to write through permissions. */
  unprivileged?: boolean;
  /** Breaks the folder (given `.git/mem` and the sandbox root). */
  make: (mem: string, root: string) => void;
  /** What stderr and doctor say about it, and the fix doctor gives. */
  says: RegExp;
  fix: RegExp;
  /** Carries out the fix. */
  repair: (mem: string) => void;
}

const CASES: Case[] = [
  {
    name: 'not writable',
    unprivileged: true,
    make: (mem) => spawnSync('chmod', ['-R', 'a-w', mem]),
    says: /\.git\/mem is not writable \(EACCES\)/,
    fix: /chmod -R u\+w \S+\.git\/mem/,
    repair: (mem) => spawnSync('chmod', ['-R', 'u+w', mem]),
  },
  {
    name: 'a dangling symlink',
    make: (mem, root) => {
      fs.rmSync(mem, { recursive: true });
      fs.symlinkSync(path.join(root, 'gone', 'mem'), mem);
    },
    says: /\.git\/mem is a symlink to \S+\/gone\/mem, which does not exist/,
    fix: /mkdir -p \S+\/gone\/mem, or rm \S+\.git\/mem/,
    repair: (mem) => fs.rmSync(mem),
  },
  {
    name: 'a symlink loop',
    make: (mem) => {
      fs.rmSync(mem, { recursive: true });
      fs.symlinkSync('mem', mem);
    },
    says: /\.git\/mem is a symlink loop/,
    fix: /^rm \S+\.git\/mem$/,
    repair: (mem) => fs.rmSync(mem),
  },
  {
    name: 'a file',
    make: (mem) => {
      fs.rmSync(mem, { recursive: true });
      fs.writeFileSync(mem, 'not a folder\n');
    },
    says: /\.git\/mem is a file, not a directory/,
    fix: /^mv \S+\.git\/mem \S+\.git\/mem\.bak$/,
    repair: (mem) => fs.renameSync(mem, `${mem}.bak`),
  },
  {
    name: 'missing, in a .git it cannot write',
    unprivileged: true,
    make: (mem) => {
      fs.rmSync(mem, { recursive: true });
      fs.chmodSync(path.dirname(mem), 0o555);
    },
    says: /\.git\/mem cannot be created \(EACCES\)/,
    fix: /chmod u\+w \S+\.git, or mkdir \S+\.git\/mem as the owner of \S+\.git/,
    repair: (mem) => fs.chmodSync(path.dirname(mem), 0o755),
  },
];

/** `git mem <args>`, as an unprivileged process when asked and the tests run as root. */
function run(cwd: string, env: NodeJS.ProcessEnv, args: string[], unprivileged = false, input = ''): RunResult {
  const argv = [...(unprivileged && ROOT ? DROP_DAC : []), 'git', 'mem', ...args];
  const r = spawnSync(argv[0]!, argv.slice(1), { cwd, env, input, encoding: 'utf8' });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

function hook(cwd: string, env: NodeJS.ProcessEnv, event: string, extra: object, unprivileged = false): Promise<RunResult> {
  const argv = [...(unprivileged && ROOT ? DROP_DAC : []), 'git', 'mem', 'hook', event];
  const input = JSON.stringify({ session_id: 'sess-1', transcript_path: '/nonexistent', cwd, hook_event_name: event, ...extra });
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => {});
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.end(input);
  });
}

const lines = (text: string) => text.split('\n').filter(Boolean);

/** At most one line on stderr, and never an internal error. */
function quiet(r: RunResult, label: string): void {
  expect(r.stderr, label).not.toMatch(/internal error|at \S+ \(/);
  expect(lines(r.stderr).length, `${label}: ${r.stderr}`).toBeLessThanOrEqual(1);
}

function context(r: RunResult): string {
  expect(r.code, r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext;
}

describe('a .git/mem that cannot be used', () => {
  for (const c of CASES) {
    it(`${c.name}: reads and hooks answer from the notes, index fails in one line, doctor gives the fix`, async () => {
      const box = sandbox();
      const dir = makeRepo(box);
      const env = { ...box.env, TMPDIR: path.join(box.root, 'tmp') };
      fs.mkdirSync(env.TMPDIR!);
      git(dir, env, ['config', 'mem.recall.mode', 'lexical']);
      const id = memOk(dir, env, ['capture', 'decisions', 'Use sql.js for the index', '-m', 'No native modules to build.']);
      memOk(dir, env, ['capture', 'learnings', 'Bun compiles the CLI into one binary']);
      memOk(dir, env, ['list']); // a cache on disk, as a repository in use has
      const memDir = path.join(dir, '.git', 'mem');
      c.make(memDir, box.root);
      try {
        const as = (args: string[]) => run(dir, env, args, c.unprivileged);

        // A capture reaches the notes; the cache it would update is what is broken.
        const captured = as(['capture', 'progress', 'Captured while the cache is broken']);
        expect(captured.code, captured.stderr).toBe(0);
        quiet(captured, 'capture');

        const list = as(['list', '--json']);
        expect(list.code, list.stderr).toBe(0);
        quiet(list, 'list');
        expect((JSON.parse(list.stdout) as Array<{ summary: string }>).map((m) => m.summary).sort()).toEqual([
          'Bun compiles the CLI into one binary',
          'Captured while the cache is broken',
          'Use sql.js for the index',
        ]);
        const recall = as(['recall', 'sql.js', 'index']);
        expect(recall.code, recall.stderr).toBe(0);
        quiet(recall, 'recall');
        expect(recall.stdout).toContain('Use sql.js for the index');

        const show = as(['show', id]);
        expect(show.code, show.stderr).toBe(0);
        quiet(show, 'show');
        expect(show.stdout).toContain('No native modules to build.');

        // Writing the index is the command's whole point: it says it cannot, in one line, and claims nothing.
        for (const args of [['index', '--rebuild'], ['index']]) {
          const r = as(args);
          expect(r.code, args.join(' ')).toBe(1);
          expect(r.stdout).toBe('');
          expect(lines(r.stderr)).toHaveLength(1);
          expect(r.stderr).toMatch(/^git-mem: the index cannot be written: /);
          expect(r.stderr).toMatch(c.says);
        }

        // Hooks inject from the notes and capture into them; exit 0, one line on stderr at most.
        const start = await hook(dir, env, 'SessionStart', { source: 'startup' }, c.unprivileged);
        quiet(start, 'SessionStart');
        expect(context(start)).toContain('Use sql.js for the index');
        const asked = await hook(dir, env, 'UserPromptSubmit', { prompt: 'why did we choose sql.js for the index?' }, c.unprivileged);
        quiet(asked, 'UserPromptSubmit recall');
        expect(context(asked)).toMatch(/<recalled_memories>[\s\S]*Use sql\.js for the index/);
        const marker = await hook(dir, env, 'UserPromptSubmit', { prompt: '[decision] Keep every hook under 100 ms' }, c.unprivileged);
        quiet(marker, 'UserPromptSubmit capture');
        expect(marker.code).toBe(0);
        expect((JSON.parse(marker.stdout) as { systemMessage: string }).systemMessage).toMatch(/captured decisions:\S+ Keep every hook under 100 ms/);
        const tool = await hook(dir, env, 'PostToolUse', { tool_name: 'Read', tool_input: { file_path: path.join(dir, 'file0.txt') }, tool_response: {} }, c.unprivileged);
        quiet(tool, 'PostToolUse');
        // The memories on the commits that touched the file (the newest few of them).
        expect(context(tool)).toMatch(/<related_memories file="[^"]*file0\.txt"[\s\S]*<summary>(Use sql\.js|Bun compiles|Captured while|Keep every hook)/);

        // What was wrong, said once by list, with the fix, and where the cache is meanwhile.
        expect(list.stderr).toMatch(c.says);
        const fallback = /keeping the cache in (\S+) meanwhile/.exec(list.stderr)?.[1];
        expect(fallback, list.stderr).toBeDefined();
        expect(path.relative(env.TMPDIR!, fallback!)).toMatch(/^git-mem-\d+\/[0-9a-f]{16}$/);
        expect(fs.statSync(path.join(fallback!, 'terms.idx')).isFile()).toBe(true);
        expect(fs.statSync(path.dirname(fallback!)).mode & 0o777).toBe(0o700);

        const doctor = as(['doctor', '--json']);
        expect(doctor.code).toBe(1);
        const checks = (JSON.parse(doctor.stdout) as { checks: Array<{ id: string; status: string; message: string; fix?: string }> }).checks;
        const cache = checks.filter((x) => x.id === 'cache-dir');
        expect(cache).toHaveLength(1);
        expect(cache[0]!.status).toBe('fail');
        expect(cache[0]!.message).toMatch(c.says);
        expect(cache[0]!.message).toContain(`git-mem keeps its cache in ${fallback} meanwhile`);
        expect(cache[0]!.fix).toMatch(c.fix);
        // The files in it are not checked as if they were merely missing or unreadable.
        expect(checks.filter((x) => x.id === 'index' || x.id === 'term-index')).toEqual([]);
        const text = as(['doctor']);
        expect(text.stdout).toMatch(/^FAIL {2}cache-dir +.*\.git\/mem/m);
        expect(text.stdout).toMatch(/^ +fix: /m);
      } finally {
        c.repair(memDir);
      }

      // Doctor's fix done: the cache is made again from the notes, and nothing is said any more.
      const after = run(dir, env, ['list', '--json'], c.unprivileged);
      expect(after.stderr).toBe('');
      expect((JSON.parse(after.stdout) as unknown[]).length).toBe(4);
      expect(run(dir, env, ['index', '--rebuild'], c.unprivileged).code).toBe(0);
      const healthy = JSON.parse(run(dir, env, ['doctor', '--json'], c.unprivileged).stdout) as { checks: Array<{ id: string; status: string }> };
      expect(healthy.checks.find((x) => x.id === 'cache-dir')?.status).toBe('ok');
      expect(fs.statSync(path.join(memDir, 'index.sqlite')).isFile()).toBe(true);
    });
  }
});

describe('a temporary folder others can write', () => {
  it('is not used for the cache: commands and hooks work from the notes in memory, and say so', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const env = { ...box.env, TMPDIR: path.join(box.root, 'tmp') };
    // Where the fallback would go, made first (as another user could in a shared /tmp), open to everyone.
    const shared = path.join(env.TMPDIR, `git-mem-${process.getuid?.() ?? 0}`);
    fs.mkdirSync(shared, { recursive: true });
    fs.chmodSync(shared, 0o777);
    memOk(dir, env, ['capture', 'decisions', 'Use sql.js for the index']);
    const memDir = path.join(dir, '.git', 'mem');
    fs.rmSync(memDir, { recursive: true, force: true });
    fs.symlinkSync('mem', memDir);

    const list = run(dir, env, ['list', '--json']);
    expect(list.code, list.stderr).toBe(0);
    quiet(list, 'list');
    expect((JSON.parse(list.stdout) as Array<{ summary: string }>).map((m) => m.summary)).toEqual(['Use sql.js for the index']);
    expect(list.stderr).toMatch(/\.git\/mem is a symlink loop; working from the notes without the cache \(fix: rm \S+\.git\/mem\)/);
    const start = await hook(dir, env, 'SessionStart', { source: 'startup' });
    quiet(start, 'SessionStart');
    expect(context(start)).toContain('Use sql.js for the index');
    expect(fs.readdirSync(shared)).toEqual([]);
    const doctor = JSON.parse(run(dir, env, ['doctor', '--json']).stdout) as { checks: Array<{ id: string; message: string }> };
    expect(doctor.checks.find((x) => x.id === 'cache-dir')?.message).toMatch(/symlink loop: git-mem works from the notes without its cache meanwhile/);
  });
});

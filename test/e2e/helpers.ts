/** Running the compiled binary through `git mem` against real temporary repositories. */
import { type SpawnSyncOptions, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';

export const BIN = process.env.GIT_MEM_BIN ?? path.resolve(import.meta.dirname, '../../dist/git-mem');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Sandbox {
  root: string;
  env: NodeJS.ProcessEnv;
}

/**
 * Removes a sandbox. A detached `git mem index` or reanchor started by a hook may still be writing
 * in it: each try removes what is there again. (rmSync's own retries only retry the rmdir of a
 * directory that gained a file, with a linear backoff: 50 of them waited 255 s, then failed.)
 */
function removeTree(dir: string): void {
  for (let attempt = 1; ; attempt++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (err) {
      if (attempt >= 40) throw err;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
    }
  }
}

/** An isolated HOME and git config, with `git-mem` first on PATH so `git mem` finds it. */
/**
 * A whole-process time bound, as the issue states it for a quiet machine, widened by how
 * oversubscribed the machine is right now (the 1-minute load average per core, when above 1):
 * on a quiet CI runner it is the bound itself; on a shared machine running several suites it
 * does not fail for time the process spent waiting for a core. Speed itself is proven by the
 * benchmarks under test/bench, against a baseline in the same run.
 */
export function timeBound(ms: number): number {
  return ms * Math.max(1, os.loadavg()[0]! / os.cpus().length);
}

export function sandbox(): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-test-'));
  onTestFinished(() => removeTree(root));
  const binDir = path.join(root, 'bin');
  fs.mkdirSync(binDir);
  fs.symlinkSync(BIN, path.join(binDir, 'git-mem'));
  const gitconfig = path.join(root, 'gitconfig');
  fs.writeFileSync(gitconfig, '[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n');
  const env: NodeJS.ProcessEnv = {
    PATH: `${binDir}:${process.env.PATH ?? ''}`,
    HOME: root,
    GIT_CONFIG_GLOBAL: gitconfig,
    GIT_CONFIG_NOSYSTEM: '1',
    NO_COLOR: '1',
    TMPDIR: os.tmpdir(),
  };
  return { root, env };
}

export function git(cwd: string, env: NodeJS.ProcessEnv, args: string[], input?: string): string {
  const r = spawnSync('git', args, { cwd, env, input, encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`);
  return r.stdout;
}

/** A repository with `commits` commits (0 for an unborn HEAD). */
export function makeRepo(box: Sandbox, name = 'repo', commits = 1): string {
  const dir = path.join(box.root, name);
  fs.mkdirSync(dir);
  git(dir, box.env, ['init', '-q']);
  for (let i = 0; i < commits; i++) {
    fs.writeFileSync(path.join(dir, `file${i}.txt`), `content ${i}\n`);
    git(dir, box.env, ['add', '.']);
    git(dir, box.env, ['commit', '-qm', `commit ${i}`]);
  }
  return dir;
}

export function mem(cwd: string, env: NodeJS.ProcessEnv, args: string[], options: SpawnSyncOptions & { input?: string } = {}): RunResult {
  const r = spawnSync('git', ['mem', ...args], { cwd, env, encoding: 'utf8', input: options.input ?? '', maxBuffer: 1 << 28 });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Like mem(), but the command must succeed; returns trimmed stdout. */
export function memOk(cwd: string, env: NodeJS.ProcessEnv, args: string[], input?: string): string {
  const r = mem(cwd, env, args, { input });
  if (r.code !== 0) throw new Error(`git mem ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Starts `git mem` asynchronously, for concurrency tests. */
export function memAsync(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<RunResult> {
  return new Promise((resolve) => {
    const child = spawn('git', ['mem', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

/** Runs `git mem hook <event>` with a payload on stdin (a string is sent as it is), timing the whole process. */
export function memHook(cwd: string, env: NodeJS.ProcessEnv, event: string, payload: unknown): Promise<RunResult & { ms: number }> {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('git', ['mem', 'hook', event], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started }));
    // A hook that exits before reading all of a large input closes the pipe: not an error here.
    child.stdin.on('error', () => {});
    child.stdin.end(input);
  });
}

export function refTip(cwd: string, env: NodeJS.ProcessEnv, ref: string): string | null {
  const r = spawnSync('git', ['rev-parse', '-q', '--verify', ref], { cwd, env, encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** A bare remote with one commit on main, and `names` clones of it. */
export function makeClones(box: Sandbox, names: string[]): { remote: string; clones: string[] } {
  const remote = path.join(box.root, 'remote.git');
  git(box.root, box.env, ['init', '-q', '--bare', remote]);
  const seed = makeRepo(box, 'seed');
  git(seed, box.env, ['push', '-q', remote, 'main']);
  const clones = names.map((name) => {
    const dir = path.join(box.root, name);
    git(box.root, box.env, ['clone', '-q', remote, dir]);
    return dir;
  });
  return { remote, clones };
}

/** Summaries of all current memories, sorted. */
export function summaries(cwd: string, env: NodeJS.ProcessEnv): string[] {
  return (JSON.parse(memOk(cwd, env, ['list', '--json'])) as Array<{ summary: string }>).map((m) => m.summary).sort();
}

/** Writes one file, commits it, and returns the new commit's id. */
export function commitFile(cwd: string, env: NodeJS.ProcessEnv, file: string, text: string, message: string): string {
  fs.writeFileSync(path.join(cwd, file), text);
  git(cwd, env, ['add', file]);
  git(cwd, env, ['commit', '-qm', message]);
  return git(cwd, env, ['rev-parse', 'HEAD']).trim();
}

/** Captures a decision and returns its id (the last line capture prints). */
export function captureDecision(cwd: string, env: NodeJS.ProcessEnv, summary: string, ...args: string[]): string {
  return memOk(cwd, env, ['capture', 'decisions', summary, ...args]).split('\n').pop()!.trim();
}

/** The one place that runs `git`. Every failure becomes a GitError with git's own stderr. */
import { spawnSync } from 'node:child_process';
import { GitError } from '../../core/errors.ts';

export interface GitResult {
  status: number;
  stdout: Buffer;
  stderr: string;
}

export interface GitOptions {
  input?: string | Buffer;
  env?: Record<string, string>;
  /** Kill git after this long; the call then fails with a GitError saying so. */
  timeoutMs?: number;
}

export class Git {
  constructor(
    readonly cwd: string,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /** Runs git and returns whatever happened; never throws on a non-zero exit. */
  exec(args: string[], options: GitOptions = {}): GitResult {
    const started = this.env.GIT_MEM_TRACE ? performance.now() : 0;
    const result = spawnSync('git', args, {
      cwd: this.cwd,
      env: { ...this.env, ...options.env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
      input: options.input,
      maxBuffer: 1 << 30,
      stdio: ['pipe', 'pipe', 'pipe'],
      // SIGTERM: git removes its lock files on it (after SIGKILL a fetch would leave them behind).
      ...(options.timeoutMs ? { timeout: options.timeoutMs, killSignal: 'SIGTERM' as const } : {}),
    });
    if (started) process.stderr.write(`git-mem trace: ${(performance.now() - started).toFixed(1)} ms git ${args.join(' ')}\n`);
    if (result.error) {
      const timedOut = (result.error as NodeJS.ErrnoException).code === 'ETIMEDOUT';
      throw new GitError(args, null, timedOut ? `no answer within ${((options.timeoutMs ?? 0) / 1000).toFixed(1)} s` : result.error.message);
    }
    return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr.toString('utf8') };
  }

  /** Runs git, throws GitError on failure, returns stdout as a Buffer. */
  buffer(args: string[], options?: GitOptions): Buffer {
    const r = this.exec(args, options);
    if (r.status !== 0) throw new GitError(args, r.status, r.stderr);
    return r.stdout;
  }

  /** Runs git, throws GitError on failure, returns stdout as text. */
  run(args: string[], options?: GitOptions): string {
    return this.buffer(args, options).toString('utf8');
  }
}

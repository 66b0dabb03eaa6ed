/** Running programs as processes: this same git-mem again, detached, or another program for its version. */
import { spawn, spawnSync } from 'node:child_process';

/** How to run this same git-mem again: the compiled binary, or bun with the source entry point. */
export function selfCommand(): string[] {
  const script = process.argv[1];
  return script && /\.(?:ts|js|mjs)$/.test(script) ? [process.execPath, script] : [process.execPath];
}

/** Runs git-mem with `args` in a detached process that outlives this one; a failure to start is ignored. */
export function runSelfDetached(args: string[], cwd: string, env: NodeJS.ProcessEnv): void {
  const [cmd, ...self] = selfCommand();
  try {
    const child = spawn(cmd!, [...self, ...args], { cwd, detached: true, stdio: 'ignore', env });
    child.on('error', () => {});
    child.unref();
  } catch {
    // Nothing to do: the next command catches up itself.
  }
}

/** The first line another program prints for `--version` (within 5 s), or null. */
export function programVersion(program: string, env: NodeJS.ProcessEnv): string | null {
  return spawnSync(program, ['--version'], { env, encoding: 'utf8', timeout: 5000 }).stdout?.trim().split('\n')[0] || null;
}

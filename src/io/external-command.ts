/**
 * A user's command that answers JSON with JSON (`consolidate --with CMD`,
 * `gc --with CMD`, the capture judge of `mem.capture.with`): run by the shell,
 * the input on its stdin, its stdout read as one JSON value. Any failure (it cannot start, exits non-zero, runs past
 * the time limit, prints no JSON) is one line, so the caller changes nothing.
 */
import { spawnSync } from 'node:child_process';
import { GitMemError } from '../core/errors.ts';

/** The command as errors name it: its first 57 characters and '...' when it is longer than 60. */
export function commandName(command: string): string {
  return command.length > 60 ? `${command.slice(0, 57)}...` : command;
}

export function runJsonCommand(command: string, input: unknown, options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number; /** The setting that holds the time limit, named when it runs out. */ timeoutSetting?: string }): unknown {
  const r = spawnSync('sh', ['-c', command], {
    cwd: options.cwd,
    env: options.env,
    input: JSON.stringify(input),
    encoding: 'utf8',
    timeout: options.timeoutMs,
    killSignal: 'SIGKILL',
    maxBuffer: 64 * 1024 * 1024,
  });
  const name = commandName(command);
  const hint = 'nothing was changed';
  if (r.error && (r.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
    const seconds = Math.round(options.timeoutMs / 100) / 10;
    throw new GitMemError(`'${name}' did not answer within ${seconds} s (${options.timeoutSetting ?? 'mem.lifecycle.timeout'})`, hint);
  }
  if (r.error) throw new GitMemError(`'${name}' could not run: ${r.error.message}`, hint);
  if (r.status !== 0) {
    const why = r.stderr.trim().split('\n').at(-1) ?? '';
    throw new GitMemError(`'${name}' failed (exit ${r.status ?? r.signal})${why ? `: ${why.slice(0, 200)}` : ''}`, hint);
  }
  try {
    return JSON.parse(r.stdout);
  } catch {
    throw new GitMemError(`'${name}' printed no JSON (${r.stdout.trim().slice(0, 60) || 'nothing'})`, hint);
  }
}

/** Capture reads its body from standard input only when asked (`-m -`, `--file -`), as git does for `-F -`. */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { makeRepo, memOk, sandbox } from './helpers.ts';

/** Runs `git mem` with a stdin pipe that stays open until the test closes it (or for good). */
function withOpenStdin(cwd: string, env: NodeJS.ProcessEnv, args: string[], written: string) {
  const child = spawn('git', ['mem', ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.on('error', () => {});
  child.stdin.write(written);
  const done = new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
  return { child, done };
}

function within<T>(ms: number, p: Promise<T>): Promise<T | 'timeout'> {
  return Promise.race([p, new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), ms))]);
}

describe('capture and standard input', () => {
  it('never touches stdin unless asked: an open pipe neither blocks it nor becomes the body', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const { child, done } = withOpenStdin(repo, box.env, ['capture', 'learnings', 'Pipes stay open in harnesses'], 'not a body\n');
    const r = await within(20_000, done);
    child.stdin.end();
    if (r === 'timeout') child.kill();
    expect(r).not.toBe('timeout');
    if (r === 'timeout') return;
    expect(r.code).toBe(0);
    const shown = JSON.parse(memOk(repo, box.env, ['show', r.stdout.trim(), '--json'])) as { body: string };
    expect(shown.body).toBe('');
  });

  it('reads the body from stdin with -m - and with --file -, waiting for it to close', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    for (const flag of [['-m', '-'], ['--file', '-']]) {
      const { child, done } = withOpenStdin(repo, box.env, ['capture', 'learnings', `Body via ${flag.join(' ')}`, ...flag], 'first half, ');
      // Still open: the command waits for the rest.
      expect(await within(1_000, done)).toBe('timeout');
      child.stdin.end('second half\n');
      const r = await done;
      expect(r.code).toBe(0);
      expect((JSON.parse(memOk(repo, box.env, ['show', r.stdout.trim(), '--json'])) as { body: string }).body).toBe('first half, second half');
    }
    // edit takes -m - the same way.
    const id = memOk(repo, box.env, ['capture', 'learnings', 'Edited from stdin', '-m', 'old']);
    memOk(repo, box.env, ['edit', id, '-m', '-'], 'new body\n');
    expect((JSON.parse(memOk(repo, box.env, ['show', id, '--json'])) as { body: string }).body).toBe('new body');
  });

  it('says so in --help', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const help = memOk(repo, box.env, ['capture', '--help']).replace(/\s+/g, ' ');
    expect(help).toMatch(/Stdin is read only when asked \(-m - or --file -\)/);
    expect(help).toContain('--file - --tags parser');
  });
});

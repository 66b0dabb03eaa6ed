/**
 * The hook's stdin reader on large inputs full of JSON escapes, as tool
 * results are (every line end is `\n`): read whole, within the time bound,
 * from a file and from a pipe.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, memOk, sandbox, timeBound } from './helpers.ts';

const BOUND_MS = timeBound(1500);

interface HookRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `git mem hook <event>` with stdin from `file`, or from a pipe written by this process. */
function hook(cwd: string, env: NodeJS.ProcessEnv, event: string, file: string, from: 'file' | 'pipe'): Promise<HookRun> {
  return new Promise((resolve) => {
    const fd = from === 'file' ? fs.openSync(file, 'r') : null;
    const started = performance.now();
    const child = spawn('git', ['mem', 'hook', event], { cwd, env, stdio: [fd ?? 'pipe', 'pipe', 'pipe'] });
    if (fd !== null) fs.closeSync(fd);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started }));
    if (child.stdin) {
      child.stdin.on('error', () => {});
      child.stdin.end(fs.readFileSync(file));
    }
  });
}

describe('the hook stdin reader', () => {
  it('reads 15 MB of "x\\n" (5 million escapes) whole and answers within its bound, from a file and from a pipe', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    memOk(dir, box.env, ['capture', 'decisions', 'file0 holds the seed content']);
    const input = path.join(box.root, 'post-tool-use.json');
    const content = 'x\n'.repeat(5_000_000);
    const event = { session_id: 's-stdin', cwd: dir, transcript_path: '', hook_event_name: 'PostToolUse', tool_name: 'Read', tool_use_id: 't1', tool_input: { file_path: path.join(dir, 'file0.txt') }, tool_response: { type: 'text', file: { content } } };
    fs.writeFileSync(input, JSON.stringify(event));
    expect(fs.statSync(input).size).toBeGreaterThan(15_000_000);
    for (const from of ['file', 'pipe'] as const) {
      const r = await hook(dir, { ...box.env }, 'PostToolUse', input, from);
      expect(r.code, from).toBe(0);
      // Read whole: no line about the input, and the file's memory in the reply.
      expect(r.stderr, from).toBe('');
      expect(r.stdout, from).toContain('file0 holds the seed content');
      expect(r.ms, from).toBeLessThan(BOUND_MS);
      // A new session each time, so the file's memory is given again.
      event.session_id = `s-stdin-${from}`;
      fs.writeFileSync(input, JSON.stringify(event));
    }
  });
});

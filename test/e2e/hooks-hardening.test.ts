/**
 * Hooks on the inputs users and teammates really send: explicit markers next
 * to similar memories, multi-byte text across stdin chunks, shell syntax in a
 * suggestion, adversarial and huge inputs, a FIFO as the transcript, and
 * thousands of markers at once. Every hook exits 0, within its time bound.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, mem, memOk, sandbox, timeBound } from './helpers.ts';

interface HookRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs a hook with `input` on stdin; `keepOpen` leaves stdin open after writing. */
function hook(cwd: string, env: NodeJS.ProcessEnv, event: string, input: string | Buffer, keepOpen = false): Promise<HookRun> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn('git', ['mem', 'hook', event], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.on('error', () => {}); // the hook may stop reading early
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started }));
    child.stdin.write(input);
    if (!keepOpen) child.stdin.end();
    else setTimeout(() => child.stdin.destroy(), 5000).unref();
  });
}

const event = (name: string, cwd: string, extra: object = {}) => JSON.stringify({ session_id: `s-${Math.random()}`, transcript_path: '/nonexistent', cwd, hook_event_name: name, ...extra });

function summaries(cwd: string, env: NodeJS.ProcessEnv): string[] {
  return (JSON.parse(memOk(cwd, env, ['list', '--json'])) as Array<{ summary: string }>).map((m) => m.summary).sort();
}

describe('explicit markers', () => {
  it('are captured next to a similar memory, and skipped only as an exact duplicate, saying so', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    memOk(dir, box.env, ['capture', 'decisions', 'Use port 8080 for the public api server in production']);
    const r = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt: '[decision] Use port 9090 for the public api server in production' }));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).systemMessage).toMatch(/captured decisions:\S+ Use port 9090/);
    const again = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt: '[decision] use port 9090 for the public API server in production!' }));
    expect(JSON.parse(again.stdout).systemMessage).toMatch(/not captured \(already stored as decisions:\S+\): use port 9090/);
    expect(summaries(dir, box.env)).toEqual(['Use port 8080 for the public api server in production', 'Use port 9090 for the public api server in production']);
  });

  it('numbers count as words; at most 20 captures a call, the rest named in a bounded message', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    memOk(dir, box.env, ['capture', 'learnings', 'item 5 uses the standard layout']);
    const prompt = Array.from({ length: 300 }, (_, i) => `[remember] item ${2000 + i} uses the standard layout`).join('\n');
    const r = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt }));
    const message = JSON.parse(r.stdout).systemMessage as string;
    expect(message.match(/git-mem: captured/g)?.length).toBe(20);
    expect(message).toMatch(/not captured \(over 20 captures at once\)/);
    expect(message.length).toBeLessThanOrEqual(2000);
    expect(summaries(dir, box.env).length).toBe(21);
    const many = Array.from({ length: 2000 }, (_, i) => `[remember] thing number ${i}`).join('\n');
    const r2 = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt: many }));
    expect(r2.code).toBe(0);
    expect(JSON.parse(r2.stdout).systemMessage.length).toBeLessThanOrEqual(2000);
    expect(summaries(dir, box.env).length).toBe(41);
  });
});

describe('stdin', () => {
  it('keeps characters split between two 64 KiB chunks whole', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    for (const pad of [0, 1, 2]) {
      // {"prompt":" is 11 bytes; the marker lands just before byte 65,536 and its text runs across it.
      const prompt = `${'x'.repeat(pad)}${'あ'.repeat(21800)}\n[remember] ${pad} ${'漢字'.repeat(60)}`;
      const r = await hook(dir, box.env, 'UserPromptSubmit', JSON.stringify({ prompt, session_id: `cjk${pad}`, cwd: dir, hook_event_name: 'UserPromptSubmit', transcript_path: '' }));
      expect(r.code).toBe(0);
    }
    const stored = JSON.parse(memOk(dir, box.env, ['list', '--json'])) as Array<{ summary: string; body: string }>;
    expect(stored.length).toBe(3);
    for (const m of stored) {
      expect(m.summary + m.body).not.toContain('\uFFFD');
      expect(m.summary).toMatch(/^\d 漢字漢字/);
    }
  });
});

describe('capture suggestions', () => {
  it('quote the text for the shell: running the suggested command stores it literally and runs nothing', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const marker = path.join(box.root, 'pwned');
    const prompt = `We went with $(touch ${marker}) for the upload retry, and \`touch ${marker}\` too, because the fixed retry hammered the API during outages.`;
    const r = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt }));
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    const command = /This may be worth remembering: (git mem capture .*)<\/capture_suggestion>/.exec(context)![1]!.replace(/&apos;/g, "'").replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const run = spawnSync('sh', ['-c', command], { cwd: dir, env: box.env, encoding: 'utf8' });
    expect(run.status).toBe(0);
    expect(fs.existsSync(marker)).toBe(false);
    expect(summaries(dir, box.env)[0]).toContain(`$(touch ${marker})`);
  });

  it('are not made for what was just captured, and carry no marker prefix', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const r = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt: '[decision] We went with the retry approach for the flaky upload' }));
    const out = JSON.parse(r.stdout);
    expect(out.systemMessage).toMatch(/captured/);
    expect(out.hookSpecificOutput?.additionalContext ?? '').not.toContain('capture_suggestion');
    const s = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt: 'Hmm. [d2] We went with the other approach for the flaky download' }));
    // "[d2]" is no marker (core/signals.ts), so it stays; no marker ([d], [decision], [remember:ns]...) leads the text.
    // (Written when quotes read &apos; here, this asked for "'[" and so could never fail.)
    const suggested = JSON.parse(s.stdout).hookSpecificOutput.additionalContext as string;
    expect(suggested).toContain("git mem capture decisions '");
    expect(suggested).not.toMatch(/capture \w+ '\[(?:d|decision|l|learned|learning|b|blocker|progress|pattern|remember|capture)[\]:]/i);
  });

  it('a field of the wrong type is named in one line on stderr, and the hook still exits 0', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const r = mem(dir, box.env, ['hook', 'UserPromptSubmit'], { input: JSON.stringify({ session_id: 's', cwd: dir, prompt: 42 }) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim()).toBe("git-mem hook UserPromptSubmit: 'prompt' must be a string, not number");
  });

  it('a request to forget a memory brings the exact command for the closest ones', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    memOk(dir, box.env, ['capture', 'learnings', 'The retry loop spins when the upload server is down']);
    memOk(dir, box.env, ['capture', 'decisions', 'Use port 8080 for the api']);
    const r = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt: 'Please forget the memory about the retry loop, it is wrong now.' }));
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    const command = /\n(git mem forget \S+) {2}# The retry loop spins/.exec(context)?.[1];
    expect(command).toBeDefined();
    expect(spawnSync('sh', ['-c', command!], { cwd: dir, env: box.env }).status).toBe(0);
    expect(summaries(dir, box.env)).toEqual(['Use port 8080 for the api']);
  });

  it('an unknown event names every event, PostToolUseFailure included', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const r = mem(dir, box.env, ['hook', 'Nope'], { input: '{}' });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('PostToolUseFailure');
  });
});

describe('fuzz: every hook exits 0 within 1 s', () => {
  const BOUND_MS = timeBound(1000);
  const EVENTS = ['SessionStart', 'UserPromptSubmit', 'PostToolUse', 'PostToolUseFailure', 'PreCompact', 'Stop', 'SessionEnd'];

  it('on garbage, empty, 10 MB, JSON nested 100,000 deep, and stdin left open', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const inputs: Array<[string, string, boolean]> = [
      ['garbage', '\u0000\u0001{{{]]] not json at all', false],
      ['empty', '', false],
      ['10 MB', `{"prompt":"${'a'.repeat(10 * 1024 * 1024)}"}`, false],
      ['depth 100k', `${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`, false],
      ['open stdin, nothing written', '', true],
      ['open stdin, an event written', event('Stop', dir), true],
    ];
    for (const name of EVENTS) {
      for (const [label, input, keepOpen] of inputs) {
        const r = await hook(dir, box.env, name, input, keepOpen);
        expect(r.code, `${name} ${label}`).toBe(0);
        expect(r.ms, `${name} ${label}`).toBeLessThan(BOUND_MS);
      }
    }
  });

  it('on a FIFO, /dev/zero and a 200 MB file as the transcript', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const fifo = path.join(box.root, 'fifo');
    spawnSync('mkfifo', [fifo]);
    const big = path.join(box.root, 'big.jsonl');
    fs.writeFileSync(big, '');
    fs.truncateSync(big, 200 * 1024 * 1024); // sparse: 200 MB of NUL bytes
    for (const transcript of [fifo, '/dev/zero', big]) {
      for (const name of ['Stop', 'PreCompact']) {
        const r = await hook(dir, box.env, name, event(name, dir, { transcript_path: transcript, last_assistant_message: 'Done.' }));
        expect(r.code, `${name} ${transcript}`).toBe(0);
        expect(r.ms, `${name} ${transcript}`).toBeLessThan(BOUND_MS);
      }
    }
  });

  it('on prompts and turns of 40 KB to 3 MB built to make detection slow', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const json = JSON.stringify(Array.from({ length: 3000 }, (_, i) => ({ id: i, note: 'we decided to use the cache because it turns out fine' })));
    const prompts: Array<[string, string]> = [
      ['TIL x 10,000', 'TIL '.repeat(10_000)],
      ['TIL x 20,000', 'TIL '.repeat(20_000)],
      ['160 KB of JSON', json],
      ['[decision] x 20,000 on one line', '[decision] x '.repeat(20_000)],
      ['▶ x 20,000 without a closer', '▶ decisions ─── open\n'.repeat(20_000)],
      ['3 MB of sentences', 'I decided to go with sql.js. It turns out fine. '.repeat(64_000)],
    ];
    for (const [label, prompt] of prompts) {
      const r = await hook(dir, box.env, 'UserPromptSubmit', event('UserPromptSubmit', dir, { prompt }));
      expect(r.code, label).toBe(0);
      expect(r.ms, label).toBeLessThan(BOUND_MS);
      const s = await hook(dir, box.env, 'Stop', event('Stop', dir, { last_assistant_message: prompt }));
      expect(s.code, `Stop ${label}`).toBe(0);
      expect(s.ms, `Stop ${label}`).toBeLessThan(BOUND_MS);
    }
  });
});

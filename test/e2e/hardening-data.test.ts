/**
 * Hardening: no memory lost, no secret leaked, on inputs users and teammates
 * really send (binary notes in a merge, killed imports, fields git-mem does
 * not know, secrets in every field and at the summary's cut).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, makeClones, makeRepo, mem, memOk, sandbox } from './helpers.ts';

interface Listed {
  key: string;
  summary: string;
  body: string;
  spec: string | null;
  phase: string | null;
  relates_to: string[];
  author: string | null;
  source: string | null;
  tags: string[];
}

function list(cwd: string, env: NodeJS.ProcessEnv): Listed[] {
  return JSON.parse(memOk(cwd, env, ['list', '--json'])) as Listed[];
}

describe('a merge with a binary note on the same commit', () => {
  it('keeps every memory from both sides and carries the binary bytes along, whoever merges first', () => {
    for (const first of ['a', 'b'] as const) {
      const box = sandbox();
      const { clones } = makeClones(box, ['a', 'b']);
      const [a, b] = clones as [string, string];
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe, 0x00, 0x0a]);
      const file = path.join(box.root, 'blob.bin');
      fs.writeFileSync(file, bytes);
      git(a, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-F', file, 'HEAD']);
      memOk(b, box.env, ['capture', 'decisions', "B's decision"]);
      memOk(b, box.env, ['push']);
      const order = first === 'a' ? [a, b, a] : [b, a, b];
      if (first === 'b') memOk(a, box.env, ['push']);
      for (const c of order) memOk(c, box.env, ['sync']);
      for (const c of [a, b]) {
        expect(list(c, box.env).map((m) => m.summary), c).toContain("B's decision");
        const note = git(c, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
        const carried = /binary-note: base64\n---\n\n([A-Za-z0-9+/=\n]+)/.exec(note);
        expect(carried, c).not.toBeNull();
        expect(Buffer.from(carried![1]!.replace(/\n/g, ''), 'base64').equals(bytes)).toBe(true);
      }
      expect(git(a, box.env, ['rev-parse', 'refs/notes/mem/decisions^{tree}'])).toBe(git(b, box.env, ['rev-parse', 'refs/notes/mem/decisions^{tree}']));
    }
  });
});

const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const STRIPE = `sk_live_${'DO1wQ9zX7v'.repeat(3)}`;

describe('secrets in every field', () => {
  it('redacts --spec and --phase at capture (--relates-to must name a memory), and every text field of an import, lifecycle links included', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    expect(mem(dir, box.env, ['capture', 'decisions', 'Spec with a token', '--relates-to', `decisions:rel-${TOKEN}`]).code).toBe(1);
    memOk(dir, box.env, ['capture', 'decisions', 'Spec with a token', '--spec', `spec ${TOKEN}`, '--phase', `phase ${TOKEN}`, '--tags', `t-${TOKEN}`]);
    const line = JSON.stringify({ namespace: 'research', summary: 'Imported with tokens', body: 'b', spec: `s ${TOKEN}`, phase: `p ${TOKEN}`, relates_to: [`r ${TOKEN}`], author: `Eve ${TOKEN}`, source: `src ${TOKEN}`, tags: [`t ${TOKEN}`], consolidates: [`${TOKEN}:abcd1234`], superseded_by: `${TOKEN}:abcd5678` });
    memOk(dir, box.env, ['import', '-'], `${line}\n`);
    const notes = ['decisions', 'research'].map((ns) => git(dir, box.env, ['notes', `--ref=refs/notes/mem/${ns}`, 'show', 'HEAD'])).join('\n');
    expect(notes).not.toContain(TOKEN);
    expect(notes).not.toContain('a1B2c3D4e5');
    // The lifecycle links too: what precedes the colon of an imported link is free text.
    expect(notes.match(/\[REDACTED:github_token\]/g)?.length).toBe(11);
  });

  it('cuts a long summary only after redaction, so no prefix of a secret survives, with or without --force-truncate', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    // The secret straddles the 100th character: cut first, its prefix would no longer look like a secret.
    const summary = `${'Rotate the payment key now because it leaked in the build logs of'.padEnd(88, '.')} ${STRIPE} today`;
    memOk(dir, box.env, ['capture', 'decisions', summary, '--force-truncate', '-m', `body ${STRIPE}`]);
    memOk(dir, box.env, ['capture', 'decisions', `Short summary with ${STRIPE}`]);
    memOk(dir, box.env, ['import', '-'], `${JSON.stringify({ namespace: 'decisions', summary: `Import ${STRIPE}` })}\n`);
    const note = git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
    expect(note).not.toMatch(/sk_live|DO1w/);
    for (const m of list(dir, box.env)) expect([...m.summary].length).toBeLessThanOrEqual(100);
  });
});

/** Every object in the repository, printed as git cat-file -p prints it (blobs, trees, commits: notes and their history, and anything dangling). */
function everyObject(dir: string, env: NodeJS.ProcessEnv): string {
  const ids = git(dir, env, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).split('\n').filter(Boolean);
  return ids.map((id) => git(dir, env, ['cat-file', '-p', id])).join('\n');
}

/** A hook run through the binary, as Claude Code runs it: the event JSON on stdin. */
function hookRun(cwd: string, env: NodeJS.ProcessEnv, event: string, payload: Record<string, unknown>): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('git', ['mem', 'hook', event], { cwd, env, stdio: ['pipe', 'ignore', 'ignore'] });
    child.on('close', (code) => resolve(code ?? -1));
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify({ session_id: 's-1', cwd, hook_event_name: event, permission_mode: 'default', ...payload }));
  });
}

/** One MCP tools/call over stdio, then the server is closed. */
function mcpCapture(cwd: string, env: NodeJS.ProcessEnv, args: Record<string, unknown>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('git', ['mem', 'mcp'], { cwd, env });
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      out += d;
      const reply = out.split('\n').find((l) => l.includes('"id":2'));
      if (reply) {
        child.kill();
        resolve(reply);
      }
    });
    child.on('error', reject);
    const send = (o: unknown) => child.stdin.write(`${JSON.stringify(o)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'e2e', version: '1' } } });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'capture', arguments: args } });
  });
}

// Issue 18's misses, and a few well-known formats, each in the line it was found in. Fake values, assembled from parts.
const b64 = (s: string) => Buffer.from(s).toString('base64');
const LEAKS: Array<[secret: string, line: string]> = [
  ['yqDVtkqPECriaLRi', 'curl -u developer:yqDVtkqPECriaLRi https://ci.example.com/api/json'],
  [b64('deploy:Zx81kLq0pWm!'), `Authorization: Basic ${b64('deploy:Zx81kLq0pWm!')}`],
  [b64('jenkins:S3cretPassw0rd'), b64('jenkins:S3cretPassw0rd')],
  ['aB3dE5fG7hI9jK1lM3nO5pQ7rS9', 'access_token=1234567890123456|' + 'aB3dE5fG7hI9jK1lM3nO5pQ7rS9'],
  ['9f8e7d6c5b4a3921'.repeat(9), 'v1' + '.0-0123456789abcdef01234567-' + '9f8e7d6c5b4a3921'.repeat(9) + '01'],
  ['AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh', 'h' + 'f_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh'],
  ['a1b2c3d4e5'.repeat(4), 'sg' + 'p_0123456789abcdef_' + 'a1b2c3d4e5'.repeat(4)],
  ['c0ffee42'.repeat(8), 'sn' + 'tryu_' + 'c0ffee42'.repeat(8)],
  ['Onvap1Y9HRHx9Ge7wqRD0VKeTr1YXGY22ZUr4jLjoesx', 'x-functions-key: Onvap1Y9HRHx9Ge7wqRD0VKeTr1YXGY22ZUr4jLjoesx' + 'AzFu' + 'fjFCKH=='],
  ['Zk29sLqP0xWm4TnB7vYc3Jd6', 'api_key = "Zk29sLqP0xWm4TnB7vYc3Jd6"'],
  ['Q3VZ7K2MWD5TRX4N', 'AK' + 'IA' + 'Q3VZ7K2MWD5TRX4N'],
  [TOKEN.slice(4), TOKEN],
  ['Tr0ub4dor&3x', 'postgres://app:Tr0ub4dor&3x@db.example.com:5432/orders'],
];
/** A line that holds every leak, and one that holds leak `i` (for fields a line of its own suits: summary, tags). */
const allLeaks = LEAKS.map(([, line]) => line).join('\n');
const leak = (i: number) => LEAKS[i % LEAKS.length]![1];

describe('a secret on any path never reaches any object', () => {
  it('capture, edit, import, hook capture and MCP capture: git cat-file -p of every object holds none of them', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    // CLI capture: every field.
    const id = memOk(dir, box.env, ['capture', 'decisions', `Deploy creds ${leak(11)}`, '-m', allLeaks, '--spec', leak(5), '--phase', leak(6), '--tags', `t-${TOKEN}`]);
    // Edit: summary, body and tags.
    memOk(dir, box.env, ['edit', id, '--summary', `Rotated ${leak(10)}`, '-m', `${allLeaks}\nedited`, '--tags', `e-${TOKEN}`]);
    // Import: every field, and one git-mem does not know.
    const line = JSON.stringify({ namespace: 'research', summary: `Imported ${leak(5)}`, body: allLeaks, spec: leak(6), phase: leak(7), relates_to: [leak(8)], author: `Eve ${leak(9)}`, source: leak(0), tags: [`t-${TOKEN}`], extra_field: allLeaks });
    memOk(dir, box.env, ['import', '-'], `${line}\n`);
    // Hooks: a prompt marker, the transcript at PreCompact, the last reply at Stop.
    expect(await hookRun(dir, box.env, 'UserPromptSubmit', { prompt: `[remember] the deploy uses these:\n${allLeaks}`, transcript_path: path.join(box.root, 'none.jsonl') })).toBe(0);
    const transcript = path.join(box.root, 'session.jsonl');
    fs.writeFileSync(transcript, `${JSON.stringify({ type: 'user', message: { role: 'user', content: `[decision] Keep the staging credentials in the vault:\n${allLeaks}` } })}\n`);
    expect(await hookRun(dir, box.env, 'PreCompact', { transcript_path: transcript, trigger: 'manual', custom_instructions: null })).toBe(0);
    expect(await hookRun(dir, box.env, 'Stop', { transcript_path: path.join(box.root, 'none.jsonl'), stop_hook_active: false, last_assistant_message: `[learning] These leaked in the build log:\n${allLeaks}` })).toBe(0);
    // MCP capture.
    const reply = await mcpCapture(dir, box.env, { namespace: 'learnings', summary: `MCP ${leak(3)}`, body: allLeaks, tags: [`m-${TOKEN}`] });
    expect(reply).toContain('captured');

    const sources = new Set((JSON.parse(memOk(dir, box.env, ['list', '--json'])) as Listed[]).map((m) => m.source ?? 'cli'));
    expect([...sources].sort()).toEqual(expect.arrayContaining(['hook:PreCompact', 'hook:Stop', 'hook:UserPromptSubmit']));
    const objects = everyObject(dir, box.env);
    expect(objects).toContain('[REDACTED:');
    for (const [secret] of LEAKS) expect(objects, secret).not.toContain(secret);
  });
});

describe('import is all or nothing, and idempotent', () => {
  function lines(n: number): string {
    return Array.from({ length: n }, (_, i) => JSON.stringify({ namespace: i % 2 ? 'decisions' : 'learnings', summary: `Imported memory ${i}`, body: `Body ${i}` })).join('\n') + '\n';
  }

  it('a kill -9 at any moment leaves no memory or all of them; running it again adds nothing', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const file = path.join(box.root, 'in.jsonl');
    fs.writeFileSync(file, lines(2000));
    for (const delay of [10, 25, 40, 60, 80, 120, 250, 600]) {
      const child = spawn(BIN, ['import', file], { cwd: dir, env: box.env, stdio: 'ignore' });
      const closed = new Promise((r) => child.on('close', r));
      await new Promise((r) => setTimeout(r, delay));
      child.kill('SIGKILL');
      await closed;
      const count = list(dir, box.env).length;
      expect([0, 2000], `after a kill at ${delay} ms`).toContain(count);
    }
    memOk(dir, box.env, ['import', file]);
    expect(list(dir, box.env).length).toBe(2000);
    expect(memOk(dir, box.env, ['import', file])).toBe('imported 0 memories, 2000 already present');
    expect(list(dir, box.env).length).toBe(2000);
    expect(mem(dir, box.env, ['import', '-'], { input: lines(1) }).stdout.trim()).toBe('imported 0 memories, 1 already present');
  });
});

describe('edit and resolve keep what they do not change', () => {
  it('round-trips unknown front-matter fields and an unreadable timestamp untouched', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const note = '---\nid: 0123456789abcdef\ntype: decisions\ntimestamp: sometime last week\nsummary: Hand-written memory\npriority: high\ncustom_note: keep me\nreview:\n  by: ada\n  done: false\n---\n\nBody.\n';
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', note, 'HEAD']);
    memOk(dir, box.env, ['edit', '0123', '--summary', 'Hand-written memory, edited']);
    memOk(dir, box.env, ['resolve', '0123']);
    const after = git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
    expect(after).toContain('priority: high');
    expect(after).toContain('custom_note: keep me');
    expect(after).toMatch(/review:\n {2}by: ada\n {2}done: false/);
    expect(after).toContain('timestamp: sometime last week');
    expect(after).toContain('summary: Hand-written memory, edited');
    expect(after).toContain('status: resolved');
  });
});

describe('times compare as times, whichever index answers', () => {
  it('orders memories created within the same second by their milliseconds, in list and export alike', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const at = (created: string, summary: string) => JSON.stringify({ namespace: 'decisions', summary, created, updated: created });
    memOk(dir, box.env, ['import', '-'], `${at('2026-01-01T00:00:00.500Z', 'Half a second later')}\n${at('2026-01-01T00:00:00Z', 'On the second')}\n`);
    const exported = memOk(dir, box.env, ['export']).split('\n').map((l) => JSON.parse(l).summary);
    expect(exported).toEqual(['On the second', 'Half a second later']);
    expect(list(dir, box.env).map((m) => m.summary)).toEqual(['Half a second later', 'On the second']);
    expect(JSON.parse(memOk(dir, box.env, ['list', '--since', '2026-01-01T00:00:00Z', '--json'])).length).toBe(2);
  });
});

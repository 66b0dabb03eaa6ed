/** git mem mcp, driven by a plain JSON-RPC client over stdio against the compiled binary. */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { git, makeRepo, memOk, sandbox } from './helpers.ts';

interface Reply {
  id: number | null;
  result?: { content?: Array<{ type: string; text: string }>; isError?: boolean; tools?: Array<{ name: string; description: string; inputSchema: { required?: string[] } }>; protocolVersion?: string };
  error?: { code: number; message: string };
}

/** A client: sends one line at a time and waits for the reply with its id. */
function client(cwd: string, env: NodeJS.ProcessEnv) {
  const child: ChildProcessWithoutNullStreams = spawn('git', ['mem', 'mcp'], { cwd, env });
  onTestFinished(() => {
    child.kill();
  });
  let buffered = '';
  const waiting = new Map<number | null, (r: Reply) => void>();
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const reply = JSON.parse(buffered.slice(0, nl)) as Reply;
      buffered = buffered.slice(nl + 1);
      waiting.get(reply.id)?.(reply);
      waiting.delete(reply.id);
    }
  });
  let next = 1;
  return {
    raw(line: string, id: number | null): Promise<Reply> {
      return new Promise((resolve) => {
        waiting.set(id, resolve);
        child.stdin.write(`${line}\n`);
      });
    },
    request(method: string, params?: unknown): Promise<Reply> {
      const id = next++;
      return this.raw(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }), id);
    },
    notify(method: string): void {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
    async call(name: string, args: Record<string, unknown>): Promise<{ text: string; isError: boolean }> {
      const r = await this.request('tools/call', { name, arguments: args });
      return { text: r.result?.content?.[0]?.text ?? '', isError: Boolean(r.result?.isError) };
    },
  };
}

describe('git mem mcp', () => {
  it('negotiates the protocol, lists its tools, and answers each through the same services as the CLI', async () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    fs.writeFileSync(path.join(dir, 'upload.ts'), 'retry()\nbackoff()\n');
    git(dir, box.env, ['add', '.']);
    git(dir, box.env, ['commit', '-qm', 'Add the upload']);
    const c = client(dir, box.env);

    const init = await c.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } });
    expect(init.result?.protocolVersion).toBe('2025-06-18');
    const other = await c.request('initialize', { protocolVersion: '1999-01-01' });
    expect(other.result?.protocolVersion).toBe('2025-11-25');
    c.notify('notifications/initialized');
    expect((await c.request('ping')).result).toEqual({});

    const tools = (await c.request('tools/list')).result!.tools!;
    expect(tools.map((t) => t.name)).toEqual(['recall', 'hydrate', 'capture', 'list', 'edit', 'resolve', 'forget', 'blame']);
    for (const t of tools) expect(Buffer.byteLength(t.description)).toBeLessThan(2048);
    expect(tools.find((t) => t.name === 'recall')!.inputSchema.required).toEqual(['query']);

    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const captured = await c.call('capture', { namespace: 'decisions', summary: 'Retry uploads with exponential backoff', body: `Jitter avoids a herd. token ${token}`, tags: ['upload'] });
    expect(captured.text).toMatch(/^captured decisions:[0-9a-f]{7}:[0-9a-f]{10} \(redacted: github_token\)$/);
    const id = captured.text.split(' ')[1]!;
    expect((await c.call('capture', { namespace: 'decisions', summary: 'retry uploads with exponential backoff' })).text).toMatch(/^already stored as /);

    const recalled = await c.call('recall', { query: 'how do we retry uploads', mode: 'lexical' });
    expect(recalled.isError).toBe(false);
    expect(recalled.text).toContain(id);
    expect(recalled.text).toContain('Retry uploads with exponential backoff');
    expect(recalled.text).not.toContain('bm25f');
    const explained = await c.call('recall', { query: 'how do we retry uploads', mode: 'lexical', explain: true });
    expect(explained.text).toMatch(/\n {4}retri: summary tf 1 \([\d.]+\)/);
    expect(explained.text).toMatch(/\n {4}bm25f [\d.]+; placement head ×1; score [\d.]+/);

    const full = await c.call('hydrate', { id });
    expect(full.text).toContain('Jitter avoids a herd. token [REDACTED:github_token]');
    expect(full.text).toContain('Add the upload');
    expect((await c.call('hydrate', { id, level: 'files' })).text).toContain('backoff()');

    expect((await c.call('list', { namespace: 'decisions' })).text).toContain(id);
    expect((await c.call('blame', { file: 'upload.ts', line: 2 })).text).toMatch(/Retry uploads .* line 2$/m);

    // edit: only the fields given change, through the same service as git mem edit (redaction included).
    const edited = await c.call('edit', { id, summary: 'Retry uploads with backoff and jitter', body: `Tuned. ${token}`, tags: ['upload', 'retry'] });
    expect(edited.text).toBe(`edited ${id}`);
    const after = JSON.parse(memOk(dir, box.env, ['show', id, '--json'])) as { summary: string; body: string; tags: string[]; status: string };
    expect(after).toMatchObject({ summary: 'Retry uploads with backoff and jitter', body: 'Tuned. [REDACTED:github_token]', tags: ['upload', 'retry'], status: 'active' });
    expect((await c.call('edit', { id })).isError).toBe(true);
    expect((await c.call('edit', { id, status: 'done' })).text).toMatch(/'status' must be one of active, resolved, archived/);

    // capture with status, spec, phase and paths.
    const planned = await c.call('capture', { namespace: 'progress', summary: 'Upload retries ported', status: 'resolved', spec: 'uploads-v2', phase: 'implementation', paths: ['upload.ts:1-2'] });
    const plannedId = planned.text.split(' ')[1]!;
    const stored = JSON.parse(memOk(dir, box.env, ['show', plannedId, '--json'])) as Record<string, unknown>;
    expect(stored).toMatchObject({ status: 'resolved', spec: 'uploads-v2', phase: 'implementation', paths: ['upload.ts:1-2'] });
    memOk(dir, box.env, ['forget', plannedId]);
    expect((await c.call('resolve', { id })).text).toMatch(/^resolved /);
    expect((await c.call('list', { status: 'resolved' })).text).toContain('[resolved]');
    expect((await c.call('forget', { id })).text).toMatch(/^forgot /);
    expect((await c.call('list', {})).text).toBe('No memories.');
  });

  it('answers bad input with one line, never a crash', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const c = client(dir, box.env);
    expect((await c.raw('this is not json', null)).error?.code).toBe(-32700);
    expect((await c.request('no/such/method')).error?.code).toBe(-32601);
    expect((await c.request('tools/call', { name: 'nope', arguments: {} })).error?.message).toMatch(/no tool named 'nope'/);
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['recall', {}, /'query' is required/],
      ['recall', { query: 'x', limit: 0 }, /'limit' must be a whole number/],
      ['recall', { query: 'x', mode: 'psychic' }, /'mode' must be one of/],
      ['recall', { query: 'x', explain: 'yes' }, /'explain' must be true or false/],
      ['capture', { namespace: 'nonsense', summary: 'x' }, /unknown namespace 'nonsense'/],
      ['capture', { namespace: 'decisions', summary: 'x'.repeat(101) }, /over the limit of 100/],
      ['hydrate', { id: 'zz' }, /is not a memory id/],
      ['forget', { id: 'abcd1234' }, /no memory matches/],
      ['blame', { file: 'missing.txt' }, /cannot blame missing.txt/],
    ];
    for (const [name, args, message] of cases) {
      const r = await c.call(name, args);
      expect(r.isError, `${name} ${JSON.stringify(args)}`).toBe(true);
      expect(r.text, `${name} ${JSON.stringify(args)}`).toMatch(message);
      expect(r.text.includes('\n')).toBe(false);
    }
    // Still serving.
    expect((await c.request('ping')).result).toEqual({});
  });
});

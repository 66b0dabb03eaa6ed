/**
 * A fake of OpenAI's APIs on loopback, for driving Codex (Responses API) and Copilot CLI
 * (chat completions) offline; the Anthropic one for Claude Code is ../claude/fake-api.ts.
 *
 * - POST /v1/responses (and /responses): a server-sent-events stream: response.created, per
 *   output item response.output_item.added, response.output_text.delta (text),
 *   response.output_item.done (a message, a function_call, or a custom_tool_call for a
 *   free-form tool such as Codex's apply_patch), then response.completed.
 * - POST /v1/chat/completions (and /chat/completions): chunks of `chat.completion.chunk`
 *   (content, then tool_calls), a last chunk with finish_reason `stop` or `tool_calls`, and
 *   `[DONE]`; one JSON completion when the request did not ask for a stream.
 * - GET …/models: a list naming the scripted model; anything else a small JSON answer, logged
 *   in `others`.
 *
 * Replies are scripted per test: `script(...)` queues replies for the agent loop (requests that
 * offer tools); side requests (titles, summaries) get `side`. Every request body is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TextItem {
  type: 'text';
  text: string;
}
export interface CallItem {
  type: 'call';
  name: string;
  /** Arguments: an object is sent as JSON; a string as is (a free-form tool's input). */
  args: Record<string, unknown> | string;
  /** Responses API: a custom (free-form) tool call rather than a function call. */
  custom?: boolean;
  /** Responses API: the namespace of an MCP tool (`mcp__gitmem`). */
  namespace?: string;
}
export type Item = TextItem | CallItem;
export type Reply = string | Item[];
export type Responder = (request: RecordedRequest) => Reply;

export interface RecordedRequest {
  seq: number;
  api: 'responses' | 'chat';
  body: Record<string, unknown>;
  kind: 'main' | 'side';
  reply?: Item[];
}

export const text = (t: string): TextItem => ({ type: 'text', text: t });
export const call = (name: string, args: Record<string, unknown> | string, extra: Partial<CallItem> = {}): CallItem => ({ type: 'call', name, args, ...extra });

/** Every string in a request body, joined: instructions, messages, tool outputs. */
export function requestText(body: unknown): string {
  const out: string[] = [];
  (function walk(v: unknown, key: string): void {
    if (typeof v === 'string') {
      if (key !== 'tools') out.push(v);
    } else if (Array.isArray(v)) for (const x of v) walk(x, key);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) if (k !== 'tools') walk(x, k);
  })(body, '');
  return out.join('\n');
}

/** The names of the tools a request offers (function names, MCP namespaces' tools included). */
export function toolNames(body: Record<string, unknown>): string[] {
  const names: string[] = [];
  for (const t of (body.tools as Array<Record<string, unknown>> | undefined) ?? []) {
    const fn = t.function as { name?: string } | undefined;
    if (typeof t.name === 'string') names.push(t.name);
    else if (fn?.name) names.push(fn.name);
    for (const inner of (t.tools as Array<{ name?: string }> | undefined) ?? []) if (inner.name) names.push(`${t.name ?? ''}.${inner.name}`);
  }
  return names;
}

let counter = 0;
const id = (prefix: string) => `${prefix}_fake${String(++counter).padStart(6, '0')}`;

export class FakeOpenAI {
  readonly requests: RecordedRequest[] = [];
  readonly others: Array<{ method: string; url: string; body: string }> = [];
  private readonly queue: Array<Reply | Responder> = [];
  fallback: Responder = () => 'OK.';
  side: Responder = () => 'OK';
  /** Whether a request belongs to the agent loop (default: it offers tools). */
  isMain: (body: Record<string, unknown>) => boolean = (body) => Array.isArray(body.tools) && body.tools.length > 0;
  model = 'gpt-4.1';
  private server: http.Server | null = null;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  script(...replies: Array<Reply | Responder>): this {
    this.queue.push(...replies);
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  get main(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'main');
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          this.handle(req, res, Buffer.concat(chunks).toString('utf8'));
        } catch (err) {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { type: 'server_error', message: String(err) } }));
        }
      });
    });
    this.server.keepAliveTimeout = 1000;
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  close(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return Promise.resolve();
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse, raw: string): void {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const p = url.pathname.replace(/^\/v1/, '');
    if (req.method === 'POST' && (p === '/responses' || p === '/chat/completions')) {
      const body = JSON.parse(raw) as Record<string, unknown>;
      const recorded: RecordedRequest = { seq: this.requests.length, api: p === '/responses' ? 'responses' : 'chat', body, kind: this.isMain(body) ? 'main' : 'side' };
      this.requests.push(recorded);
      let reply: Reply;
      if (recorded.kind === 'main') {
        const next = this.queue.shift();
        reply = next === undefined ? this.fallback(recorded) : typeof next === 'function' ? next(recorded) : next;
      } else reply = this.side(recorded);
      const items = typeof reply === 'string' ? [text(reply)] : reply;
      recorded.reply = items;
      if (recorded.api === 'responses') return this.responses(res, items);
      return body.stream === false ? json(200, this.completion(items)) : this.chatStream(res, items);
    }
    if (req.method === 'GET' && p === '/models') return json(200, { object: 'list', data: [{ id: this.model, object: 'model', created: 0, owned_by: 'fake' }] });
    this.others.push({ method: req.method ?? '', url: req.url ?? '', body: raw.slice(0, 2000) });
    return json(p.startsWith('/') ? 200 : 404, {});
  }

  private responses(res: http.ServerResponse, items: Item[]): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const send = (data: Record<string, unknown>) => res.write(`event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`);
    const responseId = id('resp');
    send({ type: 'response.created', response: { id: responseId, object: 'response', status: 'in_progress', output: [] } });
    const done: unknown[] = [];
    items.forEach((item, output_index) => {
      if (item.type === 'text') {
        const itemId = id('msg');
        send({ type: 'response.output_item.added', output_index, item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] } });
        const cut = Math.ceil(item.text.length / 2);
        for (const delta of [item.text.slice(0, cut), item.text.slice(cut)]) if (delta) send({ type: 'response.output_text.delta', item_id: itemId, output_index, content_index: 0, delta });
        const full = { type: 'message', id: itemId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: item.text, annotations: [] }] };
        send({ type: 'response.output_item.done', output_index, item: full });
        done.push(full);
      } else {
        const args = typeof item.args === 'string' ? item.args : JSON.stringify(item.args);
        const full = item.custom
          ? { type: 'custom_tool_call', id: id('ctc'), call_id: id('call'), name: item.name, input: args, status: 'completed' }
          : { type: 'function_call', id: id('fc'), call_id: id('call'), name: item.name, arguments: args, status: 'completed', ...(item.namespace ? { namespace: item.namespace } : {}) };
        send({ type: 'response.output_item.added', output_index, item: full });
        send({ type: 'response.output_item.done', output_index, item: full });
        done.push(full);
      }
    });
    send({ type: 'response.completed', response: { id: responseId, object: 'response', status: 'completed', output: done, usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } });
    res.end();
  }

  private toolCalls(items: Item[]) {
    return items.filter((i): i is CallItem => i.type === 'call').map((c, index) => ({ index, id: id('call'), type: 'function', function: { name: c.name, arguments: typeof c.args === 'string' ? c.args : JSON.stringify(c.args) } }));
  }

  private completion(items: Item[]) {
    const content = items.filter((i): i is TextItem => i.type === 'text').map((i) => i.text).join('\n\n');
    const calls = this.toolCalls(items);
    return {
      id: id('chatcmpl'),
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: this.model,
      choices: [{ index: 0, message: { role: 'assistant', content: content || null, ...(calls.length ? { tool_calls: calls.map(({ index: _, ...c }) => c) } : {}) }, finish_reason: calls.length ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    };
  }

  private chatStream(res: http.ServerResponse, items: Item[]): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    const chunkId = id('chatcmpl');
    const send = (delta: Record<string, unknown>, finish: string | null, extra: Record<string, unknown> = {}) =>
      res.write(`data: ${JSON.stringify({ id: chunkId, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: this.model, choices: [{ index: 0, delta, finish_reason: finish }], ...extra })}\n\n`);
    send({ role: 'assistant', content: '' }, null);
    const content = items.filter((i): i is TextItem => i.type === 'text').map((i) => i.text).join('\n\n');
    const cut = Math.ceil(content.length / 2);
    for (const piece of [content.slice(0, cut), content.slice(cut)]) if (piece) send({ content: piece }, null);
    const calls = this.toolCalls(items);
    if (calls.length) send({ tool_calls: calls }, null);
    send({}, calls.length ? 'tool_calls' : 'stop', { usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 } });
    res.write('data: [DONE]\n\n');
    res.end();
  }
}

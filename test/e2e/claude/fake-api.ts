/**
 * A fake of the Anthropic Messages API on loopback, for driving the real Claude
 * Code client offline (../../../../shared/claude-code-hooks.md, section 7).
 *
 * - POST /v1/messages answers with a server-sent-events stream (or one JSON
 *   message when the request did not ask for a stream): message_start, then per
 *   content block content_block_start / content_block_delta (text_delta or
 *   input_json_delta) / content_block_stop, then message_delta with stop_reason
 *   `end_turn` or `tool_use`, then message_stop.
 * - POST /v1/messages/count_tokens answers a rough count.
 * - Anything else gets a small JSON answer and is logged in `others`.
 *
 * Replies are scripted per test: `script(...)` queues replies for the agent's
 * main loop (requests that offer tools); everything else the client asks on the
 * side (titles, compaction summaries, quota probes) goes to `side`, which by
 * default answers with a short text. Every request body is recorded.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TextBlock {
  type: 'text';
  text: string;
}
export interface ToolUseBlock {
  type: 'tool_use';
  name: string;
  input: Record<string, unknown>;
  id?: string;
}
export type Block = TextBlock | ToolUseBlock;

/** A whole reply: a string is one text block. */
export type Reply = string | Block[];
export type Responder = (request: RecordedRequest, server: FakeAnthropic) => Reply;

export interface RecordedRequest {
  /** Order of arrival among all /v1/messages requests. */
  seq: number;
  path: string;
  headers: http.IncomingHttpHeaders;
  // The Messages API request, as sent.
  body: MessagesBody;
  /** `main` for the agent loop (the request offers tools), else `side`. */
  kind: 'main' | 'side';
  /** What the fake answered. */
  reply?: Block[];
}

export interface MessagesBody {
  model?: string;
  stream?: boolean;
  system?: string | Array<{ type: string; text?: string }>;
  messages?: Array<{ role: string; content: string | Array<Record<string, unknown>> }>;
  tools?: Array<{ name: string }>;
  max_tokens?: number;
  [key: string]: unknown;
}

export interface OtherRequest {
  method: string;
  url: string;
  body: string;
}

export const text = (t: string): TextBlock => ({ type: 'text', text: t });
export const toolUse = (name: string, input: Record<string, unknown>, id?: string): ToolUseBlock => ({ type: 'tool_use', name, input, ...(id ? { id } : {}) });
export const read = (file: string): ToolUseBlock => toolUse('Read', { file_path: file });
export const edit = (file: string, oldString: string, newString: string): ToolUseBlock => toolUse('Edit', { file_path: file, old_string: oldString, new_string: newString });
export const bash = (command: string): ToolUseBlock => toolUse('Bash', { command, description: 'Run a command' });

/** Everything in a request as one string: system prompt and every message's text, tool results included. */
export function requestText(body: MessagesBody): string {
  const parts: string[] = [];
  const sys = body.system;
  if (typeof sys === 'string') parts.push(sys);
  else if (Array.isArray(sys)) for (const b of sys) if (typeof b.text === 'string') parts.push(b.text);
  for (const m of body.messages ?? []) parts.push(contentText(m.content));
  return parts.join('\n');
}

/** Text of one message's content, recursing into tool results. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b: Record<string, unknown>) => {
      if (typeof b?.text === 'string') return b.text;
      if (b?.type === 'tool_result') return contentText(b.content);
      if (b?.type === 'tool_use') return JSON.stringify(b.input);
      return '';
    })
    .join('\n');
}

/** The last message of a request. */
export function lastMessage(body: MessagesBody): { role: string; content: string | Array<Record<string, unknown>> } | undefined {
  return body.messages?.at(-1);
}

function roughTokens(s: string): number {
  return Math.max(1, Math.ceil(s.length / 4));
}

let toolCounter = 0;

export class FakeAnthropic {
  readonly requests: RecordedRequest[] = [];
  readonly others: OtherRequest[] = [];
  /** Replies for the main loop, in order; when empty, `fallback` answers. */
  private readonly queue: Array<Reply | Responder> = [];
  fallback: Responder = () => 'OK.';
  /** Side requests (not the agent loop): compaction summaries, titles, probes. */
  side: Responder = (req) => (isCompaction(req.body) ? COMPACT_SUMMARY : 'OK');
  /** Set to make every /v1/messages answer an HTTP error (status, JSON body). */
  failWith: { status: number; type: string; message: string } | null = null;
  private server: http.Server | null = null;
  port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Queue replies for the next main-loop requests (a function sees the request). */
  script(...replies: Array<Reply | Responder>): this {
    this.queue.push(...replies);
    return this;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Main-loop requests only. */
  get main(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'main');
  }

  /** Forget what was recorded (the queue is kept). */
  reset(): void {
    this.requests.length = 0;
    this.others.length = 0;
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
          res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: String(err) } }));
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
    if (req.method === 'POST' && url.pathname === '/v1/messages/count_tokens') {
      let body: MessagesBody = {};
      try {
        body = JSON.parse(raw) as MessagesBody;
      } catch {}
      return json(200, { input_tokens: roughTokens(requestText(body)) });
    }
    if (req.method === 'POST' && url.pathname === '/v1/messages') {
      const body = JSON.parse(raw) as MessagesBody;
      const recorded: RecordedRequest = { seq: this.requests.length, path: url.pathname, headers: req.headers, body, kind: (body.tools?.length ?? 0) > 0 && !isCompaction(body) ? 'main' : 'side' };
      this.requests.push(recorded);
      if (this.failWith) return json(this.failWith.status, { type: 'error', error: { type: this.failWith.type, message: this.failWith.message } });
      let reply: Reply;
      if (recorded.kind === 'main') {
        const next = this.queue.shift();
        reply = next === undefined ? this.fallback(recorded, this) : typeof next === 'function' ? next(recorded, this) : next;
      } else {
        reply = this.side(recorded, this);
      }
      const blocks = (typeof reply === 'string' ? [text(reply)] : reply).map((b) => (b.type === 'tool_use' && !b.id ? { ...b, id: `toolu_fake${String(++toolCounter).padStart(4, '0')}` } : b));
      recorded.reply = blocks;
      return body.stream ? this.stream(res, body, blocks) : json(200, message(body, blocks, true));
    }
    this.others.push({ method: req.method ?? '', url: req.url ?? '', body: raw.slice(0, 2000) });
    // Harmless answers: an empty object for API-ish reads, 404 for the rest.
    if (req.method === 'HEAD') {
      res.writeHead(200).end();
      return;
    }
    return json(url.pathname.startsWith('/api/') || url.pathname.startsWith('/v1/') ? 200 : 404, {});
  }

  private stream(res: http.ServerResponse, body: MessagesBody, blocks: Block[]): void {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'request-id': `req_fake${Date.now()}` });
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    const start = message(body, [], false);
    send('message_start', { type: 'message_start', message: start });
    blocks.forEach((block, index) => {
      if (block.type === 'text') {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
        // Two deltas, so the client has to join them.
        const cut = Math.ceil(block.text.length / 2);
        for (const piece of [block.text.slice(0, cut), block.text.slice(cut)]) {
          if (piece) send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } });
        }
      } else {
        send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
        const json = JSON.stringify(block.input);
        const cut = Math.ceil(json.length / 2);
        for (const piece of [json.slice(0, cut), json.slice(cut)]) {
          if (piece) send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } });
        }
      }
      send('content_block_stop', { type: 'content_block_stop', index });
    });
    send('message_delta', { type: 'message_delta', delta: { stop_reason: stopReason(blocks), stop_sequence: null }, usage: { output_tokens: outputTokens(blocks) } });
    send('message_stop', { type: 'message_stop' });
    res.end();
  }
}

let messageCounter = 0;

function stopReason(blocks: Block[]): 'tool_use' | 'end_turn' {
  return blocks.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn';
}

function outputTokens(blocks: Block[]): number {
  return roughTokens(blocks.map((b) => (b.type === 'text' ? b.text : JSON.stringify(b.input))).join(''));
}

function message(body: MessagesBody, blocks: Block[], done: boolean) {
  return {
    id: `msg_fake${String(++messageCounter).padStart(6, '0')}`,
    type: 'message',
    role: 'assistant',
    model: body.model ?? 'claude-fake',
    content: blocks,
    stop_reason: done ? stopReason(blocks) : null,
    stop_sequence: null,
    usage: { input_tokens: roughTokens(requestText(body)), output_tokens: done ? outputTokens(blocks) : 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/** A compaction request: the client asks the model to summarise the conversation. */
export function isCompaction(body: MessagesBody): boolean {
  const last = lastMessage(body);
  return !!last && last.role === 'user' && /summary of the conversation|summarize (?:the|this) conversation|create a detailed summary/i.test(contentText(last.content));
}

export const COMPACT_SUMMARY = '<summary>\n1. Primary Request and Intent: the user asked for small changes to the project.\n2. Pending Tasks: none.\n</summary>';

/**
 * A fake of the OpenAI chat-completions API on loopback, for driving OpenCode offline (a provider
 * `@ai-sdk/openai-compatible` with `baseURL` pointing here).
 *
 * - POST /v1/chat/completions that offers tools: the agent loop. Answers with a server-sent-events
 *   stream of `chat.completion.chunk`s (text deltas or one `tool_calls` delta per call), then a
 *   chunk with `finish_reason` `stop` or `tool_calls`, then `[DONE]`. Replies are scripted per test
 *   (`script(...)`): a string, or parts built with `text()` and `call(name, args)`; when the script
 *   is empty the loop gets "Done.".
 * - The same without tools (OpenCode's title generation, summaries): a short text, never a
 *   scripted reply.
 * - GET /v1/models lists one model; anything else gets `{}` and is logged in `others`.
 *
 * Every request body is recorded (`main` for the loop).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Part = { type: 'text'; text: string } | { type: 'call'; name: string; args: Record<string, unknown> };
export type Reply = string | Part[];

export interface ChatMessage {
  role: string;
  content?: string | Array<{ type: string; text?: string }> | null;
  tool_calls?: Array<{ id: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ChatBody {
  model?: string;
  stream?: boolean;
  messages?: ChatMessage[];
  tools?: Array<{ type: string; function: { name: string } }>;
  [key: string]: unknown;
}

export interface RecordedRequest {
  seq: number;
  body: ChatBody;
  kind: 'main' | 'side';
  reply?: Part[];
  /** The ids the fake gave its tool calls, in order. */
  callIds: string[];
}

export const text = (t: string): Part => ({ type: 'text', text: t });
export const call = (name: string, args: Record<string, unknown>): Part => ({ type: 'call', name, args });

function contentText(content: ChatMessage['content']): string {
  if (typeof content === 'string') return content;
  return (content ?? []).map((c) => c.text ?? '').join('\n');
}

/** Every text in a request (system, user, assistant and tool messages) as one string. */
export function requestText(body: ChatBody): string {
  return (body.messages ?? []).map((m) => contentText(m.content)).join('\n');
}

/** The text of the tool message answering call `id`. */
export function toolResult(body: ChatBody, id: string): string {
  const m = (body.messages ?? []).find((x) => x.role === 'tool' && x.tool_call_id === id);
  if (!m) throw new Error(`no tool message for ${id}`);
  return contentText(m.content);
}

/** The system messages' text. */
export function systemText(body: ChatBody): string {
  return (body.messages ?? [])
    .filter((m) => m.role === 'system')
    .map((m) => contentText(m.content))
    .join('\n');
}

export class FakeChatCompletions {
  private server = http.createServer((req, res) => void this.handle(req, res));
  private queue: Reply[] = [];
  private calls = 0;
  readonly requests: RecordedRequest[] = [];
  readonly others: Array<{ method: string; url: string }> = [];
  url = '';

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  script(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  get main(): RecordedRequest[] {
    return this.requests.filter((r) => r.kind === 'main');
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const url = req.url ?? '';
    if (req.method === 'GET' && url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'fake-model', object: 'model', owned_by: 'test' }] }));
      return;
    }
    if (req.method !== 'POST' || !url.endsWith('/chat/completions')) {
      this.others.push({ method: req.method ?? '', url });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    let body: ChatBody = {};
    try {
      body = JSON.parse(raw) as ChatBody;
    } catch {
      // recorded as empty
    }
    const main = Array.isArray(body.tools) && body.tools.length > 0;
    const reply = main ? (this.queue.shift() ?? 'Done.') : 'Fake title';
    const parts = typeof reply === 'string' ? [text(reply)] : reply;
    const callIds = parts.filter((p) => p.type === 'call').map(() => `call_${++this.calls}`);
    this.requests.push({ seq: this.requests.length, body, kind: main ? 'main' : 'side', reply: parts, callIds });
    const base = { id: `chatcmpl-${this.requests.length}`, object: 'chat.completion.chunk', created: 1_800_000_000, model: body.model ?? 'fake-model' };
    const hasCalls = callIds.length > 0;
    if (!body.stream) {
      const content = parts.flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('');
      const tool_calls = parts.flatMap((p) => (p.type === 'call' ? [p] : [])).map((p, i) => ({ id: callIds[i], type: 'function', function: { name: p.name, arguments: JSON.stringify(p.args) } }));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ...base, object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content, ...(hasCalls ? { tool_calls } : {}) }, finish_reason: hasCalls ? 'tool_calls' : 'stop' }], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const send = (delta: Record<string, unknown>, finish: string | null = null) => res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`);
    send({ role: 'assistant', content: '' });
    let n = 0;
    for (const p of parts) {
      if (p.type === 'text') send({ content: p.text });
      else {
        send({ tool_calls: [{ index: n, id: callIds[n], type: 'function', function: { name: p.name, arguments: JSON.stringify(p.args) } }] });
        n++;
      }
    }
    send({}, hasCalls ? 'tool_calls' : 'stop');
    res.write(`data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 } })}\n\n`);
    res.write('data: [DONE]\n\n');
    res.end();
  }
}

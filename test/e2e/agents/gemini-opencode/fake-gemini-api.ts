/**
 * A fake of the Gemini API (generativelanguage v1beta) on loopback, for driving the real Gemini
 * CLI offline (`GOOGLE_GEMINI_BASE_URL`).
 *
 * - POST /v1beta/models/M:streamGenerateContent?alt=sse: the agent loop. Answers with server-sent
 *   events, one `data:` chunk per part, the last with `finishReason: STOP`. Replies are scripted
 *   per test (`script(...)`): a string, or parts built with `text()` and `call(name, args)`.
 *   When the script is empty the loop gets "Done.".
 * - POST /v1beta/models/M:generateContent: the CLI's side calls (the model router's classifier,
 *   the next-speaker check, summaries). A request in JSON mode always gets a JSON object (the
 *   classifier waits 90 s on anything else); never a scripted reply.
 * - POST …:countTokens answers a rough count; anything else a small JSON answer, logged in `others`.
 *
 * Every request body is recorded (`main` for the loop).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GeminiPart {
  text?: string;
  functionCall?: { name: string; args: Record<string, unknown>; id?: string };
  functionResponse?: { name: string; response: unknown; id?: string };
  [key: string]: unknown;
}

export interface GeminiBody {
  contents?: Array<{ role?: string; parts?: GeminiPart[] }>;
  systemInstruction?: { parts?: GeminiPart[] } | string;
  tools?: Array<{ functionDeclarations?: Array<{ name: string }> }>;
  generationConfig?: { responseMimeType?: string; [key: string]: unknown };
  [key: string]: unknown;
}

export interface RecordedRequest {
  seq: number;
  path: string;
  body: GeminiBody;
  kind: 'main' | 'side';
  reply?: GeminiPart[];
}

export type Reply = string | GeminiPart[];

export const text = (t: string): GeminiPart => ({ text: t });
export const call = (name: string, args: Record<string, unknown>): GeminiPart => ({ functionCall: { name, args } });

/** Every text a request holds, system instruction, prompts, model turns and tool results, as one string. */
export function requestText(body: GeminiBody): string {
  const out: string[] = [];
  const sys = body.systemInstruction;
  if (typeof sys === 'string') out.push(sys);
  else for (const p of sys?.parts ?? []) if (p.text) out.push(p.text);
  for (const c of body.contents ?? []) {
    for (const p of c.parts ?? []) {
      if (p.text) out.push(p.text);
      if (p.functionResponse) out.push(JSON.stringify(p.functionResponse.response));
    }
  }
  return out.join('\n');
}

/** The text of the request from the content holding the response of call `name` on (what the tool result brought). */
export function textAfterFunctionResponse(body: GeminiBody, name: string): string {
  const contents = body.contents ?? [];
  const i = contents.findIndex((c) => (c.parts ?? []).some((p) => p.functionResponse?.name === name));
  if (i < 0) throw new Error(`no functionResponse for ${name}`);
  return requestText({ contents: contents.slice(i) });
}

export class FakeGemini {
  private server = http.createServer((req, res) => void this.handle(req, res));
  private queue: Reply[] = [];
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

  /** Queues the agent loop's next replies, one per model call. */
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
    let body: GeminiBody = {};
    try {
      body = raw ? (JSON.parse(raw) as GeminiBody) : {};
    } catch {
      // not JSON: recorded as empty
    }
    const seq = this.requests.length;
    if (req.method === 'POST' && url.includes(':streamGenerateContent')) {
      const reply = this.queue.shift() ?? 'Done.';
      const parts = typeof reply === 'string' ? [text(reply)] : reply;
      this.requests.push({ seq, path: url, body, kind: 'main', reply: parts });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      parts.forEach((part, i) => {
        const last = i === parts.length - 1;
        res.write(`data: ${JSON.stringify(chunk([part], last))}\n\n`);
      });
      res.end();
      return;
    }
    if (req.method === 'POST' && url.includes(':generateContent')) {
      this.requests.push({ seq, path: url, body, kind: 'side' });
      const json = body.generationConfig?.responseMimeType === 'application/json';
      // The router's classifier and the next-speaker check read fields of a JSON object; every field they may look for is here.
      const answer = json ? JSON.stringify({ reasoning: 'simple', complexity_reasoning: 'simple', complexity_score: 5, model_choice: 'flash', next_speaker: 'user' }) : 'Summary.';
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(chunk([text(answer)], true)));
      return;
    }
    if (req.method === 'POST' && url.includes(':countTokens')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ totalTokens: Math.ceil(raw.length / 4) }));
      return;
    }
    this.others.push({ method: req.method ?? '', url });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{}');
  }
}

function chunk(parts: GeminiPart[], last: boolean): Record<string, unknown> {
  return {
    candidates: [{ content: { role: 'model', parts }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) }],
    usageMetadata: { promptTokenCount: 100, candidatesTokenCount: 10, totalTokenCount: 110 },
    modelVersion: 'gemini-2.5-flash',
  };
}

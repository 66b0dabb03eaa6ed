/**
 * The Model Context Protocol over stdio, as much as a tool-only server needs:
 * JSON-RPC 2.0, one message per line; initialize (the protocol version
 * negotiated), notifications/initialized, ping, tools/list, tools/call. Pure:
 * a message in, the reply out (or none, for a notification).
 *
 * Hand-written rather than @modelcontextprotocol/sdk: five methods do not
 * justify its dependencies in a binary whose every command starts in tens
 * of milliseconds.
 */

/** Newest first; a client asking for one of these gets it, any other the newest. */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'] as const;

export interface Tool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  /** Runs the tool; a thrown error with `exitCode` 2 (bad input) or any other becomes an isError result. */
  run(args: Record<string, unknown>): Promise<string>;
}

export interface ServerInfo {
  name: string;
  version: string;
  instructions: string;
}

type Id = string | number | null;
interface Reply {
  jsonrpc: '2.0';
  id: Id;
  result?: unknown;
  error?: { code: number; message: string };
}

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;

const fail = (id: Id, code: number, message: string): Reply => ({ jsonrpc: '2.0', id, error: { code, message } });
const ok = (id: Id, result: unknown): Reply => ({ jsonrpc: '2.0', id, result });

function firstLine(err: unknown): string {
  return (err instanceof Error ? err.message : String(err)).split('\n')[0] ?? 'failed';
}

/** The reply to a line over `maxBytes`, which is dropped unread: its id is not known. */
export function oversizedReply(maxBytes: number): Reply {
  return fail(null, INVALID_REQUEST, `message over ${maxBytes / (1024 * 1024)} MiB; not read (each message is one line under that)`);
}

/** The reply to one line of input, or null when none is due (a notification, a blank line). */
export async function handleLine(line: string, tools: readonly Tool[], info: ServerInfo): Promise<Reply | null> {
  if (!line.trim()) return null;
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return fail(null, PARSE_ERROR, 'not valid JSON');
  }
  if (!message || typeof message !== 'object' || Array.isArray(message)) return fail(null, INVALID_REQUEST, 'a request is a JSON object');
  const m = message as { jsonrpc?: unknown; id?: unknown; method?: unknown; params?: unknown };
  const isNotification = !('id' in m);
  // JSON-RPC 2.0: an id is a string, a number or null; a request with any other cannot be answered by its id.
  if (!isNotification && !(typeof m.id === 'string' || typeof m.id === 'number' || m.id === null)) return fail(null, INVALID_REQUEST, "'id' must be a string, a number or null");
  const id: Id = typeof m.id === 'string' || typeof m.id === 'number' ? m.id : null;
  if (m.jsonrpc !== '2.0' || typeof m.method !== 'string') return isNotification ? null : fail(id, INVALID_REQUEST, 'expected jsonrpc "2.0" and a method');
  const params = (m.params && typeof m.params === 'object' ? m.params : {}) as Record<string, unknown>;
  if (isNotification) return null; // notifications/initialized, notifications/cancelled: nothing to answer

  switch (m.method) {
    case 'initialize': {
      const asked = params.protocolVersion;
      const protocolVersion = (PROTOCOL_VERSIONS as readonly unknown[]).includes(asked) ? (asked as string) : PROTOCOL_VERSIONS[0];
      return ok(id, { protocolVersion, capabilities: { tools: { listChanged: false } }, serverInfo: { name: info.name, version: info.version }, instructions: info.instructions });
    }
    case 'ping':
      return ok(id, {});
    case 'tools/list':
      return ok(id, { tools: tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })) });
    case 'tools/call': {
      const tool = tools.find((t) => t.name === params.name);
      if (!tool) return fail(id, INVALID_PARAMS, `no tool named '${String(params.name)}'; tools: ${tools.map((t) => t.name).join(', ')}`);
      const args = params.arguments && typeof params.arguments === 'object' && !Array.isArray(params.arguments) ? (params.arguments as Record<string, unknown>) : {};
      try {
        return ok(id, { content: [{ type: 'text', text: await tool.run(args) }] });
      } catch (err) {
        // A tool's failure is the model's to read and act on, not a protocol error.
        return ok(id, { content: [{ type: 'text', text: firstLine(err) }], isError: true });
      }
    }
    default:
      return fail(id, METHOD_NOT_FOUND, `no method '${m.method}'`);
  }
}

/**
 * A short conversation with another program over JSON-RPC on its stdin and stdout, one JSON
 * message a line (what `codex app-server` speaks): start it, make calls in order, stop it. Any
 * failure (it cannot start, answers an error, does not answer in time) rejects with one line.
 */
import { spawn } from 'node:child_process';
import { GitMemError } from '../core/errors.ts';

export type RpcCall = (method: string, params: unknown) => Promise<unknown>;
export type RpcNotify = (method: string, params?: unknown) => void;

export async function withJsonRpc<T>(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }, talk: (call: RpcCall, notify: RpcNotify) => Promise<T>): Promise<T> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  let failure: Error | null = null;
  const failAll = (err: Error) => {
    failure ??= err;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  child.on('error', (err) => failAll(new GitMemError(`${command} could not run: ${err.message}`)));
  child.on('exit', (code) => failAll(new GitMemError(`${command} ${args.join(' ')} stopped (exit ${code})`)));
  let buffer = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffer += chunk;
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      const line = buffer.slice(0, i);
      buffer = buffer.slice(i + 1);
      let message: { id?: number; result?: unknown; error?: { message?: string } };
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      const w = message.id === undefined ? undefined : waiting.get(message.id);
      if (!w) continue;
      waiting.delete(message.id!);
      if (message.error) w.reject(new GitMemError(`${command}: ${message.error.message ?? 'error'}`));
      else w.resolve(message.result);
    }
  });
  let next = 0;
  const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
  const call: RpcCall = (method, params) =>
    new Promise((resolve, reject) => {
      if (failure) return reject(failure);
      const id = ++next;
      waiting.set(id, { resolve, reject });
      send({ jsonrpc: '2.0', id, method, params });
    });
  const notify: RpcNotify = (method, params) => send({ jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) });
  const timer = setTimeout(() => failAll(new GitMemError(`${command} ${args.join(' ')} did not answer within ${Math.round(options.timeoutMs / 1000)} s`)), options.timeoutMs);
  try {
    return await talk(call, notify);
  } finally {
    clearTimeout(timer);
    child.stdin.end();
    child.kill();
  }
}

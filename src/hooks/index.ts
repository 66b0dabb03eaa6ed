/**
 * `git mem hook <event>`: read the event JSON from stdin, let the client's seam
 * (agents/<client>/) make it one client-neutral event, run its use case, and
 * print only what that client's hook contract allows. Never throws and always
 * exits 0: a hook must never hurt the session. Failures are one line on stderr.
 */
import fs from 'node:fs';
import { AppContext } from '../context.ts';
import type { Io } from '../io/io.ts';
import { HOOK_EVENTS } from '../core/hook-events.ts';
import { hooksFor, isAgent } from '../agents/hooks.ts';
import { AGENTS, type AgentEvent, type AgentReply } from '../agents/event.ts';
import { HANDLERS } from './handlers.ts';
import { readHookInput } from './stdin.ts';

export async function runHook(eventName: string | undefined, io: Io, env: NodeJS.ProcessEnv, now: () => Date, agent?: string): Promise<void> {
  if (agent !== undefined && !isAgent(agent)) {
    io.err(`git-mem hook: unknown agent '${agent}'; expected ${AGENTS.join(', ')}`);
    return;
  }
  const client = await hooksFor(agent, env, process.cwd());
  if (!client) return;
  const event = client.event(eventName ?? '');
  if (!event) {
    io.err(`git-mem hook: unknown event '${eventName ?? ''}'; expected ${HOOK_EVENTS.slice(0, -1).join(', ')} or ${HOOK_EVENTS.at(-1)}`);
    return;
  }
  try {
    const input = client.parse(event, await readHookInput(process.stdin), env);
    const cwd = input.cwd && fs.existsSync(input.cwd) ? input.cwd : process.cwd();
    const ctx = new AppContext(cwd, env, io, now);
    const handler = HANDLERS[event] as (ctx: AppContext, input: AgentEvent) => Promise<AgentReply | null>;
    const reply = await handler(ctx, input);
    const text = client.render(event, reply, eventName ?? event);
    if (text) io.out(text);
  } catch (err) {
    io.err(`git-mem hook ${event}: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
  }
}

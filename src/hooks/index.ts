/**
 * `git mem hook <event>`: read the event JSON from stdin, run its handler, print
 * only what the hook contract allows. Never throws and always exits 0: a hook
 * must never hurt the session. Failures are one line on stderr.
 */
import fs from 'node:fs';
import { AppContext } from '../context.ts';
import type { Io } from '../io/io.ts';
import { HOOK_EVENTS, normalizeEvent } from '../core/hook-events.ts';
import { HANDLERS } from './handlers.ts';
import { renderReply } from './output.ts';
import { type HookInput, parseHookInput } from './input.ts';
import type { HookReply } from './output.ts';
import { readHookInput } from './stdin.ts';

export async function runHook(eventName: string | undefined, io: Io, env: NodeJS.ProcessEnv, now: () => Date): Promise<void> {
  const event = normalizeEvent(eventName ?? '');
  if (!event) {
    io.err(`git-mem hook: unknown event '${eventName ?? ''}'; expected ${HOOK_EVENTS.slice(0, -1).join(', ')} or ${HOOK_EVENTS.at(-1)}`);
    return;
  }
  try {
    const input = parseHookInput(event, await readHookInput(process.stdin));
    const cwd = input.cwd && fs.existsSync(input.cwd) ? input.cwd : process.cwd();
    const ctx = new AppContext(cwd, env, io, now);
    const handler = HANDLERS[event] as (ctx: AppContext, input: HookInput) => Promise<HookReply | null>;
    const reply = await handler(ctx, input);
    const text = renderReply(event, reply);
    if (text) io.out(text);
  } catch (err) {
    io.err(`git-mem hook ${event}: ${(err instanceof Error ? err.message : String(err)).split('\n')[0]}`);
  }
}

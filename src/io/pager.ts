/**
 * Long output through git's pager, the way git pages its own: only when
 * stdout is a terminal; the pager is GIT_PAGER, else core.pager, else PAGER,
 * else `less`; an empty pager or `cat` means none; `pager.mem = false`
 * turns it off for git mem (as `pager.<cmd>` does for git's commands, and a
 * string there names the pager); LESS defaults to FRX (quit if one screen,
 * keep colours, leave the screen as is) and LV to -c.
 *
 * Usage in a command handler, instead of `ctx.io.out(text)`:
 *   await outPaged(ctx, text);
 */
import { spawn } from 'node:child_process';
import type { Io } from './io.ts';

export interface PagerConfig {
  /** core.pager */
  corePager?: string;
  /** pager.mem: a boolean word or a pager command. */
  pagerMem?: string;
}

/** The pager command to run, or null for none. Pure. */
export function pagerCommand(env: NodeJS.ProcessEnv, stdoutIsTTY: boolean, config: PagerConfig): string | null {
  if (!stdoutIsTTY) return null;
  const mem = config.pagerMem?.trim();
  if (mem !== undefined && /^(false|no|off|0)$/i.test(mem)) return null;
  let pager = env.GIT_PAGER;
  if (pager === undefined && mem !== undefined && mem !== '' && !/^(true|yes|on|1)$/i.test(mem)) pager = mem;
  if (pager === undefined) pager = config.corePager;
  if (pager === undefined) pager = env.PAGER;
  if (pager === undefined) pager = 'less';
  pager = pager.trim();
  return pager === '' || pager === 'cat' ? null : pager;
}

/** The pager's environment: LESS=FRX and LV=-c unless already set, as git does. */
export function pagerEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c', GIT_PAGER_IN_USE: 'true' };
}

/** Writes `text` through the pager; resolves when the pager exits (the user may quit it early). */
export function runPager(command: string, text: string, env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, env: pagerEnv(env), stdio: ['pipe', 'inherit', 'inherit'] });
    child.on('error', reject);
    child.on('close', () => resolve());
    child.stdin.on('error', () => {}); // EPIPE when the user quits before reading everything
    child.stdin.end(text.endsWith('\n') ? text : `${text}\n`);
  });
}

/** Prints `text` to stdout, through the pager when git would use one. */
export async function outPaged(ctx: { io: Io; env: NodeJS.ProcessEnv; settings: { pager: PagerConfig } }, text: string): Promise<void> {
  const command = ctx.io.stdoutIsTTY ? pagerCommand(ctx.env, true, ctx.settings.pager) : null;
  if (!command) {
    ctx.io.out(text);
    return;
  }
  try {
    await runPager(command, text, ctx.env);
  } catch {
    ctx.io.out(text); // the pager could not start: print as is
  }
}

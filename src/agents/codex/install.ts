/**
 * `git mem init --codex`: git-mem's hooks in the project's `.codex/hooks.json`, its MCP server
 * as `[mcp_servers.gitmem]` in the project's `.codex/config.toml` (Codex reads both in a project
 * it trusts), and the hooks marked trusted: Codex skips an untrusted hook silently, and keeps
 * trust per hook as a hash in the user's config.toml, which git-mem asks `codex app-server` to
 * write (as Codex's own /hooks review does). Without codex on PATH, one line says what to do.
 * `--remove` takes out exactly git-mem's hooks, its MCP table and (codex on PATH) the trust entries it wrote.
 */
import path from 'node:path';
import fs from 'node:fs';
import { errorMessage, UsageError } from '../../core/errors.ts';
import type { HookEvent } from '../../core/hook-events.ts';
import { withJsonRpc } from '../../io/json-rpc.ts';
import type { Deps } from '../../services/deps.ts';
import { findOnPath } from '../../services/doctor.ts';
import { worktreeTop } from '../../stores/git/repo.ts';
import { type AgentInstall, agentHookCommand, type HookGroup, isOurs, mergeHookGroups, readJsonObject, removeEmptyDirs, writeIfChanged, writeJsonConfig } from '../hook-command.ts';
import { CODEX_EVENTS } from './hooks.ts';

export type CodexInstallDeps = Pick<Deps, 'repo' | 'env'>;

const MATCHERS: Partial<Record<HookEvent, string>> = { SessionStart: 'startup|resume|clear|compact', PreToolUse: 'Bash|apply_patch' };
const TIMEOUTS: Partial<Record<HookEvent, number>> = { SessionStart: 30, UserPromptSubmit: 30, PreToolUse: 10, PreCompact: 60, Stop: 30 };

/** The MCP server's name in Codex: its tools are `mcp__gitmem__<tool>`. */
export const CODEX_SERVER = 'gitmem';
const TABLE = `[mcp_servers.${CODEX_SERVER}]`;

export function codexFiles(ctx: Pick<Deps, 'repo'>): { hooks: string; config: string; top: string } {
  const top = worktreeTop(ctx.repo);
  if (!top) throw new UsageError('git mem init --codex needs a working tree');
  return { hooks: path.join(top, '.codex', 'hooks.json'), config: path.join(top, '.codex', 'config.toml'), top };
}

export function codexHookGroups(command: (e: HookEvent) => string): Record<string, HookGroup[]> {
  return Object.fromEntries(CODEX_EVENTS.map((e) => [e, [{ ...(MATCHERS[e] ? { matcher: MATCHERS[e] } : {}), hooks: [{ type: 'command', command: command(e), timeout: TIMEOUTS[e] ?? 30 }] }]]));
}

/**
 * config.toml text with git-mem's `[mcp_servers.gitmem]` table (and the comment line git-mem
 * writes above it) taken out, then (unless `remove`) added at the end. Other tables and comments
 * stay as written. Pure.
 */
export function mergeCodexConfig(text: string, remove: boolean): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    const header = /^\s*\[/.test(line);
    if (header) skipping = line.trim() === TABLE || line.trim().startsWith(`[mcp_servers.${CODEX_SERVER}.`);
    if (skipping) continue;
    out.push(line);
  }
  while (out.length && out.at(-1)!.trim() === '') out.pop();
  if (out.length && out.at(-1) === COMMENT) out.pop();
  while (out.length && out.at(-1)!.trim() === '') out.pop();
  if (!remove) out.push(...(out.length ? [''] : []), COMMENT, TABLE, 'command = "git-mem"', 'args = ["mcp"]');
  return out.length ? `${out.join('\n')}\n` : '';
}
const COMMENT = '# git-mem: memory in git notes (git mem init --codex; git mem init --codex --remove takes it out)';

interface ListedHook {
  key: string;
  command?: string;
  sourcePath?: string;
  currentHash: string;
  trustStatus: string;
}

/**
 * Marks git-mem's hooks in `hooksFile` trusted through `codex app-server` (hooks/list, then
 * config/batchWrite of each hook's current hash under hooks.state): the number trusted, or a
 * line saying why not.
 */
export async function trustCodexHooks(ctx: CodexInstallDeps, codex: string, top: string, hooksFile: string): Promise<{ trusted: number; note?: string }> {
  return withJsonRpc(codex, ['app-server'], { cwd: top, env: ctx.env, timeoutMs: 20_000 }, async (call, notify) => {
    await call('initialize', { clientInfo: { name: 'git-mem', version: '1' } });
    notify('initialized');
    const listed = (await call('hooks/list', { cwds: [top] })) as { data?: Array<{ hooks?: ListedHook[] }> };
    const hooks = (listed.data ?? []).flatMap((d) => d.hooks ?? []).filter((h) => isOurs(h.command) && path.resolve(h.sourcePath ?? '') === path.resolve(hooksFile));
    if (!hooks.length) return { trusted: 0, note: `Codex does not load ${path.relative(top, hooksFile)} yet: it reads a project's .codex/ only once the project is trusted (codex asks on first start); then run git mem init --codex again` };
    const untrusted = hooks.filter((h) => h.trustStatus !== 'trusted');
    if (untrusted.length) {
      const state = Object.fromEntries(untrusted.map((h) => [h.key, { trusted_hash: h.currentHash }]));
      await call('config/batchWrite', { edits: [{ keyPath: 'hooks.state', value: state, mergeStrategy: 'upsert' }] });
    }
    return { trusted: untrusted.length };
  });
}

/**
 * Takes out the trust entries git-mem's hooks in `hooksFile` were given (each key whose hash is
 * the hook's own): hooks.state read through `codex app-server`, written back without them. The
 * number taken out.
 */
export async function untrustCodexHooks(ctx: CodexInstallDeps, codex: string, top: string, hooksFile: string): Promise<number> {
  return withJsonRpc(codex, ['app-server'], { cwd: top, env: ctx.env, timeoutMs: 20_000 }, async (call, notify) => {
    await call('initialize', { clientInfo: { name: 'git-mem', version: '1' } });
    notify('initialized');
    const listed = (await call('hooks/list', { cwds: [top] })) as { data?: Array<{ hooks?: ListedHook[] }> };
    const ours = new Map((listed.data ?? []).flatMap((d) => d.hooks ?? []).filter((h) => isOurs(h.command) && path.resolve(h.sourcePath ?? '') === path.resolve(hooksFile)).map((h) => [h.key, h.currentHash]));
    if (!ours.size) return 0;
    const read = (await call('config/read', {})) as { config?: { hooks?: { state?: Record<string, { trusted_hash?: string }> } } };
    const state = read.config?.hooks?.state ?? {};
    const kept = Object.fromEntries(Object.entries(state).filter(([key, v]) => !(ours.has(key) && v?.trusted_hash === ours.get(key))));
    const removed = Object.keys(state).length - Object.keys(kept).length;
    if (removed) await call('config/batchWrite', { edits: [{ keyPath: 'hooks.state', value: kept, mergeStrategy: 'replace' }] });
    return removed;
  });
}

export async function installCodex(ctx: CodexInstallDeps, remove: boolean): Promise<AgentInstall> {
  const files = codexFiles(ctx);
  const notes: string[] = [];
  const codex = findOnPath(ctx.env, 'codex');
  if (remove && codex && fs.existsSync(files.hooks)) {
    // While the hooks are still there to be listed: the trust git-mem gave them goes with them.
    try {
      await untrustCodexHooks(ctx, codex, files.top, files.hooks);
    } catch (err) {
      notes.push(`could not take the hooks' trust entries out of Codex's config (${errorMessage(err).split('\n')[0]}); they trust nothing but git-mem's own commands`);
    }
  }
  const hooks = mergeHookGroups(readJsonObject(files.hooks), remove ? {} : codexHookGroups((e) => agentHookCommand('codex', e, true)), remove);
  const hooksChanged = writeJsonConfig(files.hooks, hooks, remove);
  const configText = fs.existsSync(files.config) ? fs.readFileSync(files.config, 'utf8') : '';
  const nextConfig = mergeCodexConfig(configText, remove);
  const configChanged = writeIfChanged(files.config, nextConfig === '' && remove ? null : nextConfig);
  if (remove) removeEmptyDirs(path.dirname(files.hooks));
  else {
    const review = 'Codex runs only hooks it trusts: open codex here and approve git-mem\'s hooks in /hooks';
    if (!codex) notes.push(`codex is not on PATH, so the hooks are not marked trusted: ${review}`);
    else {
      try {
        const r = await trustCodexHooks(ctx, codex, files.top, files.hooks);
        if (r.note) notes.push(r.note);
      } catch (err) {
        notes.push(`could not mark the hooks trusted (${errorMessage(err).split('\n')[0]}): ${review}`);
      }
    }
  }
  return {
    agent: 'codex',
    name: 'Codex CLI',
    files: [
      { file: files.hooks, changed: hooksChanged, what: 'hooks' },
      { file: files.config, changed: configChanged, what: `MCP server ${CODEX_SERVER}` },
    ],
    events: remove ? [] : [...CODEX_EVENTS],
    notes,
  };
}

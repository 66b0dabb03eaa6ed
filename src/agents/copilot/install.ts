/**
 * `git mem init --copilot`: git-mem's hooks in `.github/hooks/git-mem.json` (Copilot runs every
 * `*.json` there, in a trusted folder) and its MCP server in `.mcp.json`, which Copilot reads.
 * Other entries in either file stay as they were; `--remove` takes out exactly git-mem's.
 */
import path from 'node:path';
import { UsageError } from '../../core/errors.ts';
import type { HookEvent } from '../../core/hook-events.ts';
import type { Deps } from '../../services/deps.ts';
import { worktreeTop } from '../../stores/git/repo.ts';
import { type AgentInstall, agentHookCommand, isOurs, mergeMcpServer, readJsonObject, removeEmptyDirs, writeJsonConfig } from '../hook-command.ts';
import { COPILOT_EVENTS } from './hooks.ts';

export type CopilotInstallDeps = Pick<Deps, 'repo'>;

const TIMEOUTS: Partial<Record<HookEvent, number>> = { SessionStart: 30, UserPromptSubmit: 30, PreToolUse: 10, Stop: 30, SessionEnd: 5 };

interface CopilotHandler {
  type: string;
  bash?: string;
  [key: string]: unknown;
}

export function copilotFiles(ctx: CopilotInstallDeps): { hooks: string; mcp: string } {
  const top = worktreeTop(ctx.repo);
  if (!top) throw new UsageError('git mem init --copilot needs a working tree');
  return { hooks: path.join(top, '.github', 'hooks', 'git-mem.json'), mcp: path.join(top, '.mcp.json') };
}

/** A Copilot hooks file with git-mem's handlers removed, then (unless `remove`) added once. Pure. */
export function mergeCopilotHooks(config: Record<string, unknown>, command: (e: HookEvent) => string, remove: boolean): Record<string, unknown> {
  const hooks = { ...((config.hooks as Record<string, CopilotHandler[]> | undefined) ?? {}) };
  for (const event of Object.keys(hooks)) {
    const kept = (Array.isArray(hooks[event]) ? hooks[event] : []).filter((h) => !isOurs(h?.bash) && !isOurs(h?.command));
    if (kept.length) hooks[event] = kept;
    else delete hooks[event];
  }
  if (!remove) for (const event of COPILOT_EVENTS) hooks[event] = [...(hooks[event] ?? []), { type: 'command', bash: command(event), timeoutSec: TIMEOUTS[event] ?? 30 }];
  if (Object.keys(hooks).length === 0) {
    const { hooks: _, version: __, ...rest } = config;
    return rest;
  }
  return { version: 1, ...config, hooks };
}

export function installCopilot(ctx: CopilotInstallDeps, remove: boolean): AgentInstall {
  const files = copilotFiles(ctx);
  const hooks = mergeCopilotHooks(readJsonObject(files.hooks), (e) => agentHookCommand('copilot', e, true), remove);
  const mcp = mergeMcpServer(readJsonObject(files.mcp), 'git-mem', remove);
  const written = [
    { file: files.hooks, changed: writeJsonConfig(files.hooks, hooks, remove), what: 'hooks' },
    { file: files.mcp, changed: writeJsonConfig(files.mcp, mcp, remove), what: 'MCP server git-mem' },
  ];
  if (remove) removeEmptyDirs(path.dirname(files.hooks), path.dirname(path.dirname(files.hooks)));
  return {
    agent: 'copilot',
    name: 'Copilot CLI',
    files: written,
    events: remove ? [] : [...COPILOT_EVENTS],
    notes: remove ? [] : ['Copilot loads repository hooks only in a folder it trusts (it asks on first start, or copilot --trust-folder)'],
  };
}

/** `git mem init`: the JSON it prints and the text, for the repository set-up and for `--claude`. */
import type { ChalkInstance } from 'chalk';
import type { InstallResult } from '../agents/claude/install.ts';
import type { AgentInstall } from '../agents/hook-command.ts';
import type { ClientInstall } from '../agents/config-install.ts';
import type { InitResult } from '../services/sync.ts';
import { clientInstallJson, renderClientInstall } from './agent-install.ts';

export interface InitJson {
  remote: string | null;
  steps: { key: string; value: string; changed: boolean }[];
}

export function initJson(r: InitResult): InitJson {
  return { remote: r.remote, steps: r.steps.map((s) => ({ key: s.key, value: s.value, changed: s.changed })) };
}

export function renderInit(r: InitResult, c: ChalkInstance): string {
  const lines = r.steps.map((s) => `${s.changed ? c.green('added  ') : c.dim('present')}  ${s.key} ${s.value}`);
  if (!r.remote) lines.push(c.dim('no remote configured: add one with git remote add, then run git mem init again'));
  return lines.join('\n');
}

export interface ClaudeInstallJson {
  file: string;
  scope: string;
  changed: boolean;
  events: string[];
  hooks: Record<string, unknown>;
  warning?: string;
}

export function claudeInstallJson(r: InstallResult): ClaudeInstallJson {
  return { file: r.file, scope: r.scope, changed: r.changed, events: [...r.events], hooks: r.hooks, ...(r.warning ? { warning: r.warning } : {}) };
}

export function renderClaudeInstall(r: InstallResult, removed: boolean): string {
  if (removed) return `${r.changed ? 'removed git-mem hooks from' : 'no git-mem hooks in'} ${r.file}`;
  return `${r.changed ? 'installed git-mem hooks in' : 'unchanged:'} ${r.file} (${r.scope}): ${r.events.join(', ')}`;
}

/** What `git mem init --codex`, `--copilot` did, and (with `--agents`) each client set up. */
export interface AgentInstallJson {
  agent: string;
  name: string;
  files: Array<{ file: string; changed: boolean; what: string }>;
  events: string[];
  notes: string[];
}

export function agentInstallJson(r: AgentInstall): AgentInstallJson {
  return { agent: r.agent, name: r.name, files: r.files.map((f) => ({ ...f })), events: [...r.events], notes: [...r.notes] };
}

export function renderAgentInstall(r: AgentInstall, removed: boolean): string {
  const lines = r.files.map((f) => (removed ? `${f.changed ? 'removed git-mem from' : 'no git-mem in'} ${f.file} (${r.name} ${f.what})` : `${f.changed ? 'installed' : 'unchanged:'} ${r.name} ${f.what} in ${f.file}`));
  if (!removed && r.events.length) lines.push(`${r.name} events: ${r.events.join(', ')}`);
  return lines.join('\n');
}

/** What `git mem init --claude`, `--codex`... `--agents` did, client by client, in the order of AGENTS. */
export interface InitClientsRun {
  installs: Array<{ kind: 'claude'; result: InstallResult } | { kind: 'config'; result: ClientInstall } | { kind: 'agent'; result: AgentInstall }>;
  /** --remove: the entries were taken out. */
  removed: boolean;
}

/** The warnings and notes of the installs, for stderr (each after `git-mem: `). */
export function initClientsNotices(r: InitClientsRun): string[] {
  return r.installs.flatMap((i) => (i.kind === 'claude' ? (i.result.warning ? [i.result.warning] : []) : i.kind === 'config' ? i.result.warnings : i.result.notes));
}

/** One client named: its JSON alone, as `--claude` always printed it; `list` (--agents, or several): a list. */
export function initClientsJson(r: InitClientsRun, list: boolean): unknown {
  const each = r.installs.map((i) => (i.kind === 'claude' ? claudeInstallJson(i.result) : i.kind === 'config' ? clientInstallJson(i.result) : agentInstallJson(i.result)));
  return each.length === 1 && !list ? each[0] : each;
}

export function renderInitClients(r: InitClientsRun): string {
  return r.installs
    .map((i) => (i.kind === 'claude' ? renderClaudeInstall(i.result, r.removed) : i.kind === 'config' ? renderClientInstall(i.result) : renderAgentInstall(i.result, r.removed)))
    .join('\n');
}

/**
 * The agent clients git-mem speaks to, each a seam of its own under agents/<client>/: its hook
 * events, input and reply (hooks.ts), its transcript (transcript.ts), install and removal
 * (install.ts), its doctor check (doctor.ts). What is shared by all lives beside this file.
 */
import type { Check, DoctorDeps } from '../services/doctor.ts';
import { checkClaude } from './claude/doctor.ts';
import { claudeHooks } from './claude/hooks.ts';
import { AGENTS, type AgentHooks, type AgentId } from './event.ts';
import { checkGemini } from './gemini/doctor.ts';
import { geminiHooks } from './gemini/hooks.ts';
import { checkOpencode } from './opencode/doctor.ts';
import { opencodeHooks } from './opencode/hooks.ts';

export interface AgentClient {
  id: AgentId;
  /** As people call it. */
  name: string;
  hooks: AgentHooks;
  doctor(ctx: DoctorDeps): Check[];
}

export const CLIENTS: Partial<Record<AgentId, AgentClient>> = {
  claude: { id: 'claude', name: 'Claude Code', hooks: claudeHooks, doctor: checkClaude },
  gemini: { id: 'gemini', name: 'Gemini CLI', hooks: geminiHooks, doctor: checkGemini },
  opencode: { id: 'opencode', name: 'OpenCode', hooks: opencodeHooks, doctor: checkOpencode },
};

export function isAgent(name: string): name is AgentId {
  return (AGENTS as readonly string[]).includes(name);
}

/**
 * Which client runs a hook: the one its entry names (`git-mem hook --agent codex …`), else the one
 * the environment shows (Copilot CLI runs the hooks of .claude/settings.json too, with
 * COPILOT_CLI=1, and reads only its own reply format), else Claude Code.
 */
export function hooksFor(agent: string | undefined, env: NodeJS.ProcessEnv): AgentHooks {
  const named = agent && isAgent(agent) ? CLIENTS[agent] : undefined;
  if (named) return named.hooks;
  const copilot = CLIENTS.copilot;
  if (env.COPILOT_CLI === '1' && copilot) return copilot.hooks;
  return claudeHooks;
}

/** Every client's doctor check, in the order of AGENTS. */
export function agentChecks(ctx: DoctorDeps): Check[] {
  return AGENTS.flatMap((id) => CLIENTS[id]?.doctor(ctx) ?? []);
}

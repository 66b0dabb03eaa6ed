/**
 * The agent clients git-mem speaks to, each a seam of its own under agents/<client>/: its hook
 * events, input and reply (hooks.ts), its transcript (transcript.ts), install and removal
 * (install.ts), its doctor check (doctor.ts). What is shared by all lives beside this file.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Check, DoctorDeps } from '../services/doctor.ts';
import { checkClaude } from './claude/doctor.ts';
import { claudeHooks } from './claude/hooks.ts';
import { checkCodex } from './codex/doctor.ts';
import { codexHooks } from './codex/hooks.ts';
import { checkCopilot } from './copilot/doctor.ts';
import { copilotHooks } from './copilot/hooks.ts';
import { AGENTS, type AgentHooks, type AgentId } from './event.ts';

export interface AgentClient {
  id: AgentId;
  /** As people call it. */
  name: string;
  /** Its program, looked for on PATH by `git mem init --agents`. */
  program: string;
  hooks: AgentHooks;
  doctor(ctx: DoctorDeps): Check[] | Promise<Check[]>;
}

export const CLIENTS: Record<AgentId, AgentClient> = {
  claude: { id: 'claude', name: 'Claude Code', program: 'claude', hooks: claudeHooks, doctor: checkClaude },
  copilot: { id: 'copilot', name: 'Copilot CLI', program: 'copilot', hooks: copilotHooks, doctor: checkCopilot },
  codex: { id: 'codex', name: 'Codex CLI', program: 'codex', hooks: codexHooks, doctor: checkCodex },
};

export function isAgent(name: string): name is AgentId {
  return (AGENTS as readonly string[]).includes(name);
}

/** Where git-mem's own Copilot hooks live, relative to the project. */
const COPILOT_HOOKS = path.join('.github', 'hooks', 'git-mem.json');

/**
 * Which client runs a hook: the one its entry names (`git-mem hook --agent codex …`), else the one
 * the environment shows (Copilot CLI runs the hooks of .claude/settings.json too, with
 * COPILOT_CLI=1, and reads only its own reply format), else Claude Code. Null when the call is a
 * second copy to leave alone: Copilot running Claude Code's hooks where git-mem's own Copilot
 * hooks are installed too (they answer it).
 */
export function hooksFor(agent: string | undefined, env: NodeJS.ProcessEnv, cwd: string): AgentHooks | null {
  if (agent && isAgent(agent)) return CLIENTS[agent].hooks;
  if (env.COPILOT_CLI === '1') {
    const project = env.COPILOT_PROJECT_DIR || cwd;
    return fs.existsSync(path.join(project, COPILOT_HOOKS)) ? null : copilotHooks;
  }
  return claudeHooks;
}

/** Every client's doctor check, in the order of AGENTS. */
export async function agentChecks(ctx: DoctorDeps): Promise<Check[]> {
  const out: Check[] = [];
  for (const id of AGENTS) out.push(...(await CLIENTS[id].doctor(ctx)));
  return out;
}

/**
 * The agent clients git-mem speaks to, each a seam of its own under agents/<client>/: its hook
 * events, input and reply (hooks.ts), its transcript (transcript.ts), install and removal
 * (install.ts), its doctor check (doctor.ts). What is shared by all lives beside this file.
 */
import type { Check, DoctorDeps } from '../services/doctor.ts';
import { checkClaude } from './claude/doctor.ts';
import { claudeHooks } from './claude/hooks.ts';
import { checkCodex } from './codex/doctor.ts';
import { codexHooks } from './codex/hooks.ts';
import { checkCopilot } from './copilot/doctor.ts';
import { copilotHooks } from './copilot/hooks.ts';
import { AGENTS, type AgentHooks, type AgentId } from './event.ts';
import { checkGemini } from './gemini/doctor.ts';
import { geminiHooks } from './gemini/hooks.ts';
import { checkOpencode } from './opencode/doctor.ts';
import { opencodeHooks } from './opencode/hooks.ts';

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
  gemini: { id: 'gemini', name: 'Gemini CLI', program: 'gemini', hooks: geminiHooks, doctor: checkGemini },
  opencode: { id: 'opencode', name: 'OpenCode', program: 'opencode', hooks: opencodeHooks, doctor: checkOpencode },
};

export { isAgent } from './hooks.ts';

/** Every client's doctor check, in the order of AGENTS. */
export async function agentChecks(ctx: DoctorDeps): Promise<Check[]> {
  const out: Check[] = [];
  for (const id of AGENTS) out.push(...(await CLIENTS[id].doctor(ctx)));
  return out;
}

/**
 * Which client's seam answers a hook call. Only the seams' hook modules are loaded here (no
 * install or doctor code): this is on every hook's path, where startup time is the budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import { AGENTS, type AgentHooks, type AgentId } from './event.ts';

/** Each client's seam, loaded when its hook runs (only one is ever needed in a process). */
const HOOKS: Record<AgentId, () => Promise<AgentHooks>> = {
  claude: async () => (await import('./claude/hooks.ts')).claudeHooks,
  copilot: async () => (await import('./copilot/hooks.ts')).copilotHooks,
  codex: async () => (await import('./codex/hooks.ts')).codexHooks,
  gemini: async () => (await import('./gemini/hooks.ts')).geminiHooks,
  opencode: async () => (await import('./opencode/hooks.ts')).opencodeHooks,
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
export async function hooksFor(agent: string | undefined, env: NodeJS.ProcessEnv, cwd: string): Promise<AgentHooks | null> {
  if (agent && isAgent(agent)) return HOOKS[agent]();
  if (env.COPILOT_CLI === '1') {
    const project = env.COPILOT_PROJECT_DIR || cwd;
    return fs.existsSync(path.join(project, COPILOT_HOOKS)) ? null : HOOKS.copilot();
  }
  return HOOKS.claude();
}


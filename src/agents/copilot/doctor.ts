/** `git mem doctor` for Copilot CLI: git-mem's hooks in .github/hooks/git-mem.json (every event) and its MCP server in .mcp.json. */
import fs from 'node:fs';
import { errorMessage } from '../../core/errors.ts';
import { type Check, type DoctorDeps, findOnPath } from '../../services/doctor.ts';
import { isOurServer, isOurs } from '../hook-command.ts';
import { COPILOT_EVENTS } from './hooks.ts';
import { copilotFiles } from './install.ts';

export function checkCopilot(ctx: DoctorDeps): Check[] {
  let files: { hooks: string; mcp: string };
  try {
    files = copilotFiles(ctx);
  } catch {
    return [];
  }
  const fix = 'git mem init --copilot';
  if (!fs.existsSync(files.hooks)) return findOnPath(ctx.env, 'copilot') ? [{ id: 'copilot-hooks', status: 'info', message: 'Copilot CLI is on PATH; git-mem\'s Copilot hooks are not installed (Copilot still runs those in .claude/settings.json)', fix }] : [];
  let config: { hooks?: Record<string, Array<{ bash?: unknown; command?: unknown }>> };
  try {
    config = JSON.parse(fs.readFileSync(files.hooks, 'utf8'));
  } catch (err) {
    return [{ id: 'copilot-hooks', status: 'fail', message: `${files.hooks} is not valid JSON (${errorMessage(err)}): Copilot ignores it`, fix: `repair it, then ${fix}` }];
  }
  const events = Object.entries(config.hooks ?? {}).filter(([, list]) => Array.isArray(list) && list.some((h) => isOurs(h?.bash) || isOurs(h?.command))).map(([e]) => e);
  const missing = COPILOT_EVENTS.filter((e) => !events.includes(e));
  let mcp = false;
  try {
    mcp = isOurServer((JSON.parse(fs.readFileSync(files.mcp, 'utf8')) as { mcpServers?: Record<string, unknown> }).mcpServers?.['git-mem']);
  } catch {
    mcp = false;
  }
  const problems = [...(missing.length ? [`missing events: ${missing.join(', ')}`] : []), ...(mcp ? [] : [`no git-mem MCP server in ${files.mcp}`])];
  if (problems.length) return [{ id: 'copilot-hooks', status: 'warn', message: `Copilot CLI hooks in ${files.hooks}: ${problems.join('; ')}`, fix }];
  return [{ id: 'copilot-hooks', status: 'ok', message: `Copilot CLI hooks installed in ${files.hooks}, all ${COPILOT_EVENTS.length} events; MCP server in ${files.mcp}` }];
}

/** `git mem doctor` for Gemini CLI: git-mem's hooks and MCP server in its project and user settings. */
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { errorMessage } from '../../core/errors.ts';
import { type Check, type DoctorDeps, findOnPath } from '../../services/doctor.ts';
import { readJsonObject } from '../hook-command.ts';
import { GEMINI_EVENTS } from './hooks.ts';
import { GEMINI_MCP, geminiEventsInstalled, type GeminiScope, geminiSettingsFile } from './install.ts';

export function checkGemini(ctx: DoctorDeps): Check[] {
  const checks: Check[] = [];
  for (const scope of ['project', 'user'] as GeminiScope[]) {
    let file: string;
    try {
      file = geminiSettingsFile(ctx, scope);
    } catch {
      continue; // the project scope needs a working tree
    }
    if (!fs.existsSync(file)) continue;
    const fix = `git mem init --gemini${scope === 'user' ? ' --scope user' : ''}`;
    let settings: Record<string, unknown>;
    try {
      settings = readJsonObject(file);
    } catch (err) {
      checks.push({ id: 'gemini-hooks', status: 'fail', message: `${errorMessage(err)}: Gemini CLI ignores it`, fix: `repair it, then ${fix}` });
      continue;
    }
    const events = geminiEventsInstalled(settings);
    const mcp = (settings.mcpServers as Record<string, unknown> | undefined)?.gitmem;
    if (!events.length && mcp === undefined) continue;
    const problems: string[] = [];
    const missing = Object.keys(GEMINI_EVENTS).filter((e) => !events.includes(e));
    if (missing.length) problems.push(`missing events: ${missing.join(', ')}`);
    if (mcp === undefined) problems.push('no MCP server gitmem');
    // The project's hooks name git-mem by PATH (teams commit the file).
    if (scope === 'project' && events.length && !findOnPath(ctx.env)) problems.push('its hooks run git-mem from PATH, but git-mem is not on PATH');
    else if (!isDeepStrictEqual(mcp, GEMINI_MCP)) problems.push('the MCP server gitmem is not git mem mcp');
    checks.push(
      problems.length
        ? { id: 'gemini-hooks', status: 'warn', message: `Gemini CLI settings ${file} (${scope}): ${problems.join('; ')}`, fix }
        : { id: 'gemini-hooks', status: 'ok', message: `Gemini CLI hooks (${Object.keys(GEMINI_EVENTS).length} events) and MCP server installed in ${file} (${scope})` },
    );
  }
  if (!checks.length) checks.push({ id: 'gemini-hooks', status: 'info', message: 'Gemini CLI hooks are not installed', fix: 'git mem init --gemini' });
  return checks;
}

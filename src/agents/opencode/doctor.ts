/** `git mem doctor` for OpenCode: git-mem's plugin and MCP server, in the project and the user's config. */
import fs from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { errorMessage } from '../../core/errors.ts';
import { type Check, type DoctorDeps, findOnPath } from '../../services/doctor.ts';
import { readJsonObject } from '../hook-command.ts';
import { isOurPlugin, OPENCODE_MCP, type OpencodeFiles, opencodeFiles, type OpencodeScope } from './install.ts';
import { opencodePlugin } from './plugin.ts';

export function checkOpencode(ctx: DoctorDeps): Check[] {
  const checks: Check[] = [];
  for (const scope of ['project', 'user'] as OpencodeScope[]) {
    let files: OpencodeFiles;
    try {
      files = opencodeFiles(ctx, scope);
    } catch {
      continue; // the project scope needs a working tree
    }
    const fix = `git mem init --opencode${scope === 'user' ? ' --scope user' : ''}`;
    const plugin = isOurPlugin(files.plugin);
    let mcp: unknown;
    try {
      mcp = (readJsonObject(files.config).mcp as Record<string, unknown> | undefined)?.gitmem;
    } catch (err) {
      checks.push({ id: 'opencode', status: 'fail', message: `${errorMessage(err)}: OpenCode cannot start`, fix: `repair it, then ${fix}` });
      continue;
    }
    if (!plugin && mcp === undefined) continue;
    const problems: string[] = [];
    if (!plugin) problems.push(`no git-mem plugin at ${files.plugin}`);
    else {
      const text = fs.readFileSync(files.plugin, 'utf8');
      // Written by another git-mem version: the same plugin for whichever command it runs.
      const command = /const GIT_MEM = ("[^"\n]*");/.exec(text)?.[1];
      const runs = command ? (JSON.parse(command) as string) : '';
      if (!command || text !== opencodePlugin(runs)) problems.push(`${files.plugin} was written by another git-mem version`);
      else if (runs === 'git-mem' && !findOnPath(ctx.env)) problems.push('the plugin runs git-mem from PATH, but git-mem is not on PATH');
    }
    if (mcp === undefined) problems.push(`no MCP server gitmem in ${files.config}`);
    else if (!isDeepStrictEqual(mcp, OPENCODE_MCP)) problems.push(`the MCP server gitmem in ${files.config} is not git mem mcp`);
    checks.push(problems.length ? { id: 'opencode', status: 'warn', message: `OpenCode (${scope}): ${problems.join('; ')}`, fix } : { id: 'opencode', status: 'ok', message: `OpenCode plugin ${files.plugin} and MCP server in ${files.config} (${scope})` });
  }
  if (!checks.length) checks.push({ id: 'opencode', status: 'info', message: 'the OpenCode plugin is not installed', fix: 'git mem init --opencode' });
  return checks;
}

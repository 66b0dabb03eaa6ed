/**
 * `git mem doctor` for Codex CLI: git-mem's hooks in .codex/hooks.json (every event), its MCP
 * table in .codex/config.toml, and, when codex is on PATH, whether Codex trusts the hooks (it
 * skips untrusted ones silently), asked of `codex app-server` (hooks/list reads, never writes).
 */
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../core/errors.ts';
import { withJsonRpc } from '../../io/json-rpc.ts';
import { type Check, type DoctorDeps, findOnPath } from '../../services/doctor.ts';
import { isOurs } from '../hook-command.ts';
import { CODEX_EVENTS } from './hooks.ts';
import { CODEX_SERVER, codexFiles } from './install.ts';

async function untrustedHooks(ctx: DoctorDeps, codex: string, top: string, hooksFile: string): Promise<{ listed: number; untrusted: number }> {
  return withJsonRpc(codex, ['app-server'], { cwd: top, env: ctx.env, timeoutMs: 15_000 }, async (call, notify) => {
    await call('initialize', { clientInfo: { name: 'git-mem', version: '1' } });
    notify('initialized');
    const listed = (await call('hooks/list', { cwds: [top] })) as { data?: Array<{ hooks?: Array<{ command?: string; sourcePath?: string; trustStatus?: string }> }> };
    const ours = (listed.data ?? []).flatMap((d) => d.hooks ?? []).filter((h) => isOurs(h.command) && path.resolve(h.sourcePath ?? '') === path.resolve(hooksFile));
    return { listed: ours.length, untrusted: ours.filter((h) => h.trustStatus !== 'trusted').length };
  });
}

export async function checkCodex(ctx: DoctorDeps): Promise<Check[]> {
  let files: { hooks: string; config: string; top: string };
  try {
    files = codexFiles(ctx);
  } catch {
    return [];
  }
  const fix = 'git mem init --codex';
  const codex = findOnPath(ctx.env, 'codex');
  if (!fs.existsSync(files.hooks)) return codex ? [{ id: 'codex-hooks', status: 'info', message: "Codex CLI is on PATH; git-mem's Codex hooks are not installed", fix }] : [];
  let config: { hooks?: Record<string, Array<{ hooks?: Array<{ command?: unknown }> }>> };
  try {
    config = JSON.parse(fs.readFileSync(files.hooks, 'utf8'));
  } catch (err) {
    return [{ id: 'codex-hooks', status: 'fail', message: `${files.hooks} is not valid JSON (${errorMessage(err)}): Codex ignores it`, fix: `repair it, then ${fix}` }];
  }
  const events = Object.entries(config.hooks ?? {}).filter(([, groups]) => Array.isArray(groups) && groups.some((g) => Array.isArray(g?.hooks) && g.hooks.some((h) => isOurs(h?.command)))).map(([e]) => e);
  const missing = CODEX_EVENTS.filter((e) => !events.includes(e));
  const toml = fs.existsSync(files.config) ? fs.readFileSync(files.config, 'utf8') : '';
  const problems = [...(missing.length ? [`missing events: ${missing.join(', ')}`] : []), ...(toml.includes(`[mcp_servers.${CODEX_SERVER}]`) ? [] : [`no [mcp_servers.${CODEX_SERVER}] in ${files.config}`])];
  let trust = 'codex is not on PATH: whether Codex trusts them is not checked';
  if (codex) {
    try {
      const t = await untrustedHooks(ctx, codex, files.top, files.hooks);
      if (t.listed === 0) problems.push('Codex does not load them: the project is not trusted in Codex yet');
      else if (t.untrusted) problems.push(`${t.untrusted} of them not trusted by Codex, which skips them silently`);
      else trust = 'trusted by Codex';
    } catch (err) {
      trust = `could not ask codex whether it trusts them (${errorMessage(err).split('\n')[0]})`;
    }
  }
  if (problems.length) return [{ id: 'codex-hooks', status: 'warn', message: `Codex CLI hooks in ${files.hooks}: ${problems.join('; ')}`, fix }];
  return [{ id: 'codex-hooks', status: 'ok', message: `Codex CLI hooks installed in ${files.hooks}, all ${CODEX_EVENTS.length} events, ${trust}; MCP server in ${files.config}` }];
}

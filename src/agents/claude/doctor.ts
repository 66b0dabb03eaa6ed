/** `git mem doctor` for Claude Code: git-mem's hooks in each settings scope, every event there, each pointing at a git-mem that runs. */
import fs from 'node:fs';
import path from 'node:path';
import { errorMessage } from '../../core/errors.ts';
import { HOOK_EVENTS, type HookEvent, normalizeEvent } from '../../core/hook-events.ts';
import { selfCommand } from '../../io/self.ts';
import { type Check, type DoctorDeps, isExecutable, realpath, shellWords } from '../../services/doctor.ts';
import { hookCommandLine, MINIMAL_PATH, OURS, SCOPES, type Scope, settingsFile } from './install.ts';

interface InstalledHook {
  event: string;
  command: string;
}

export function installedHooks(settings: unknown): InstalledHook[] {
  const hooks = (settings as { hooks?: Record<string, unknown> } | null)?.hooks;
  if (!hooks || typeof hooks !== 'object') return [];
  const out: InstalledHook[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    for (const g of groups as Array<{ hooks?: unknown }>) {
      for (const h of Array.isArray(g?.hooks) ? (g.hooks as Array<{ command?: unknown }>) : []) {
        if (typeof h?.command === 'string' && OURS.test(h.command)) out.push({ event, command: h.command });
      }
    }
  }
  return out;
}

/** What a hook command runs: the git-mem executable it names, or null when it goes through `git mem` (PATH). */
export function hookTarget(command: string): string | null {
  const words = shellWords(command);
  // Found through PATH when the hook runs: `git mem hook X` or `git-mem hook X`.
  if ((words[0] === 'git' && words[1] === 'mem') || words[0] === 'git-mem') return null;
  return words[0] ?? null;
}

export function checkClaude(ctx: DoctorDeps): Check[] {
  const checks: Check[] = [];
  let any = false;
  for (const scope of SCOPES as readonly Scope[]) {
    let file: string;
    try {
      file = settingsFile(ctx, scope);
    } catch {
      continue; // project and local scopes need a working tree
    }
    if (!fs.existsSync(file)) continue;
    let settings: unknown;
    try {
      settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      checks.push({ id: 'claude-hooks', status: 'fail', message: `${file} is not valid JSON (${errorMessage(err)}): Claude Code ignores it`, fix: `repair ${file}, then git mem init --claude --scope ${scope}` });
      continue;
    }
    const hooks = installedHooks(settings);
    if (hooks.length === 0) continue;
    any = true;
    const fix = `git mem init --claude${scope === 'project' ? '' : ` --scope ${scope}`}`;
    const events = new Set(hooks.map((h) => normalizeEvent(h.event)).filter(Boolean));
    const missing = HOOK_EVENTS.filter((e) => !events.has(e));
    const problems: string[] = [];
    if (missing.length) problems.push(`missing events: ${missing.join(', ')}`);
    let fail = false;
    for (const h of hooks) {
      const target = hookTarget(h.command);
      const event = normalizeEvent(h.event);
      if (target === null) {
        if (!MINIMAL_PATH.some((d) => fs.existsSync(path.join(d, 'git-mem')))) problems.push(`${h.event} runs git-mem from PATH, but git-mem is not in ${MINIMAL_PATH.join(':')}, where a session started outside a shell looks`);
      } else if (!isExecutable(target)) {
        problems.push(`${h.event} runs ${target}, which does not exist or is not executable`);
        fail = true;
      } else if (event && h.command !== hookCommandLine(event as HookEvent, scope) && realpath(target) !== realpath(selfCommand()[0]!)) {
        problems.push(`${h.event} runs ${target}, not this git-mem (${selfCommand()[0]})`);
      }
    }
    const unique = [...new Set(problems)];
    if (unique.length === 0) checks.push({ id: 'claude-hooks', status: 'ok', message: `Claude Code hooks installed in ${file} (${scope}), all ${HOOK_EVENTS.length} events, pointing at this git-mem` });
    else checks.push({ id: 'claude-hooks', status: fail ? 'fail' : 'warn', message: `Claude Code hooks in ${file} (${scope}): ${unique.join('; ')}`, fix });
  }
  if (!any) checks.push({ id: 'claude-hooks', status: 'info', message: 'Claude Code hooks are not installed', fix: 'git mem init --claude (project), --scope local or --scope user' });
  return checks;
}

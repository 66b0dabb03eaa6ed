/**
 * Installing git-mem into OpenCode: the plugin .opencode/plugins/git-mem.js (agents/opencode/plugin.ts)
 * and the MCP server `gitmem` in opencode.json, merged beside what the file holds; with --scope user,
 * the same under ~/.config/opencode/. Removal takes out the plugin (when it is still git-mem's) and
 * the MCP entry (when it is still what git-mem wrote).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { UsageError } from '../../core/errors.ts';
import { selfCommand } from '../../io/self.ts';
import type { Deps } from '../../services/deps.ts';
import { worktreeTop } from '../../stores/git/repo.ts';
import { type ClientInstall, type InstalledFile, mergeNamedEntry } from '../config-install.ts';
import { onMinimalPath, readJsonObject, writeIfChanged } from '../hook-command.ts';
import { opencodePlugin, PLUGIN_MARK } from './plugin.ts';

export type OpencodeInstallDeps = Pick<Deps, 'env' | 'repo'>;
export type OpencodeScope = 'project' | 'user';

/** The MCP server entry, as opencode.json's `mcp` holds it. */
export const OPENCODE_MCP = { type: 'local', command: ['git', 'mem', 'mcp'] };

export interface OpencodeFiles {
  plugin: string;
  config: string;
}

export function opencodeFiles(ctx: OpencodeInstallDeps, scope: OpencodeScope): OpencodeFiles {
  if (scope === 'user') {
    const dir = path.join(ctx.env.XDG_CONFIG_HOME || path.join(ctx.env.HOME || os.homedir(), '.config'), 'opencode');
    return { plugin: path.join(dir, 'plugins', 'git-mem.js'), config: path.join(dir, 'opencode.json') };
  }
  const top = worktreeTop(ctx.repo);
  if (!top) throw new UsageError('OpenCode project files need a working tree; use --scope user');
  return { plugin: path.join(top, '.opencode', 'plugins', 'git-mem.js'), config: path.join(top, 'opencode.json') };
}

/** Whether a file is git-mem's plugin (its first line says so). */
export function isOurPlugin(file: string): boolean {
  try {
    return fs.readFileSync(file, 'utf8').startsWith(PLUGIN_MARK);
  } catch {
    return false;
  }
}

/** The executable the plugin runs: `git-mem` in project files (teams commit them) or when on a minimal PATH, else this binary. */
function pluginCommand(scope: OpencodeScope): string {
  const self = selfCommand();
  return scope === 'project' || onMinimalPath() || self.length !== 1 ? 'git-mem' : self[0]!;
}

/** `dir` and up to `levels - 1` of its parents, as long as each is empty (what the install created for the plugin). */
function removeEmptyDirs(dir: string, levels: number): void {
  for (let i = 0; i < levels; i++, dir = path.dirname(dir)) {
    try {
      if (fs.readdirSync(dir).length) return;
      fs.rmdirSync(dir);
    } catch {
      return;
    }
  }
}

export function installOpencode(ctx: OpencodeInstallDeps, scope: OpencodeScope, remove: boolean): ClientInstall {
  const files = opencodeFiles(ctx, scope);
  const warnings: string[] = [];
  const pluginExists = fs.existsSync(files.plugin);
  let pluginChanged = false;
  if (pluginExists && !isOurPlugin(files.plugin)) warnings.push(`${files.plugin} is not git-mem's plugin; left as it is`);
  else pluginChanged = writeIfChanged(files.plugin, remove ? null : opencodePlugin(pluginCommand(scope)));
  if (remove && pluginChanged) removeEmptyDirs(path.dirname(files.plugin), 2);

  const current = readJsonObject(files.config);
  const base = fs.existsSync(files.config) ? current : { $schema: 'https://opencode.ai/config.json' };
  const { config, conflict } = mergeNamedEntry(base, 'mcp', 'gitmem', OPENCODE_MCP, remove);
  if (conflict) warnings.push(`${files.config} already has an MCP server named gitmem that is not git-mem's; left as it is`);
  let configChanged = false;
  if (!(fs.existsSync(files.config) && isDeepStrictEqual(config, current))) {
    // A config left holding nothing but its schema was git-mem's alone: it goes too.
    const onlySchema = Object.keys(config).every((k) => k === '$schema');
    configChanged = writeIfChanged(files.config, remove && onlySchema ? null : `${JSON.stringify(config, null, 2)}\n`);
  }
  const out: InstalledFile[] = [
    { file: files.plugin, changed: pluginChanged, holds: remove || !isOurPlugin(files.plugin) ? 'nothing of git-mem' : 'the git-mem plugin (session start, prompts, file reads and edits, turn capture at idle)' },
    { file: files.config, changed: configChanged, holds: remove || conflict ? 'nothing of git-mem' : 'MCP server gitmem' },
  ];
  return { client: 'opencode', name: 'OpenCode', removed: remove, files: out, warnings };
}

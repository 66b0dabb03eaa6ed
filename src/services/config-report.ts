/**
 * `git mem config`: every setting of the SETTINGS table with its effective
 * value and where that came from: the default, git config (with the scope and
 * file that set it), or the environment. Works outside a repository too
 * (global and system config).
 */
import { configListing } from '../stores/git/config.ts';
import { Git } from '../stores/git/git.ts';
import { configLookupKey, resolveSetting, type SettingName, SETTINGS, type SettingSource } from './settings.ts';

export interface ConfigEntry {
  key: string;
  value: string;
  /** global, local, system, worktree or command. */
  scope: string;
  /** `file:/home/ada/.gitconfig`, `command line:`… as git prints it. */
  origin: string;
}

export interface SettingRow {
  name: SettingName;
  key: string;
  env: string | null;
  kind: string;
  multi: boolean;
  describe: string;
  default: string;
  value: boolean | number | string | string[];
  source: SettingSource;
  /** Where the effective value was set: `GIT_MEM_SECRETS`, `global: ~/.gitconfig`…; null for a default. */
  origin: string | null;
  /** Set when a value given could not be used. */
  problem: string | null;
}

export interface ConfigReport {
  settings: SettingRow[];
  /** mem.* keys in git config that no setting reads (typos, or settings of another version). */
  unknown: ConfigEntry[];
}

/** Parses `git config -l -z --show-scope --show-origin`: scope NUL origin NUL key [LF value] NUL. */
export function parseConfigList(out: string): ConfigEntry[] {
  const fields = out.split('\0');
  const entries: ConfigEntry[] = [];
  for (let i = 0; i + 2 < fields.length; i += 3) {
    const [scope = '', origin = '', kv = ''] = fields.slice(i, i + 3);
    const nl = kv.indexOf('\n');
    entries.push({ scope, origin, key: nl === -1 ? kv : kv.slice(0, nl), value: nl === -1 ? 'true' : kv.slice(nl + 1) });
  }
  return entries;
}

function shortOrigin(e: ConfigEntry, home: string | undefined): string {
  let where = e.origin.replace(/^file:/, '');
  if (home && where.startsWith(`${home}/`)) where = `~${where.slice(home.length)}`;
  return where ? `${e.scope}: ${where}` : e.scope;
}

export function configReport(entries: ConfigEntry[], env: NodeJS.ProcessEnv): ConfigReport {
  const config = new Map<string, string[]>();
  for (const e of entries) config.set(e.key, [...(config.get(e.key) ?? []), e.value]);
  const known = new Set<string>();
  const settings = (Object.keys(SETTINGS) as SettingName[]).map((name): SettingRow => {
    const def = SETTINGS[name];
    const lookup = configLookupKey(def.key);
    known.add(lookup);
    const r = resolveSetting(name, config, env);
    const from = entries.filter((e) => e.key === lookup);
    const origin =
      r.source === 'environment' ? (def as { env?: string }).env ?? null : r.source === 'git config' ? [...new Set((def.multi ? from : from.slice(-1)).map((e) => shortOrigin(e, env.HOME)))].join(', ') : null;
    return {
      name,
      key: def.key,
      env: (def as { env?: string }).env ?? null,
      kind: def.kind,
      multi: def.multi,
      describe: def.describe,
      default: def.defaultText,
      value: r.value,
      source: r.source,
      origin,
      problem: r.problem ?? null,
    };
  });
  return { settings, unknown: entries.filter((e) => e.key.startsWith('mem.') && !known.has(e.key)) };
}

export function readConfigReport(cwd: string, env: NodeJS.ProcessEnv): ConfigReport {
  return configReport(parseConfigList(configListing(new Git(cwd, env))), env);
}


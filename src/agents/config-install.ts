/**
 * What installing git-mem into a client that keeps its set-up in project files (Gemini CLI's
 * .gemini/settings.json, OpenCode's opencode.json and plugin) reports, and the JSON edits they
 * share: one named entry of an object added only when absent and removed only when it is still
 * exactly what git-mem wrote.
 */
import { isDeepStrictEqual } from 'node:util';

/** One file an install or removal looked at. */
export interface InstalledFile {
  file: string;
  changed: boolean;
  /** What git-mem has there now (after a removal: nothing). */
  holds: string;
}

/** What `git mem init --<client>` did. */
export interface ClientInstall {
  client: string;
  /** As people call the client. */
  name: string;
  removed: boolean;
  files: InstalledFile[];
  /** Something the user should know: an entry of the same name that is not git-mem's, left alone. */
  warnings: string[];
}

/**
 * `config[key][name]` set to `entry` unless something else is there (then left, and false);
 * removed (`remove`) only when it is exactly `entry`. Pure: returns the new config.
 */
export function mergeNamedEntry(config: Record<string, unknown>, key: string, name: string, entry: unknown, remove: boolean): { config: Record<string, unknown>; conflict: boolean } {
  const current = config[key];
  const table = current && typeof current === 'object' && !Array.isArray(current) ? { ...(current as Record<string, unknown>) } : {};
  const present = table[name];
  const ours = present !== undefined && isDeepStrictEqual(present, entry);
  if (remove) {
    if (!ours) return { config, conflict: false };
    delete table[name];
    const out = { ...config, [key]: table };
    if (Object.keys(table).length === 0) delete out[key];
    return { config: out, conflict: false };
  }
  if (present !== undefined && !ours) return { config, conflict: true };
  return { config: { ...config, [key]: { ...table, [name]: entry } }, conflict: false };
}

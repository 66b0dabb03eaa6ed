/** `git mem config`: the JSON it prints and the table: key, effective value, where it came from. */
import type { ChalkInstance } from 'chalk';
import type { ConfigReport, SettingRow } from '../services/config-report.ts';

export interface ConfigJson {
  settings: {
    name: string;
    key: string;
    env: string | null;
    kind: string;
    multi: boolean;
    describe: string;
    default: string;
    value: boolean | number | string | string[];
    source: string;
    origin: string | null;
    problem: string | null;
  }[];
  unknown: { key: string; value: string; scope: string; origin: string }[];
}

export function configJson(r: ConfigReport): ConfigJson {
  return {
    settings: r.settings.map((s) => ({ name: s.name, key: s.key, env: s.env, kind: s.kind, multi: s.multi, describe: s.describe, default: s.default, value: s.value, source: s.source, origin: s.origin, problem: s.problem })),
    unknown: r.unknown.map((u) => ({ key: u.key, value: u.value, scope: u.scope, origin: u.origin })),
  };
}

/** A setting's value as the table shows it. */
export function valueText(value: SettingRow['value']): string {
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  return String(value);
}

export function renderConfig(r: ConfigReport, c: ChalkInstance): string {
  const rows = r.settings.map((s) => [s.key, valueText(s.value), s.source === 'default' ? 'default' : `${s.source} (${s.origin})`] as const);
  const w0 = Math.max(...rows.map((row) => row[0].length));
  const w1 = Math.max(...rows.map((row) => row[1].length));
  const lines = rows.map(([k, v, src], i) => {
    const s = r.settings[i]!;
    return `${c.cyan(k.padEnd(w0))}  ${(s.source === 'default' ? c.dim : (t: string) => t)(v.padEnd(w1))}  ${c.dim(src)}`;
  });
  for (const s of r.settings) if (s.problem) lines.push(c.yellow(`warning: ${s.key}: ${s.problem}`));
  for (const u of r.unknown) lines.push(c.yellow(`warning: ${u.key} (${u.scope}) is not a git-mem setting; known: ${r.settings.map((s) => s.key).join(', ')}`));
  return lines.join('\n');
}

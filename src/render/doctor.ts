/** `git mem doctor`: the JSON it prints and the text, one line a check with its fix below. */
import type { ChalkInstance } from 'chalk';
import type { CheckStatus, DoctorReport } from '../services/doctor.ts';

export interface DoctorJson {
  ok: boolean;
  checks: { id: string; status: CheckStatus; message: string; fix?: string }[];
}

export function doctorJson(r: DoctorReport): DoctorJson {
  return { ok: r.ok, checks: r.checks.map((c) => ({ id: c.id, status: c.status, message: c.message, ...(c.fix !== undefined ? { fix: c.fix } : {}) })) };
}

export function renderDoctor(r: DoctorReport, c: ChalkInstance): string {
  const mark: Record<CheckStatus, string> = { ok: c.green('ok  '), info: c.blue('info'), warn: c.yellow('warn'), fail: c.red('FAIL') };
  const lines: string[] = [];
  for (const check of r.checks) {
    lines.push(`${mark[check.status]}  ${c.dim(check.id.padEnd(13))} ${check.message}`);
    if (check.fix && check.status !== 'ok') lines.push(`      ${' '.repeat(13)} ${c.dim('fix:')} ${check.fix}`);
  }
  if (r.ok) lines.push('', c.green('no problems found'));
  return lines.join('\n');
}

/** How many checks warn or fail (info lines are not problems). */
export function doctorProblems(r: DoctorReport): number {
  return r.checks.filter((x) => x.status === 'warn' || x.status === 'fail').length;
}

/** Pure time helpers; the clock is always passed in. */

/** ISO-8601 UTC with second precision, as the earlier system wrote `timestamp`. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** UTC ISO-8601, with milliseconds only when there are any. Not sortable as text (`00.5Z` < `00Z`): compare times with Date.parse. */
export function canonicalTime(date: Date): string {
  return date.getUTCMilliseconds() ? date.toISOString() : isoSeconds(date);
}

/** Normalise whatever YAML gave us (string, Date, epoch number) into canonical UTC, or undefined. */
export function normalizeTimestamp(value: unknown): string | undefined {
  let date: Date | undefined;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number') date = new Date(value * 1000);
  else if (typeof value === 'string' && value.trim()) date = new Date(Date.parse(value.trim()));
  return date && !Number.isNaN(date.getTime()) ? canonicalTime(date) : undefined;
}

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800, mo: 2592000, y: 31536000 };

/** Parses `2026-01-31`, ISO date-times, and relative ages like `7d`, `2w`, `3 days ago`. */
export function parseDateArg(text: string, now: Date): Date | null {
  const rel = /^\s*(\d+)\s*(s|m|h|d|w|mo|y|sec|secs|seconds?|min|mins|minutes?|hours?|days?|weeks?|months?|years?)\s*(ago)?\s*$/i.exec(text);
  if (rel) {
    const unit = rel[2]!.toLowerCase();
    const key = unit.startsWith('mo') ? 'mo' : unit.startsWith('mi') || unit === 'm' ? 'm' : unit[0]!;
    const seconds = Number(rel[1]) * (UNITS[key] ?? 0);
    return new Date(now.getTime() - seconds * 1000);
  }
  // Absolute dates must look like dates: Date.parse reads '7' as July 2001.
  if (!/^\s*\d{4}-\d{2}-\d{2}/.test(text)) return null;
  const t = Date.parse(text);
  return Number.isNaN(t) ? null : new Date(t);
}

/** Short human age: `5s`, `3m`, `2h`, `4d`, `6w`, `1y`. */
export function formatAge(iso: string, now: Date): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '?';
  const s = Math.max(0, Math.round((now.getTime() - t) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  if (s < 86400 * 14) return `${Math.floor(s / 86400)}d`;
  if (s < 86400 * 365) return `${Math.floor(s / 604800)}w`;
  return `${Math.floor(s / 31536000)}y`;
}

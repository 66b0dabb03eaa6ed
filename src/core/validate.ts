/** Checks on what a user asks to store; each failure is a one-line UsageError and nothing is written. */
import { UsageError } from './errors.ts';
import { BODY_MAX, isStatus, type Status, SUMMARY_MAX } from './memory.ts';
import type { NamespaceInfo } from './namespaces.ts';
import { parsePathEntries, parsePathsOption } from './history/scope.ts';

export function checkNamespace(name: string, namespaces: readonly NamespaceInfo[]): string {
  if (!namespaces.some((n) => n.name === name)) {
    const names = namespaces.map((n) => n.name);
    throw new UsageError(`unknown namespace '${name}'${didYouMean(name, names)}; valid namespaces: ${names.join(', ')}`);
  }
  return name;
}

/** " (did you mean decisions?)" when one name is within two edits of `name` (case aside), else "". */
export function didYouMean(name: string, names: readonly string[]): string {
  const wanted = name.toLowerCase();
  let best: string | undefined;
  let bestDistance = 3;
  for (const candidate of names) {
    const d = editDistance(wanted, candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best === undefined ? '' : ` (did you mean ${best}?)`;
}

/** Levenshtein distance (insert, delete, substitute), for short names. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/**
 * One line, not empty, and within SUMMARY_MAX unless `forceTruncate`. It is not
 * cut here: a summary is cut after redaction (fitSummary), so that no cut
 * leaves the prefix of a secret that redaction would no longer recognise.
 */
export function checkSummary(summary: string, forceTruncate = false): string {
  const s = summary.replace(/\s+/g, ' ').trim();
  if (!s) throw new UsageError('summary is empty; give a one-line summary');
  if ([...s].length > SUMMARY_MAX && !forceTruncate) {
    throw new UsageError(`summary is ${[...s].length} characters, over the limit of ${SUMMARY_MAX}; shorten it, move detail to the body, or pass --force-truncate`);
  }
  return s;
}

const MARKER = /\[REDACTED:[a-z0-9_]+\]/g;

/** At most SUMMARY_MAX characters, ending in an ellipsis when cut; never inside a surrogate pair or a `[REDACTED:…]` marker. */
export function fitSummary(summary: string): string {
  const chars = [...summary];
  if (chars.length <= SUMMARY_MAX) return summary;
  let cut = SUMMARY_MAX - 1;
  // Where a marker straddles the cut, cut before it.
  let offset = 0;
  const starts: number[] = [];
  for (const c of chars) starts.push((offset += c.length) - c.length);
  const cutAt = starts[cut]!;
  for (const m of summary.matchAll(MARKER)) {
    if (m.index < cutAt && m.index + m[0].length > cutAt) cut = starts.findIndex((x) => x >= m.index);
  }
  return chars.slice(0, cut).join('').trimEnd() + '…';
}

export function checkBody(body: string): string {
  const size = Buffer.byteLength(body, 'utf8');
  if (size > BODY_MAX) throw new UsageError(`body is ${size} bytes, over the limit of ${BODY_MAX} (100 KiB)`);
  if (body.includes('\0')) throw new UsageError('body contains binary data (NUL bytes)');
  // Notes are read with \n line ends: a body stored with \r\n would not read back as written.
  return body.replace(/\r\n/g, '\n').trim();
}

export function checkStatus(status: string): Status {
  if (!isStatus(status)) throw new UsageError(`unknown status '${status}'; valid: active, resolved, archived`);
  return status;
}

export function parseTags(text: string | undefined): string[] {
  return [...new Set((text ?? '').split(',').map((t) => t.trim()).filter(Boolean))];
}

/** `a.py,b.py:10-40` (or a list of such entries) → the scope entries (core/history/scope.ts); empty: about nothing in particular. */
export function checkPaths(given: string | readonly string[]): string[] {
  const { paths, bad } = typeof given === 'string' ? parsePathsOption(given) : parsePathEntries(given);
  if (bad !== undefined) throw new UsageError(`'${bad}' is not a file in the repository (a relative path, optionally with lines: src/a.py:10-40)`);
  return paths;
}

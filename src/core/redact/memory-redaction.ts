/**
 * Redaction of a whole memory: every text it carries (summary, body, tags,
 * spec, phase, relates_to, author, source, paths, the commit subject, the lifecycle links, and the text inside fields
 * git-mem does not know) goes through the same redactor, so no field can be
 * forgotten on one path. Applied just before a memory is written.
 */
import type { Memory } from '../memory.ts';
import { type Redaction, redactCopies } from './redact.ts';
import { fitSummary } from '../validate.ts';

type Redactor = (text: string) => Redaction;

function redactValue(value: unknown, redact: Redactor, found: string[]): unknown {
  if (typeof value === 'string') {
    const r = redact(value);
    found.push(...r.found);
    return r.text;
  }
  if (Array.isArray(value)) return value.map((v) => redactValue(v, redact, found));
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, redact, found)]));
  }
  return value;
}

/**
 * The memory with every text redacted, its summary then cut to size; and the types of what was found.
 * A random-looking secret found in one field is taken out of every other field too, wherever it stands
 * whole (the summary is often the body's sentence that holds its bare copy): a second pass, only when
 * the first found such a secret.
 */
export function redactMemory(memory: Memory, redact: Redactor): { memory: Memory; found: string[] } {
  const copies: Array<[string, string]> = [];
  const first = redactFields(memory, (text) => {
    const r = redact(text);
    copies.push(...(r.copies ?? []));
    return r;
  });
  if (copies.length === 0) return first;
  const second = redactFields(first.memory, (text) => redactCopies(text, copies));
  return { memory: second.memory, found: [...first.found, ...second.found] };
}

function redactFields(memory: Memory, redact: Redactor): { memory: Memory; found: string[] } {
  const found: string[] = [];
  const text = (s: string) => redactValue(s, redact, found) as string;
  const list = (l: readonly string[]) => l.map(text);
  const out: Memory = { ...memory, summary: fitSummary(text(memory.summary)), body: text(memory.body), tags: list(memory.tags), relatesTo: list(memory.relatesTo) };
  for (const field of ['spec', 'phase', 'author', 'source', 'commitSubject'] as const) {
    const v = memory[field];
    if (v !== undefined) out[field] = text(v);
  }
  if (memory.paths) out.paths = list(memory.paths);
  for (const field of ['consolidates', 'supersedes'] as const) if (memory[field]) out[field] = list(memory[field]!);
  for (const field of ['consolidatedInto', 'supersededBy'] as const) if (memory[field] !== undefined) out[field] = text(memory[field]!);
  if (memory.extra) out.extra = redactValue(memory.extra, redact, found) as Record<string, unknown>;
  return { memory: out, found };
}

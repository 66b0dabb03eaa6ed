/**
 * redactMemory: every text a memory carries goes through the redactor, so no
 * field can leak on one capture path. The memory below sets every field of
 * the model (Required<Memory>): a field added to Memory fails the typecheck
 * here until it is given a secret too, and the walk then finds it if
 * redactMemory forgets it.
 */
import { describe, expect, it } from 'vitest';
import { redactMemory } from '../../src/core/redact/memory-redaction.ts';
import type { Memory } from '../../src/core/memory.ts';
import { redact, redactTogether } from '../../src/core/redact/redact.ts';
import { base62, crc32 } from '../../src/core/redact/secret-checks.ts';

// Assembled from parts so this file does not look like it leaks a token.
const SECRET = 'ghp_' + 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5' + base62(crc32('A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5'), 6);
const s = (label: string) => `${label} ${SECRET}`;

/** Identity and times: not free text, never redacted (a key is hex, a time ISO). */
const NOT_TEXT = new Set(['key', 'namespace', 'object', 'created', 'updated', 'status', 'patchId']);

function full(): Required<Memory> {
  return {
    key: '0123456789abcdef',
    namespace: 'decisions',
    object: 'a'.repeat(40),
    summary: s('summary'),
    body: `body line\n${s('token')}\nlast line`,
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-02T00:00:00Z',
    tags: ['plain', s('tag')],
    status: 'resolved',
    spec: s('spec'),
    phase: s('phase'),
    relatesTo: [s('relates')],
    author: s('author'),
    source: s('source'),
    confidence: 0.95,
    paths: ['src/a.ts', s('path')],
    commitSubject: s('subject'),
    patchId: 'b'.repeat(40),
    consolidates: [s('consolidates')],
    consolidatedInto: s('into'),
    supersedes: [s('supersedes')],
    supersededBy: s('by'),
    reprieves: 2,
    extra: { reviewer: s('reviewer'), nested: { deep: [1, s('deep'), true] }, count: 7, when: null },
  };
}

/** Every string in a value, with the path to it. */
function strings(value: unknown, at: string): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((v, i) => strings(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => strings(v, at ? `${at}.${k}` : k));
  return [];
}

describe('redactMemory', () => {
  it('redacts the secret in every text field, however deep in fields git-mem does not know', () => {
    const input = full();
    const { memory, found } = redactMemory(input, redact);
    const planted = strings(input, '').filter(([, v]) => v.includes(SECRET));
    const leaked = strings(memory, '').filter(([, v]) => v.includes(SECRET));
    expect(leaked).toEqual([]);
    // Each planted secret was found once, and its place now says what was there.
    expect(found).toEqual(planted.map(() => 'github_token'));
    for (const [at] of planted) expect(strings(memory, '').find(([p]) => p === at)?.[1], at).toContain('[REDACTED:github_token]');
    // Every field of the model is text somewhere above, or known not to be.
    for (const field of Object.keys(input)) {
      const text = planted.some(([at]) => at === field || at.startsWith(`${field}.`) || at.startsWith(`${field}[`));
      expect(text || NOT_TEXT.has(field) || ['confidence', 'reprieves'].includes(field), field).toBe(true);
    }
  });

  it("takes a secret named in the body out of the summary's bare copy too, and the judge's input alike", () => {
    const value = 'Q7mZp2Lx9RtV4wKc';
    const body = `The staging password is ${value}. We decided to keep ${value} for the deploy job because prod is locked.`;
    const summary = `We decided to keep ${value} for the deploy job because prod is locked.`;
    // Alone, the summary holds nothing a rule reads as a secret.
    expect(redact(summary).text).toBe(summary);
    const { memory } = redactMemory({ ...full(), summary, body }, (t) => redact(t, { copies: true }));
    expect(memory.summary).toBe('We decided to keep [REDACTED:password] for the deploy job because prod is locked.');
    expect(JSON.stringify(memory)).not.toContain(value);
    expect(redactTogether([summary, body]).map((r) => r.text).join('\n')).not.toContain(value);
    // A value of words, or a number, is not carried to the other fields.
    const words = redactTogether(['the build id is 1234e56789012345', 'password: 1234e56789012345']);
    expect(words[0]!.text).toBe('the build id is 1234e56789012345');
  });

  it('keeps what is not a secret as it was: identity, times, numbers, booleans, null, the text around a secret', () => {
    const input = full();
    const { memory } = redactMemory(input, redact);
    for (const field of NOT_TEXT) expect(memory[field as keyof Memory], field).toEqual(input[field as keyof Memory]);
    expect(memory.confidence).toBe(0.95);
    expect(memory.reprieves).toBe(2);
    expect(memory.extra).toEqual({ reviewer: 'reviewer [REDACTED:github_token]', nested: { deep: [1, 'deep [REDACTED:github_token]', true] }, count: 7, when: null });
    expect(memory.tags).toEqual(['plain', 'tag [REDACTED:github_token]']);
    expect(memory.body).toBe('body line\ntoken [REDACTED:github_token]\nlast line');
    // The input is not changed in place.
    expect(input).toEqual(full());
  });

  it('leaves a memory without secrets or optional fields equal to itself', () => {
    const bare: Memory = { key: '0123456789abcdef', namespace: 'learnings', object: 'b'.repeat(40), summary: 'Use sql.js', body: 'No native build.', created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', tags: [], status: 'active', relatesTo: [] };
    const { memory, found } = redactMemory(bare, redact);
    expect(memory).toEqual(bare);
    expect(Object.keys(memory).sort()).toEqual(Object.keys(bare).sort());
    expect(found).toEqual([]);
  });

  it('cuts a summary that redaction made longer than 100 characters back to 100', () => {
    const summary = `${'x'.repeat(74)} password: hunter2hunter2`;
    const { memory } = redactMemory({ ...full(), summary }, redact);
    expect(summary.length).toBeLessThanOrEqual(100);
    expect([...redact(summary).text].length).toBeGreaterThan(100);
    expect([...memory.summary].length).toBeLessThanOrEqual(100);
    expect(memory.summary).not.toContain('hunter2');
  });
});

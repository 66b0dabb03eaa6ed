import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.ts';
import { resolveNamespaces } from '../../src/core/namespaces.ts';
import { checkBody, checkNamespace, checkStatus, checkSummary, fitSummary, parseTags } from '../../src/core/validate.ts';

/** Runs `fn`, expects a UsageError (exit code 2) and returns its message. */
function usageError(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).code).toBe('UsageError');
    expect((err as UsageError).exitCode).toBe(2);
    return (err as Error).message;
  }
  throw new Error('expected a UsageError, nothing was thrown');
}

const { namespaces } = resolveNamespaces(['custom-ns']);

describe('checkNamespace', () => {
  it('returns a known namespace, built in or configured', () => {
    expect(checkNamespace('decisions', namespaces)).toBe('decisions');
    expect(checkNamespace('custom-ns', namespaces)).toBe('custom-ns');
  });

  it('rejects an unknown namespace and lists the valid ones', () => {
    const message = usageError(() => checkNamespace('decision', namespaces));
    expect(message).toContain("unknown namespace 'decision'");
    for (const n of ['inception', 'decisions', 'patterns', 'custom-ns']) expect(message).toContain(n);
  });

  it('is case-sensitive', () => {
    expect(usageError(() => checkNamespace('Decisions', namespaces))).toContain("'Decisions'");
  });
});

describe('checkSummary', () => {
  it('collapses whitespace and newlines and trims', () => {
    expect(checkSummary('  Use   sql.js\n for\tthe index  ')).toBe('Use sql.js for the index');
  });

  it('rejects an empty or blank summary', () => {
    expect(usageError(() => checkSummary(''))).toContain('summary is empty');
    expect(usageError(() => checkSummary(' \n\t '))).toContain('summary is empty');
  });

  it('accepts exactly 100 characters', () => {
    const s = 'x'.repeat(100);
    expect(checkSummary(s)).toBe(s);
  });

  it('rejects 101 characters, saying the length, the limit and the way out', () => {
    const message = usageError(() => checkSummary('y'.repeat(101)));
    expect(message).toContain('101 characters');
    expect(message).toContain('limit of 100');
    expect(message).toContain('--force-truncate');
  });

  it('counts characters, not UTF-16 units', () => {
    const emoji = '🚀'.repeat(100); // 200 UTF-16 units, 100 characters
    expect(checkSummary(emoji)).toBe(emoji);
    expect(usageError(() => checkSummary('🚀'.repeat(101)))).toContain('101 characters');
  });

  it('truncates to 100 characters ending in an ellipsis when forced', () => {
    expect(checkSummary('abcdefghij'.repeat(15), true)).toBe('abcdefghij'.repeat(15));
    const out = fitSummary(checkSummary('abcdefghij'.repeat(15), true));
    expect([...out]).toHaveLength(100);
    expect(out).toBe('abcdefghij'.repeat(15).slice(0, 99) + '…');
  });

  it('truncates without splitting a surrogate pair', () => {
    const out = fitSummary(checkSummary('🚀'.repeat(150), true));
    expect(out).toBe('🚀'.repeat(99) + '…');
  });

  it('never cuts a redaction marker in two', () => {
    const marker = '[REDACTED:github_token]';
    const s = `${'x'.repeat(90)} ${marker} and more`;
    expect(fitSummary(s)).toBe(`${'x'.repeat(90)}…`);
    expect(fitSummary(`${'y'.repeat(60)} ${marker} ${'z'.repeat(40)}`)).toBe(`${'y'.repeat(60)} ${marker} ${'z'.repeat(14)}…`);
  });

  it('does not touch a short summary when forced', () => {
    expect(checkSummary('short', true)).toBe('short');
  });
});

describe('checkBody', () => {
  it('trims and returns the body', () => {
    expect(checkBody('\n\n## Context\nText.\n\n')).toBe('## Context\nText.');
    expect(checkBody('')).toBe('');
  });

  it('accepts exactly 100 KiB', () => {
    expect(checkBody('a'.repeat(100 * 1024))).toHaveLength(100 * 1024);
  });

  it('rejects over 100 KiB, counted in UTF-8 bytes', () => {
    expect(usageError(() => checkBody('a'.repeat(100 * 1024 + 1)))).toContain('102401 bytes');
    // 40,000 three-byte characters are 120,000 bytes although only 40,000 UTF-16 units.
    const message = usageError(() => checkBody('€'.repeat(40_000)));
    expect(message).toContain('120000 bytes');
    expect(message).toContain('100 KiB');
  });

  it('rejects NUL bytes', () => {
    expect(usageError(() => checkBody('text\0more'))).toContain('NUL');
  });
});

describe('checkStatus', () => {
  it.each(['active', 'resolved', 'archived'] as const)('accepts %s', (s) => {
    expect(checkStatus(s)).toBe(s);
  });

  it('rejects anything else and lists the valid statuses', () => {
    const message = usageError(() => checkStatus('done'));
    expect(message).toContain("unknown status 'done'");
    expect(message).toContain('active, resolved, archived');
    usageError(() => checkStatus('Active'));
    usageError(() => checkStatus(''));
  });
});

describe('parseTags', () => {
  it('splits on commas, trims, drops empties and duplicates, keeps order', () => {
    expect(parseTags(' perf, architecture ,,perf, db ')).toEqual(['perf', 'architecture', 'db']);
  });

  it('gives no tags for undefined or blank input', () => {
    expect(parseTags(undefined)).toEqual([]);
    expect(parseTags('')).toEqual([]);
    expect(parseTags(' , ,')).toEqual([]);
  });
});

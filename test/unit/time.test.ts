import { describe, expect, it } from 'vitest';
import { canonicalTime, formatAge, isoSeconds, normalizeTimestamp, parseDateArg } from '../../src/core/time.ts';

const NOW = new Date('2026-03-15T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);

describe('parseDateArg: relative ages', () => {
  it.each([
    ['30s', 30],
    ['10 sec', 10],
    ['10 secs', 10],
    ['1 second', 1],
    ['45 seconds ago', 45],
    ['5m', 5 * 60],
    ['5 min', 5 * 60],
    ['5 mins', 5 * 60],
    ['1 minute', 60],
    ['90 minutes ago', 90 * 60],
    ['2h', 2 * 3600],
    ['1 hour', 3600],
    ['3 hours ago', 3 * 3600],
    ['7d', 7 * 86400],
    ['1 day', 86400],
    ['3 days ago', 3 * 86400],
    ['2w', 2 * 604800],
    ['1 week', 604800],
    ['3 weeks ago', 3 * 604800],
    ['1mo', 30 * 86400],
    ['6 months', 6 * 30 * 86400],
    ['1 month ago', 30 * 86400],
    ['1y', 365 * 86400],
    ['2 years ago', 2 * 365 * 86400],
    ['0d', 0],
    ['  7 D  ', 7 * 86400],
    ['7DAYS', 7 * 86400],
  ])('%j is %i seconds before now', (text, seconds) => {
    expect(parseDateArg(text, NOW)?.toISOString()).toBe(ago(seconds).toISOString());
  });

  it('distinguishes minutes (m) from months (mo)', () => {
    expect(parseDateArg('3m', NOW)!.getTime()).toBe(NOW.getTime() - 180_000);
    expect(parseDateArg('3mo', NOW)!.getTime()).toBe(NOW.getTime() - 3 * 2_592_000_000);
  });
});

describe('parseDateArg: absolute dates', () => {
  it('reads a date as UTC midnight', () => {
    expect(parseDateArg('2026-01-31', NOW)?.toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });

  it('reads ISO date-times with Z or an offset', () => {
    expect(parseDateArg('2025-12-21T05:46:36Z', NOW)?.toISOString()).toBe('2025-12-21T05:46:36.000Z');
    expect(parseDateArg('2025-12-21T07:46:36+02:00', NOW)?.toISOString()).toBe('2025-12-21T05:46:36.000Z');
  });

  it.each(['', 'yesterday-ish', 'next tuesday', '7 fortnights', 'd7', '-3d'])('rejects %j', (text) => {
    expect(parseDateArg(text, NOW)).toBeNull();
  });
});

describe('parseDateArg: lenient Date.parse fallback', () => {
  // BUG (reported, minor): anything V8's Date.parse accepts falls through as a date, so a number
  // without a unit (`--since 7`, meant as 7 days) silently becomes 2001-07-01, and prose like
  // "version 2" becomes 2001-02-01. Flip to `it` once fixed.
  it.each(['7', '12', 'version 2'])('rejects %j instead of reading it as a 2001 date', (text) => {
    expect(parseDateArg(text, NOW)).toBeNull();
  });
});

describe('formatAge', () => {
  it.each([
    [0, '0s'],
    [59, '59s'],
    [60, '1m'],
    [3599, '59m'],
    [3600, '1h'],
    [86399, '23h'],
    [86400, '1d'],
    [13 * 86400, '13d'],
    [14 * 86400, '2w'],
    [364 * 86400, '52w'],
    [365 * 86400, '1y'],
    [3 * 365 * 86400 + 100, '3y'],
  ])('%i seconds ago is %s', (seconds, expected) => {
    expect(formatAge(ago(seconds).toISOString(), NOW)).toBe(expected);
  });

  it('shows 0s for a time in the future (clock skew)', () => {
    expect(formatAge('2026-03-15T12:05:00Z', NOW)).toBe('0s');
  });

  it('shows ? for an unparsable time', () => {
    expect(formatAge('', NOW)).toBe('?');
    expect(formatAge('not a date', NOW)).toBe('?');
  });
});

describe('normalizeTimestamp', () => {
  it('keeps a canonical UTC second-precision string', () => {
    expect(normalizeTimestamp('2025-12-21T05:46:36Z')).toBe('2025-12-21T05:46:36Z');
  });

  it('converts offsets to UTC', () => {
    expect(normalizeTimestamp('2025-12-21T07:46:36+02:00')).toBe('2025-12-21T05:46:36Z');
    expect(normalizeTimestamp('2025-12-20T23:46:36-06:00')).toBe('2025-12-21T05:46:36Z');
  });

  it('keeps milliseconds only when there are any', () => {
    expect(normalizeTimestamp('2025-12-21T05:46:36.250Z')).toBe('2025-12-21T05:46:36.250Z');
    expect(normalizeTimestamp('2025-12-21T05:46:36.000Z')).toBe('2025-12-21T05:46:36Z');
  });

  it('reads a Date (as YAML 1.1 timestamps give)', () => {
    expect(normalizeTimestamp(new Date(Date.UTC(2025, 11, 21, 5, 46, 36)))).toBe('2025-12-21T05:46:36Z');
  });

  it('reads an epoch number in seconds', () => {
    expect(normalizeTimestamp(1766296000)).toBe(new Date(1766296000 * 1000).toISOString().replace('.000Z', 'Z'));
    expect(normalizeTimestamp(0)).toBe('1970-01-01T00:00:00Z');
  });

  it('reads a date-only string as UTC midnight', () => {
    expect(normalizeTimestamp('2026-01-31')).toBe('2026-01-31T00:00:00Z');
  });

  it('trims whitespace', () => {
    expect(normalizeTimestamp('  2025-12-21T05:46:36Z \n')).toBe('2025-12-21T05:46:36Z');
  });

  it.each([[''], ['   '], ['garbage'], [null], [undefined], [{}], [[]], [true], [new Date('invalid')]])('gives undefined for %j', (value) => {
    expect(normalizeTimestamp(value)).toBeUndefined();
  });
});

describe('isoSeconds / canonicalTime', () => {
  it('drops milliseconds in isoSeconds', () => {
    expect(isoSeconds(new Date('2025-12-21T05:46:36.987Z'))).toBe('2025-12-21T05:46:36Z');
  });

  it('keeps non-zero milliseconds in canonicalTime', () => {
    expect(canonicalTime(new Date('2025-12-21T05:46:36.987Z'))).toBe('2025-12-21T05:46:36.987Z');
    expect(canonicalTime(new Date('2025-12-21T05:46:36.000Z'))).toBe('2025-12-21T05:46:36Z');
  });
});

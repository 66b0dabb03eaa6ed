import { describe, expect, it } from 'vitest';
import { parseQueryTime } from '../../src/core/search/query-time.ts';

// Thursday 2026-11-26, 13:00 UTC.
const now = new Date('2026-11-26T13:00:00Z');
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const read = (q: string) => {
  const t = parseQueryTime(q, now);
  return t && { from: new Date(t.from).toISOString().slice(0, 10), to: new Date(t.to).toISOString().slice(0, 16), phrase: t.phrase, rest: t.rest };
};

describe('parseQueryTime', () => {
  it('reads days', () => {
    expect(read('what did we decide yesterday about caching')).toEqual({ from: '2026-11-25', to: '2026-11-26T00:00', phrase: 'yesterday', rest: 'what did we decide about caching' });
    expect(read('the deploy fix from earlier today')).toMatchObject({ from: '2026-11-26', to: '2026-11-27T00:00' });
    expect(read('what broke on Monday')).toMatchObject({ from: '2026-11-23', to: '2026-11-24T00:00', rest: 'what broke' });
    // "last Thursday" on a Thursday is a week ago; "on Thursday" is today.
    expect(read('the outage last Thursday')).toMatchObject({ from: '2026-11-19', to: '2026-11-20T00:00' });
    expect(read('since Monday')).toMatchObject({ from: '2026-11-23', to: '2026-11-26T13:00' });
    expect(read('before Tuesday')).toMatchObject({ from: '1970-01-01', to: '2026-11-24T00:00' });
    expect(read('notes from 3 days ago')).toMatchObject({ from: '2026-11-22', to: '2026-11-25T00:00' });
    expect(read('since 2026-03-04')).toMatchObject({ from: '2026-03-04' });
    expect(read('on 2026-03-04')).toMatchObject({ from: '2026-03-04', to: '2026-03-05T00:00' });
  });

  it('reads weeks, months and years', () => {
    expect(read('flaky tests last week')).toMatchObject({ from: '2026-11-16', to: '2026-11-26T13:00', phrase: 'last week', rest: 'flaky tests' });
    expect(read('this week')).toMatchObject({ from: '2026-11-23' });
    expect(read('why was the invoice high last month?')).toMatchObject({ from: '2026-10-01', rest: 'why was the invoice high ?' });
    expect(read('in the last 2 weeks')).toMatchObject({ from: '2026-11-12', phrase: 'in the last 2 weeks' });
    expect(read('over the past few days')).toMatchObject({ from: '2026-11-23' });
    expect(read('what did we ship in March')).toMatchObject({ from: '2026-03-01', to: '2026-04-01T00:00' });
    // A month after this one is last year's.
    expect(read('the freeze in December')).toMatchObject({ from: '2025-12-01', to: '2026-01-01T00:00' });
    expect(read('in March 2025')).toMatchObject({ from: '2025-03-01', to: '2025-04-01T00:00' });
    expect(read('since February')).toMatchObject({ from: '2026-02-01', to: '2026-11-26T13:00' });
    expect(read('in May')).toMatchObject({ from: '2026-05-01' });
    expect(read('what did Nora paint recently')).toMatchObject({ from: '2026-11-12', rest: 'what did Nora paint' });
  });

  it('leaves date words that ask about no time', () => {
    for (const q of ['the March release checklist', 'Monday standup notes', 'weekly status', 'the cron runs every Friday', 'in may cases', 'what we may change', 'month-end close job', 'last deploy of the day', 'the last 5 km were brutal', 'why did searching return nothing after the reindex?', 'how do we catch untranslated strings before release?', 'where are new users giving up during signup?', 'took ages until we changed tools', 'what race did Sam do at the weekend?'])
      expect(parseQueryTime(q, now), q).toBeNull();
    expect(day('2026-01-01')).toBeLessThan(now.getTime());
  });
});

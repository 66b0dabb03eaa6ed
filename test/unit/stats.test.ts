import { describe, expect, it } from 'vitest';
import { countMemories, weekStart } from '../../src/services/stats.ts';

describe('stats', () => {
  it('starts weeks on Monday, UTC', () => {
    expect(new Date(weekStart(Date.parse('2026-11-22T10:00:00Z'))).toISOString()).toBe('2026-11-16T00:00:00.000Z'); // a Sunday
    expect(new Date(weekStart(Date.parse('2026-11-16T00:00:00Z'))).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(new Date(weekStart(Date.parse('1970-01-01T00:00:00Z'))).toISOString()).toBe('1969-12-29T00:00:00.000Z');
  });

  it('counts by namespace and status, and per week', () => {
    const now = new Date('2026-11-22T12:00:00Z');
    const r = countMemories(
      [
        { namespace: 'decisions', status: 'active', created: '2026-11-20T00:00:00Z' },
        { namespace: 'decisions', status: 'resolved', created: '2026-11-10T00:00:00Z' },
        { namespace: 'blockers', status: 'active', created: '2026-11-16T00:00:00Z' },
        { namespace: 'blockers', status: 'archived', created: '2025-01-01T00:00:00Z' },
        { namespace: 'learnings', status: 'active', created: 'not a date' },
      ],
      now,
      3,
    );
    expect(r.total).toBe(5);
    expect(r.byStatus).toEqual({ active: 3, resolved: 1, archived: 1 });
    expect(r.namespaces.map((n) => [n.name, n.total])).toEqual([['blockers', 2], ['decisions', 2], ['learnings', 1]]);
    expect(r.weeks).toEqual([
      { week: '2026-11-02', count: 0 },
      { week: '2026-11-09', count: 1 },
      { week: '2026-11-16', count: 2 },
    ]);
    expect(r.earlier).toBe(1);
  });
});

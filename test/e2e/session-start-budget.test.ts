/** Issue 28: SessionStart keeps every active decision and blocker that fits, and says what it left out. */
import { describe, expect, it } from 'vitest';
import { memHook as hook, memOk } from './helpers.ts';
import { context, payload, pythonProject, summaries } from './python-project.ts';

describe('SessionStart in a small repository', () => {
  it('lists every active decision and blocker, and says how many it left out', async () => {
    const { box, repo, write, commit } = pythonProject();
    write('src/app.py', 'app = None\n');
    commit('Start the app');
    const at = (day: string) => ({ ...box.env, GIT_MEM_NOW: `2026-03-${day}T10:00:00Z` });
    // 4 active decisions captured over three weeks; the oldest is more than a week old at session start.
    memOk(repo, at('01'), ['capture', 'decisions', 'Use PostgreSQL 16 instead of SQLite in production', '-m', 'SQLite locks the whole file on writes; the API serves concurrent requests.']);
    memOk(repo, at('10'), ['capture', 'decisions', 'Use FastAPI for the HTTP layer']);
    memOk(repo, at('15'), ['capture', 'decisions', 'Use gunicorn with uvicorn workers']);
    memOk(repo, at('18'), ['capture', 'decisions', 'Deploy with a token from the CI secret store']);
    memOk(repo, at('18'), ['capture', 'blockers', 'Staging database is read-only until the migration lands']);
    memOk(repo, at('19'), ['capture', 'learnings', 'TIL pytest -x stops at the first failure']);
    memOk(repo, at('19'), ['capture', 'patterns', 'Create Redis client lazily', '--tags', 'redis,cache']);
    const text = context(await hook(repo, at('20'), 'SessionStart', payload(repo, 'SessionStart', { source: 'startup' })));
    const shown = summaries(text);
    for (const s of ['Use PostgreSQL 16 instead of SQLite in production', 'Use FastAPI for the HTTP layer', 'Use gunicorn with uvicorn workers', 'Deploy with a token from the CI secret store', 'Staging database is read-only until the migration lands']) {
      expect(shown).toContain(s);
    }
    const retrieved = Number(/memories_retrieved="(\d+)"/.exec(text)?.[1]);
    expect(retrieved).toBe(shown.length);
    // Whatever did not fit is counted, so the agent knows to recall it.
    const omitted = Number(/memories_omitted="(\d+)"/.exec(text)?.[1] ?? 'NaN');
    expect(retrieved + omitted).toBe(7);
  });

  it('cuts learnings and patterns, never decisions, when the budget is short', async () => {
    const { box, repo, write, commit } = pythonProject();
    write('src/app.py', 'app = None\n');
    commit('Start the app');
    const at = (day: string) => ({ ...box.env, GIT_MEM_NOW: `2026-03-${day}T10:00:00Z` });
    const long = (s: string) => `${s} ${'and the reasons for it are in the body of this memory'.slice(0, 95 - s.length)}`;
    for (let i = 0; i < 6; i++) memOk(repo, at(String(10 + i)), ['capture', 'decisions', long(`Decision ${i}: keep the schema version ${i}`)]);
    for (let i = 0; i < 3; i++) memOk(repo, at(String(10 + i)), ['capture', 'learnings', long(`Learning ${i}: the schema version`)]);
    const text = context(await hook(repo, at('20'), 'SessionStart', payload(repo, 'SessionStart', { source: 'startup' })));
    const shown = summaries(text);
    for (let i = 0; i < 6; i++) expect(shown.some((s) => s.startsWith(`Decision ${i}:`)), `Decision ${i}`).toBe(true);
    const omitted = Number(/memories_omitted="(\d+)"/.exec(text)?.[1] ?? 'NaN');
    expect(shown.length + omitted).toBe(9);
    expect(text.length).toBeLessThanOrEqual(9500);
  });
});

/** Issue 28: the file context puts the memories about the file first. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, memHook as hook, memOk } from './helpers.ts';
import { context, payload, pythonProject, summaries } from './python-project.ts';

describe('File context', () => {
  it('gives the memories about a file first, then those about its words, then the rest of its commits', async () => {
    const { box, repo, write, commit } = pythonProject();
    write('src/app.py', 'from fastapi import FastAPI\napp = FastAPI()\n');
    write('src/auth.py', 'TOKEN = None\n');
    commit('Start the app');
    memOk(repo, box.env, ['capture', 'decisions', 'Use FastAPI for the HTTP layer']);
    memOk(repo, box.env, ['capture', 'decisions', 'Deploy with a token from the CI secret store']);
    write('src/cache.py', 'import redis\n\n_client = None\n\ndef client():\n    global _client\n    if _client is None:\n        _client = redis.Redis()\n    return _client\n');
    commit('Add the cache');
    const cacheCommit = git(repo, box.env, ['rev-parse', 'HEAD']).trim();
    memOk(repo, box.env, ['capture', 'patterns', 'Create Redis client lazily', '--tags', 'redis,cache', '-m', 'Connecting at import time breaks the tests that never touch the cache.']);
    write('tests/test_app.py', 'def test_app():\n    pass\n');
    write('gunicorn.conf.py', 'workers = 4\n');
    commit('Tests and the server config');
    memOk(repo, box.env, ['capture', 'decisions', 'Use gunicorn with uvicorn workers']);
    memOk(repo, box.env, ['capture', 'learnings', 'TIL pytest -x stops at the first failure']);
    // Later commits touch the cache too, and carry memories about other things (the commit-only ties).
    fs.appendFileSync(path.join(repo, 'src/cache.py'), '\nTTL = 60\n');
    write('src/settings.py', 'DEBUG = False\n');
    commit('Cache TTL and settings');
    memOk(repo, box.env, ['capture', 'decisions', 'Use PostgreSQL 16 instead of SQLite in production']);
    memOk(repo, box.env, ['capture', 'learnings', 'Settings are read once at startup']);
    memOk(repo, box.env, ['capture', 'learnings', 'Cache entries expire after 60 seconds', '--commit', cacheCommit]);
    const file = path.join(repo, 'src/cache.py');
    const read = async (n: number) =>
      summaries(context(await hook(repo, box.env, 'PreToolUse', payload(repo, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: file }, tool_use_id: `toolu_${n}` }))));
    const first = await read(1);
    expect(first.length).toBeGreaterThan(0);
    expect(first.length).toBeLessThanOrEqual(3);
    expect(first[0]).toBe('Create Redis client lazily');
    expect(first).toContain('Cache entries expire after 60 seconds');
    for (const unrelated of ['Use gunicorn with uvicorn workers', 'Use FastAPI for the HTTP layer', 'TIL pytest -x stops at the first failure']) expect(first).not.toContain(unrelated);
    // Each once per session: later reads bring what is left, never the same memory again.
    const seen = [...first];
    for (let n = 2; n <= 4; n++) {
      const next = await read(n);
      for (const s of next) expect(seen).not.toContain(s);
      seen.push(...next);
    }
  });

  it('puts the memory scoped to the edited lines first', async () => {
    const { box, repo, write, commit } = pythonProject();
    const lines = Array.from({ length: 60 }, (_, i) => `x${i} = ${i}`);
    write('src/store.py', `${lines.join('\n')}\n`);
    commit('Add the store');
    // Written as the scope work records them (`paths: [file:a-b]`), by hand: the memory is about lines 40-45.
    const note = [
      '---',
      'id: 0123456789abcdef0123456789abcdef',
      'type: decisions',
      'timestamp: 2026-03-01T10:00:00Z',
      'summary: Keep x40 to x45 in one block',
      'paths:',
      '  - src/store.py:40-45',
      '---',
      '',
      'They are read together.',
      '',
    ].join('\n');
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-f', '-m', note, 'HEAD']);
    memOk(repo, box.env, ['capture', 'learnings', 'The store module is loaded at startup', '-m', 'store']);
    const file = path.join(repo, 'src/store.py');
    const edit = { file_path: file, old_string: 'x41 = 41\nx42 = 42', new_string: 'x41 = 0\nx42 = 0' };
    const shown = summaries(context(await hook(repo, box.env, 'PreToolUse', payload(repo, 'PreToolUse', { tool_name: 'Edit', tool_input: edit, tool_use_id: 'toolu_e' }))));
    expect(shown[0]).toBe('Keep x40 to x45 in one block');
  });
});

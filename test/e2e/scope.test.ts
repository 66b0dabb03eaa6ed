/** A memory's scope (its `paths`) is its own, and its staleness follows that scope: issue 28, through the binary. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

interface Listed {
  summary: string;
  paths: string[];
  stale: { commits: number; lines: number; deleted: string[]; moved?: Array<{ from: string; to: string }> } | null;
}

function write(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

function commitFiles(dir: string, env: NodeJS.ProcessEnv, files: Record<string, string>, message: string): void {
  write(dir, files);
  git(dir, env, ['add', '-A']);
  git(dir, env, ['commit', '-qm', message]);
}

const listed = (dir: string, env: NodeJS.ProcessEnv) => new Map((JSON.parse(memOk(dir, env, ['list', '--json'])) as Listed[]).map((m) => [m.summary, m]));

/** A small Python project whose HEAD changed four files, src/cache.py among them. */
function project() {
  const box = sandbox();
  const dir = makeRepo(box, 'repo', 0);
  commitFiles(dir, box.env, { 'README.md': 'app\n' }, 'Start');
  commitFiles(dir, box.env, { 'src/cache.py': 'a\nb\nc\n', 'src/auth.py': 'x\ny\n', 'src/app.py': 'app\n', 'src/db.py': 'one\ntwo\nthree\nfour\n' }, 'The service');
  return { box, dir, env: box.env };
}

describe('a memory is about what it says it is about', () => {
  it('is not tied to every file its commit touched: only to the files its text names', () => {
    const { dir, env } = project();
    memOk(dir, env, ['capture', 'decisions', 'Use PostgreSQL instead of SQLite for production']);
    memOk(dir, env, ['capture', 'decisions', 'Create the Redis client lazily in cache.py']);
    let m = listed(dir, env);
    expect(m.get('Use PostgreSQL instead of SQLite for production')!.paths).toEqual([]);
    expect(m.get('Create the Redis client lazily in cache.py')!.paths).toEqual(['src/cache.py']);
    commitFiles(dir, env, { 'src/cache.py': 'a\nB\nc\nd\n' }, 'Change the cache');
    m = listed(dir, env);
    expect(m.get('Use PostgreSQL instead of SQLite for production')!.stale).toBeNull();
    expect(m.get('Create the Redis client lazily in cache.py')!.stale).toEqual({ commits: 1, lines: 3, deleted: [] });
    const text = memOk(dir, env, ['list']);
    expect(text).toMatch(/Use PostgreSQL instead of SQLite for production(?!.*stale)/);
  });

  it('takes the files given with --paths on capture, lines included, and refuses what is not a path in the repository', () => {
    const { dir, env } = project();
    memOk(dir, env, ['capture', 'decisions', 'Tokens expire after an hour', '--paths', 'src/auth.py']);
    memOk(dir, env, ['capture', 'learnings', 'The first two rows are headers', '--paths', './src/db.py:1-2,src/app.py']);
    memOk(dir, env, ['capture', 'learnings', 'Nothing in particular about cache.py', '--paths', '']);
    const m = listed(dir, env);
    expect(m.get('Tokens expire after an hour')!.paths).toEqual(['src/auth.py']);
    expect(m.get('The first two rows are headers')!.paths).toEqual(['src/db.py:1-2', 'src/app.py']);
    expect(m.get('Nothing in particular about cache.py')!.paths).toEqual([]);
    const bad = mem(dir, env, ['capture', 'decisions', 'Outside', '--paths', '/etc/passwd']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/not a file in the repository/);
    commitFiles(dir, env, { 'src/cache.py': 'changed\n' }, 'Change the cache');
    expect([...listed(dir, env).values()].map((x) => x.stale)).toEqual([null, null, null]);
    commitFiles(dir, env, { 'src/auth.py': 'x\nY\n' }, 'Change auth');
    expect(listed(dir, env).get('Tokens expire after an hour')!.stale).toEqual({ commits: 1, lines: 2, deleted: [] });
  });

  it('changes the files with --paths on edit, and an empty --paths leaves the memory about nothing in particular', () => {
    const { dir, env } = project();
    const id = memOk(dir, env, ['capture', 'decisions', 'Use gunicorn with uvicorn workers']).trim();
    memOk(dir, env, ['edit', id, '--paths', 'src/app.py:1']);
    expect(listed(dir, env).get('Use gunicorn with uvicorn workers')!.paths).toEqual(['src/app.py:1']);
    commitFiles(dir, env, { 'src/app.py': 'App\nmain()\n' }, 'Run the app');
    expect(listed(dir, env).get('Use gunicorn with uvicorn workers')!.stale).not.toBeNull();
    memOk(dir, env, ['edit', id, '--paths', '']);
    const m = listed(dir, env).get('Use gunicorn with uvicorn workers')!;
    expect(m.paths).toEqual([]);
    expect(m.stale).toBeNull();
  });

  it('takes paths from an import line, lines included', () => {
    const { dir, env } = project();
    const file = path.join(dir, '..', 'in.jsonl');
    fs.writeFileSync(file, `${JSON.stringify({ namespace: 'decisions', summary: 'Hash passwords with argon2', paths: ['src/auth.py:1-2'] })}\n${JSON.stringify({ namespace: 'decisions', summary: 'Deploy with a token' })}\n`);
    memOk(dir, env, ['import', file]);
    commitFiles(dir, env, { 'src/auth.py': 'X\ny\n' }, 'Change auth');
    const m = listed(dir, env);
    expect(m.get('Hash passwords with argon2')!.paths).toEqual(['src/auth.py:1-2']);
    expect(m.get('Hash passwords with argon2')!.stale).toEqual({ commits: 1, lines: 2, deleted: [] });
    // No paths, on a commit of four files: about nothing in particular.
    expect(m.get('Deploy with a token')!.stale).toBeNull();
    fs.writeFileSync(file, `${JSON.stringify({ namespace: 'decisions', summary: 'Bad', paths: ['../outside.py'] })}\n`);
    expect(mem(dir, env, ['import', file]).stderr).toMatch(/line 1: .*not a file in the repository/);
  });

  it('takes paths from the MCP capture tool', () => {
    const { dir, env } = project();
    const lines = [
      { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'capture', arguments: { namespace: 'decisions', summary: 'Sessions live in Redis', paths: ['src/cache.py:2-3'] } } },
    ];
    const r = spawnSync('git', ['mem', 'mcp'], { cwd: dir, env, encoding: 'utf8', input: lines.map((l) => JSON.stringify(l)).join('\n') + '\n' });
    expect(r.stdout).toMatch(/captured decisions:/);
    expect(listed(dir, env).get('Sessions live in Redis')!.paths).toEqual(['src/cache.py:2-3']);
  });
});

describe('staleness follows the scope', () => {
  it('judges the lines a memory is about, not the rest of its file', () => {
    const { dir, env } = project();
    memOk(dir, env, ['capture', 'learnings', 'The first two rows are headers', '--paths', 'src/db.py:1-2']);
    commitFiles(dir, env, { 'src/db.py': 'one\ntwo\nthree\nFOUR\nfive\n' }, 'Change the end of db.py');
    expect(listed(dir, env).get('The first two rows are headers')!.stale).toBeNull();
    commitFiles(dir, env, { 'src/db.py': 'one\nTWO\nthree\nFOUR\nfive\n' }, 'Change a header');
    expect(listed(dir, env).get('The first two rows are headers')!.stale).toEqual({ commits: 2, lines: 2, deleted: [] });
  });

  it('judges a memory without paths (written by an older tool) by its commit only when the commit is small', () => {
    const { dir, env } = project();
    const doc = (summary: string) => `---\ntype: decisions\ntimestamp: 2024-01-01T00:00:00Z\nsummary: ${summary}\n---\n\nWritten before paths.\n`;
    git(dir, env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', doc('Deploy with a token'), 'HEAD']);
    commitFiles(dir, env, { 'src/cache.py': 'small\n' }, 'One file');
    git(dir, env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', doc('The cache holds one value'), 'HEAD']);
    commitFiles(dir, env, { 'src/cache.py': 'smaller\n' }, 'The same file again');
    const m = listed(dir, env);
    expect(m.get('Deploy with a token')!.stale).toBeNull();
    expect(m.get('The cache holds one value')!.stale).toMatchObject({ lines: 2, deleted: [] });
  });

  it('measures a memory on an unmerged branch against that branch: its file is not deleted, its changes there count', () => {
    const { dir, env } = project();
    git(dir, env, ['checkout', '-qb', 'feature']);
    commitFiles(dir, env, { 'feat2.txt': 'feature\n' }, 'Add the feature');
    memOk(dir, env, ['capture', 'decisions', 'The feature reads feat2.txt']);
    git(dir, env, ['checkout', '-q', 'main']);
    commitFiles(dir, env, { 'src/cache.py': 'on main\n' }, 'Work on main');
    expect(listed(dir, env).get('The feature reads feat2.txt')!.stale).toBeNull();
    expect(memOk(dir, env, ['list'])).not.toMatch(/deleted/);
    git(dir, env, ['checkout', '-q', 'feature']);
    commitFiles(dir, env, { 'feat2.txt': 'feature\nmore\n' }, 'Grow the feature');
    git(dir, env, ['checkout', '-q', 'main']);
    expect(listed(dir, env).get('The feature reads feat2.txt')!.stale).toEqual({ commits: 1, lines: 1, deleted: [] });
  });

  it('follows a rename: a moved file is "moved to", not deleted', () => {
    const { dir, env } = project();
    commitFiles(dir, env, { 'src/util.py': 'def helper():\n    return 1\n' }, 'Add a helper');
    memOk(dir, env, ['capture', 'patterns', 'Helpers return plain values']);
    expect(listed(dir, env).get('Helpers return plain values')!.paths).toEqual(['src/util.py']);
    fs.mkdirSync(path.join(dir, 'lib'));
    git(dir, env, ['mv', 'src/util.py', 'lib/util.py']);
    git(dir, env, ['commit', '-qm', 'Move the helper']);
    expect(listed(dir, env).get('Helpers return plain values')!.stale).toEqual({ commits: 1, lines: 0, deleted: [], moved: [{ from: 'src/util.py', to: 'lib/util.py' }] });
    expect(memOk(dir, env, ['list'])).toContain('[stale: src/util.py moved to lib/util.py since]');
  });
});

describe('hook captures', () => {
  const hook = (dir: string, env: NodeJS.ProcessEnv, event: string, extra: object) => {
    const input = JSON.stringify({ session_id: 's1', transcript_path: '/nonexistent', cwd: dir, hook_event_name: event, prompt_id: 'p1', ...extra });
    const r = mem(dir, env, ['hook', event], { input });
    expect(r.code).toBe(0);
    return r.stdout;
  };

  it('are about the files the session edited under the prompt, with the lines edited, not the whole commit', () => {
    const { dir, env } = project();
    hook(dir, env, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: path.join(dir, 'src/app.py') }, tool_use_id: 't1' });
    hook(dir, env, 'PreToolUse', { tool_name: 'Edit', tool_input: { file_path: path.join(dir, 'src/db.py'), old_string: 'three', new_string: '3' }, tool_use_id: 't2' });
    hook(dir, env, 'Stop', { stop_hook_active: false, last_assistant_message: '[decision] Number the third row in digits' });
    // Another prompt's capture does not take this prompt's files: its text names auth.py.
    hook(dir, env, 'Stop', { prompt_id: 'p2', stop_hook_active: false, last_assistant_message: '[learning] Tokens are checked in auth.py' });
    const m = listed(dir, env);
    expect(m.get('Number the third row in digits')!.paths).toEqual(['src/db.py:3']);
    expect(m.get('Tokens are checked in auth.py')!.paths).toEqual(['src/auth.py']);
  });

  it('file context before an edit carries no staleness that came from another file of the commit', () => {
    const { dir, env } = project();
    memOk(dir, env, ['capture', 'decisions', 'Use gunicorn with uvicorn workers']);
    commitFiles(dir, env, { 'src/cache.py': 'a\nB\nc\nd\n' }, 'Change the cache');
    const out = hook(dir, env, 'PreToolUse', { tool_name: 'Edit', tool_input: { file_path: path.join(dir, 'src/auth.py'), old_string: 'y', new_string: 'z' }, tool_use_id: 't3' });
    // At d2550a4 the memory is shown (its commit wrote the file) with stale="1 commit, 3 lines since", from cache.py.
    // Whether it is shown at all is the file context's ranking; it never carries a staleness that is not its own.
    expect(out).not.toMatch(/stale=/);
  });
});

import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, refTip, sandbox } from './helpers.ts';

const ID = /^decisions:[0-9a-f]{7}:[0-9a-f]{10}$/;

describe('memory lifecycle through git mem', () => {
  it('captures on HEAD and reads back with show, list and plain git notes', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const id = memOk(repo, box.env, ['capture', 'decisions', 'Use sql.js for the index', '-m', 'No native modules.', '--tags', 'db,wasm', '--spec', 'core']);
    expect(id).toMatch(ID);
    const head = git(repo, box.env, ['rev-parse', 'HEAD']).trim();
    expect(id.split(':')[1]).toBe(head.slice(0, 7));

    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
    expect(note).toContain('summary: Use sql.js for the index');
    expect(note).toContain('type: decisions');
    expect(note).toContain('tags: [db, wasm]');
    expect(note).toContain('No native modules.');

    const shown = memOk(repo, box.env, ['show', id]);
    expect(shown).toContain('summary: Use sql.js for the index');
    expect(shown).toContain('spec: core');

    const json = JSON.parse(memOk(repo, box.env, ['show', id, '--json']));
    expect(json).toMatchObject({ id, namespace: 'decisions', commit: head, summary: 'Use sql.js for the index', body: 'No native modules.', tags: ['db', 'wasm'], status: 'active', author: 'Test User <test@example.com>' });

    const listed = memOk(repo, box.env, ['list']);
    expect(listed).toContain(id);
    expect(listed).toContain('Use sql.js for the index');
  });

  it('lists newest first with namespace, status, since and limit filters', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const env = (date: string) => ({ ...box.env, GIT_MEM_NOW: date });
    const a = memOk(repo, env('2026-01-01T00:00:00Z'), ['capture', 'decisions', 'first']);
    const b = memOk(repo, env('2026-02-01T00:00:00Z'), ['capture', 'learnings', 'second']);
    const c = memOk(repo, env('2026-03-01T00:00:00Z'), ['capture', 'blockers', 'third', '--status', 'resolved']);
    const ids = (args: string[]) => memOk(repo, box.env, ['list', ...args]).split('\n').filter(Boolean).map((l) => l.split(/\s+/)[0]);
    expect(ids([])).toEqual([c, b, a]);
    expect(ids(['--limit', '2'])).toEqual([c, b]);
    expect(ids(['-n', 'decisions', '-n', 'learnings'])).toEqual([b, a]);
    expect(ids(['--status', 'resolved'])).toEqual([c]);
    expect(ids(['--since', '2026-01-15'])).toEqual([c, b]);
    const json = JSON.parse(memOk(repo, box.env, ['list', '--json', '--limit', '1']));
    expect(json).toHaveLength(1);
    expect(json[0].id).toBe(c);
  });

  it('edits, resolves and forgets, leaving a tombstone in the note', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const keep = memOk(repo, box.env, ['capture', 'blockers', 'CI is red on main']);
    const id = memOk(repo, box.env, ['capture', 'blockers', 'Flaky network test']);
    const key = id.split(':')[2]!;

    expect(memOk(repo, box.env, ['edit', key.slice(0, 6), '--summary', 'Flaky network test in sync', '-m', 'Retries hide it.', '--tags', 'ci'])).toBe(id);
    const edited = JSON.parse(memOk(repo, box.env, ['show', id, '--json']));
    expect(edited).toMatchObject({ summary: 'Flaky network test in sync', body: 'Retries hide it.', tags: ['ci'] });
    expect(Date.parse(edited.updated)).toBeGreaterThanOrEqual(Date.parse(edited.created));

    memOk(repo, box.env, ['resolve', id]);
    expect(JSON.parse(memOk(repo, box.env, ['show', id, '--json'])).status).toBe('resolved');

    expect(memOk(repo, box.env, ['forget', id])).toBe(`forgot ${id}`);
    expect(memOk(repo, box.env, ['list'])).not.toContain(id);
    expect(mem(repo, box.env, ['show', id]).code).toBe(1);
    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/blockers', 'show', 'HEAD']);
    expect(note).toContain('CI is red on main');
    expect(note).not.toContain('Flaky');
    expect(note).toMatch(new RegExp(`id: "?${edited.key}"?\\nforgotten: `));
    expect(memOk(repo, box.env, ['list'])).toContain(keep);
    // One notes commit per write: the notes history is an audit log.
    const log = git(repo, box.env, ['log', '--format=%s', 'refs/notes/mem/blockers']).trim().split('\n');
    expect(log).toEqual([`forget ${id}`, `edit ${id}`, `edit ${id}`, `capture ${id}`, `capture ${keep}`]);
  });

  it("takes a secret named in the body out of the summary that repeats it bare, in the note git stores", () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const value = 'Q7mZp2Lx9RtV4wKc';
    const r = mem(repo, box.env, ['capture', 'decisions', `We decided to keep ${value} for the deploy job`, '-m', `The staging password is ${value}. We decided to keep it for the deploy job because prod is locked.`]);
    expect(r.code, r.stderr).toBe(0);
    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
    expect(note).not.toContain(value);
    expect(note).toContain('We decided to keep [REDACTED:password] for the deploy job');
  });

  it('reads the body from --file and stdin, and redacts secrets before writing', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const file = path.join(box.root, 'body.md');
    fs.writeFileSync(file, '## Context\nFrom a file.\n');
    const a = memOk(repo, box.env, ['capture', 'research', 'Body from file', '--file', file]);
    expect(JSON.parse(memOk(repo, box.env, ['show', a, '--json'])).body).toBe('## Context\nFrom a file.');
    const b = memOk(repo, box.env, ['capture', 'research', 'Body from stdin', '-m', '-'], 'piped body\n');
    expect(JSON.parse(memOk(repo, box.env, ['show', b, '--json'])).body).toBe('piped body');

    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const r = mem(repo, box.env, ['capture', 'learnings', 'Deploy token handling', '-m', `the token is ${token} and password=hunter2secret`]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/redacted 2 secret/);
    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/learnings', 'show', 'HEAD']);
    expect(note).not.toContain(token);
    expect(note).not.toContain('hunter2secret');
    expect(note).toContain('[REDACTED:github_token]');
    expect(note).toContain('[REDACTED:password]');
  });

  it('follows mem.secrets: block refuses, warn keeps, and the allowlist skips known values', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const key = 'AKIA' + 'Q3VZ7K2MWD5TRX4N'; // not AWS's documented EXAMPLE key, which is left as it is
    const before = git(repo, box.env, ['for-each-ref', 'refs/notes/']);
    const blocked = mem(repo, { ...box.env, GIT_MEM_SECRETS: 'block' }, ['capture', 'learnings', 'Key handling', '-m', `key ${key}`]);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/refusing to store a secret \(aws_access_key\)/);
    expect(git(repo, box.env, ['for-each-ref', 'refs/notes/'])).toBe(before);
    const warned = mem(repo, { ...box.env, GIT_MEM_SECRETS: 'warn' }, ['capture', 'learnings', 'Key kept', '-m', `key ${key}`]);
    expect(warned.stderr).toMatch(/warning: stored 1 possible secret/);
    expect(JSON.parse(memOk(repo, box.env, ['show', warned.stdout.trim(), '--json'])).body).toBe(`key ${key}`);
    const digest = createHash('sha256').update(key).digest('hex');
    git(repo, box.env, ['config', '--add', 'mem.secrets.allow', digest.slice(0, 16)]);
    const allowed = memOk(repo, box.env, ['capture', 'learnings', 'Key allowed', '-m', `key ${key} and ghp_${'Z9y8X7w6V5'.repeat(4)}`]);
    const body = JSON.parse(memOk(repo, box.env, ['show', allowed, '--json'])).body;
    expect(body).toContain(key);
    expect(body).toContain('[REDACTED:github_token]');
  });

  it('shows namespaces with counts, including ones added through config', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    git(repo, box.env, ['config', '--add', 'mem.namespaces', 'incidents']);
    memOk(repo, box.env, ['capture', 'incidents', 'Outage on deploy']);
    memOk(repo, box.env, ['capture', 'decisions', 'One']);
    memOk(repo, box.env, ['capture', 'decisions', 'Two']);
    const rows = JSON.parse(memOk(repo, box.env, ['namespaces', '--json'])) as Array<{ name: string; count: number }>;
    expect(rows.map((r) => r.name).slice(0, 10)).toEqual(['inception', 'elicitation', 'research', 'decisions', 'progress', 'blockers', 'reviews', 'learnings', 'retrospective', 'patterns']);
    expect(rows.find((r) => r.name === 'decisions')?.count).toBe(2);
    expect(rows.find((r) => r.name === 'incidents')?.count).toBe(1);
    expect(memOk(repo, box.env, ['namespaces'])).toMatch(/incidents\s+1/);
    const env = { ...box.env, GIT_MEM_NAMESPACES: 'ops' };
    expect(mem(repo, env, ['capture', 'ops', 'From the environment']).code).toBe(0);
    expect(refTip(repo, box.env, 'refs/notes/mem/ops')).not.toBeNull();
  });

  it('answers --help for every command and --version', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    for (const cmd of ['capture', 'show', 'list', 'edit', 'resolve', 'forget', 'namespaces']) {
      const r = mem(repo, box.env, [cmd, '--help']);
      expect(r.code, cmd).toBe(0);
      expect(r.stdout, cmd).toContain(`git mem ${cmd}`);
    }
    expect(memOk(repo, box.env, ['--version'])).toMatch(/^git-mem \d+\.\d+\.\d+$/);
    const top = spawnHelp(box.env, repo);
    expect(top).toContain('capture');
  });
});

function spawnHelp(env: NodeJS.ProcessEnv, cwd: string): string {
  return mem(cwd, env, ['-h']).stdout;
}

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

/** Every notes ref and its value: must be unchanged after a rejected command. */
function notesState(repo: string, env: NodeJS.ProcessEnv): string {
  return git(repo, env, ['for-each-ref', 'refs/notes/']);
}

function expectRejected(r: { code: number; stderr: string }, code: number, pattern: RegExp): void {
  expect(r.code).toBe(code);
  const lines = r.stderr.trim().split('\n');
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('bad input: one line on stderr, a non-zero exit, nothing written', () => {
  it('rejects bad captures', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'decisions', 'Existing']);
    const before = notesState(repo, box.env);
    expectRejected(mem(repo, box.env, ['capture', 'nonsense', 'x']), 2, /unknown namespace 'nonsense'.*decisions.*learnings/);
    expectRejected(mem(repo, box.env, ['capture', 'decisions', '  ']), 2, /summary is empty/);
    expectRejected(mem(repo, box.env, ['capture', 'decisions', 'x'.repeat(101)]), 2, /101 characters, over the limit of 100.*--force-truncate/);
    expectRejected(mem(repo, box.env, ['capture', 'decisions', 'ok', '--file', '-'], { input: 'y'.repeat(100 * 1024 + 1) }), 2, /over the limit of 102400/);
    expectRejected(mem(repo, box.env, ['capture', 'decisions', 'ok', '--commit', 'no-such-rev']), 1, /no such commit: no-such-rev/);
    expectRejected(mem(repo, box.env, ['capture', 'decisions', 'ok', '--status', 'done']), 2, /Invalid values|choices/i);
    expectRejected(mem(repo, box.env, ['capture', 'decisions', 'ok', '--file', path.join(box.root, 'missing.md')]), 2, /cannot read --file/);
    expectRejected(mem(repo, box.env, ['frobnicate']), 2, /Unknown argument|Unknown command|frobnicate/i);
    expect(notesState(repo, box.env)).toBe(before);

    const long = memOk(repo, box.env, ['capture', 'decisions', 'z'.repeat(120), '--force-truncate']);
    expect(JSON.parse(memOk(repo, box.env, ['show', long, '--json'])).summary).toHaveLength(100);
  });

  it('rejects unknown and malformed ids', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const ids = [memOk(repo, box.env, ['capture', 'learnings', 'Learning'])];
    const before = notesState(repo, box.env);
    expectRejected(mem(repo, box.env, ['show', 'ffffffffff']), 1, /no memory matches 'ffffffffff'/);
    expectRejected(mem(repo, box.env, ['show', 'not-an-id']), 2, /is not a memory id/);
    expectRejected(mem(repo, box.env, ['edit', 'ffffff', '--summary', 'x']), 1, /no memory matches/);
    expectRejected(mem(repo, box.env, ['forget', 'ffffff']), 1, /no memory matches/);
    expectRejected(mem(repo, box.env, ['edit', ids[0]!]), 2, /nothing to change/);
    expect(notesState(repo, box.env)).toBe(before);
  });

  it('reports an ambiguous prefix with every candidate; the commit in an id narrows them', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 2);
    // Memories whose keys share a prefix, written by plain git with explicit ids (one hand-written, not hex).
    const doc = (id: string, s: string) => `---\nid: ${id}\ntype: decisions\ntimestamp: 2026-01-01T00:00:00Z\nsummary: ${s}\n---\n\nbody`;
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', `${doc('abcd111111111111', 'one')}\n\n${doc('abcd222222222222', 'two')}`, 'HEAD']);
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', doc('abcd-by-hand', 'three'), 'HEAD~1']);
    const r = mem(repo, box.env, ['show', 'abcd']);
    expectRejected(r, 2, /id 'abcd' is ambiguous; candidates: decisions:[0-9a-f]{7}:abcd-by-hand, decisions:[0-9a-f]{7}:abcd111111, decisions:[0-9a-f]{7}:abcd222222/);
    expect(memOk(repo, box.env, ['show', 'abcd2'])).toContain('summary: two');
    const older = git(repo, box.env, ['rev-parse', '--short=7', 'HEAD~1']).trim();
    expect(memOk(repo, box.env, ['show', `decisions:${older}:abcd`])).toContain('summary: three');
    expectRejected(mem(repo, box.env, ['show', `learnings:${older}:abcd`]), 1, /no memory matches/);
  });

  it('the commit in an id matches any copy of a memory, whatever characters a hand-written id holds', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 2);
    const doc = (id: string, s: string, updated = '2024-01-01T00:00:00Z') => `---\nid: ${id}\ntype: decisions\ntimestamp: 2024-01-01T00:00:00Z\nupdated: ${updated}\nsummary: ${s}\n---\n\nbody`;
    // "abcd my, note" has copies on both commits, the newer revision (the current one) on the older
    // commit; the other key is on the older commit only.
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', doc('abcd my, note', 'spaced'), 'HEAD']);
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', `${doc('abcd my, note', 'spaced', '2024-02-01T00:00:00Z')}\n\n${doc('abcdef0123456789', 'hex')}`, 'HEAD~1']);
    const head = git(repo, box.env, ['rev-parse', '--short=7', 'HEAD']).trim();
    expect(memOk(repo, box.env, ['show', `decisions:${head}:abcd`])).toContain('summary: spaced');
    expectRejected(mem(repo, box.env, ['show', 'abcd']), 2, /is ambiguous/);
  });

  it('fails outside a git repository', () => {
    const box = sandbox();
    const dir = path.join(box.root, 'plain');
    fs.mkdirSync(dir);
    const env = { ...box.env, GIT_CEILING_DIRECTORIES: box.root };
    expectRejected(mem(dir, env, ['list']), 1, /not a git repository/);
    expectRejected(mem(dir, env, ['capture', 'decisions', 'x']), 1, /not a git repository/);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

interface FileJson {
  path: string;
  status: string;
  kind: string;
  blob: string | null;
  size: number | null;
  binary: boolean;
  truncated: boolean;
  content: string | null;
}

function hydrateJson(repo: string, env: NodeJS.ProcessEnv, args: string[]) {
  return JSON.parse(memOk(repo, env, ['hydrate', ...args, '--json']));
}

function commitAll(repo: string, env: NodeJS.ProcessEnv, message: string, date = '2026-02-03T04:05:06+0100'): string {
  git(repo, env, ['add', '-A']);
  git(repo, { ...env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }, ['commit', '-qm', message]);
  return git(repo, env, ['rev-parse', 'HEAD']).trim();
}

describe('git mem hydrate', () => {
  it('shows the memory with its commit at FULL level', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    const sha = commitAll(repo, box.env, 'Add a\n\nWith a longer body.');
    const id = memOk(repo, box.env, ['capture', 'decisions', 'Keep a', '-m', 'Because.', '--tags', 'x,y', '--spec', 'core']);
    const out = memOk(repo, box.env, ['hydrate', id]);
    expect(out).toContain('summary: Keep a');
    expect(out).toContain('spec: core');
    expect(out).toContain('Because.');
    expect(out).toContain(`commit ${sha}\nAuthor: Test User <test@example.com>\nDate:   2026-02-03T04:05:06+01:00\n\n    Add a`);
    expect(out).toContain('paths: [a.txt]'); // recorded at capture
    expect(out.replace('paths: [a.txt]', '')).not.toContain('a.txt'); // no files at FULL level
    const json = hydrateJson(repo, box.env, [id]);
    expect(json).toMatchObject({
      level: 'full',
      memory: { id, summary: 'Keep a', body: 'Because.', tags: ['x', 'y'], spec: 'core', commit: sha },
      commit: { sha, author: 'Test User <test@example.com>', date: '2026-02-03T04:05:06+01:00', subject: 'Add a', parents: [expect.stringMatching(/^[0-9a-f]{40}$/)] },
      notice: null,
    });
    expect(json).not.toHaveProperty('files');
    // Any unique key prefix works, as everywhere.
    expect(hydrateJson(repo, box.env, [id.split(':')[2]!.slice(0, 6)]).memory.id).toBe(id);
  });

  it('adds the files the commit changed, as they were at that commit, at FILES level', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 0);
    fs.writeFileSync(path.join(repo, 'keep.txt'), 'unchanged\n');
    fs.writeFileSync(path.join(repo, 'gone.txt'), 'to be deleted\n');
    commitAll(repo, box.env, 'base');
    fs.mkdirSync(path.join(repo, 'dir with space'));
    fs.writeFileSync(path.join(repo, 'dir with space', 'naïve.md'), '# Old title\n');
    fs.writeFileSync(path.join(repo, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2, 3]));
    fs.writeFileSync(path.join(repo, 'big.txt'), 'é'.repeat(3000)); // 6000 bytes of two-byte characters
    fs.rmSync(path.join(repo, 'gone.txt'));
    fs.symlinkSync('/etc/passwd', path.join(repo, 'link'));
    const sha = commitAll(repo, box.env, 'The change');
    const id = memOk(repo, box.env, ['capture', 'progress', 'Did the change']);
    // Later changes, committed and not: hydrate shows the files as they were at the memory's commit.
    fs.writeFileSync(path.join(repo, 'dir with space', 'naïve.md'), '# New title\n');
    commitAll(repo, box.env, 'later');
    fs.writeFileSync(path.join(repo, 'big.txt'), 'working tree only');

    const json = hydrateJson(repo, box.env, [id, '--level', 'files', '--max-bytes', '1001']);
    expect(json.commit.sha).toBe(sha);
    expect(json.files).toMatchObject({ total: 5, omitted: 0, max_files: 20, max_bytes: 1001 });
    const byPath = new Map((json.files.shown as FileJson[]).map((f) => [f.path, f]));
    expect([...byPath.keys()].sort()).toEqual(['big.txt', 'dir with space/naïve.md', 'gone.txt', 'link', 'logo.png']);
    expect(byPath.get('dir with space/naïve.md')).toMatchObject({ status: 'added', kind: 'file', content: '# Old title\n', binary: false, truncated: false, size: 12 });
    expect(byPath.get('logo.png')).toMatchObject({ status: 'added', binary: true, content: null, size: 9 });
    expect(byPath.get('gone.txt')).toMatchObject({ status: 'deleted', blob: null, content: null });
    // Truncated on a character boundary: 1001 bytes hold 500 two-byte characters.
    expect(byPath.get('big.txt')).toMatchObject({ truncated: true, size: 6000, content: 'é'.repeat(500) });
    // A symlink is shown as git stores it (its target), never followed.
    expect(byPath.get('link')).toMatchObject({ kind: 'symlink', content: '/etc/passwd' });
    expect(byPath.has('keep.txt')).toBe(false);

    const text = memOk(repo, box.env, ['hydrate', id, '--level', 'files', '--max-bytes', '1001']);
    expect(text).toContain(`5 files changed against `);
    expect(text).toContain('=== dir with space/naïve.md (added, 12 bytes) ===\n# Old title');
    expect(text).toContain('=== logo.png (added, binary, 9 bytes; not shown) ===');
    expect(text).toContain('=== gone.txt (deleted) ===');
    expect(text).toContain('=== big.txt (added, 6000 bytes; first 1000 shown) ===');
    expect(text).toContain('[truncated at 1001 bytes (--max-bytes)]');
    expect(text).not.toContain('New title');
    expect(text).not.toContain('working tree only');
    expect(text).not.toContain('root:'); // /etc/passwd was not read
  });

  it('bounds the number of files, and shows everything of a root commit', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 0);
    for (let i = 0; i < 25; i++) fs.writeFileSync(path.join(repo, `f${String(i).padStart(2, '0')}.txt`), `file ${i}\n`);
    commitAll(repo, box.env, 'root with 25 files');
    const id = memOk(repo, box.env, ['capture', 'progress', 'Initial import']);
    const json = hydrateJson(repo, box.env, [id, '--level', 'files']);
    expect(json.files).toMatchObject({ base: null, total: 25, omitted: 5 });
    expect(json.files.shown.map((f: FileJson) => f.path)).toEqual(Array.from({ length: 20 }, (_, i) => `f${String(i).padStart(2, '0')}.txt`));
    expect(json.files.shown[0]).toMatchObject({ status: 'added', content: 'file 0\n' });
    expect(memOk(repo, box.env, ['hydrate', id, '--level', 'files'])).toContain('25 files changed; 5 more not shown (--max-files 20)');
    const three = hydrateJson(repo, box.env, [id, '--level', 'files', '--max-files', '3']);
    expect(three.files.shown).toHaveLength(3);
    expect(three.files.omitted).toBe(22);
    expect(hydrateJson(repo, box.env, [id, '--level', 'files', '--max-files', '0']).files).toMatchObject({ total: 25, omitted: 25, shown: [] });
  });

  it('shows a merge commit against its first parent', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    git(repo, box.env, ['checkout', '-qb', 'side']);
    fs.writeFileSync(path.join(repo, 'side.txt'), 'from side\n');
    commitAll(repo, box.env, 'side work');
    git(repo, box.env, ['checkout', '-q', 'main']);
    fs.writeFileSync(path.join(repo, 'main.txt'), 'from main\n');
    const mainTip = commitAll(repo, box.env, 'main work');
    git(repo, box.env, ['merge', '-q', '--no-ff', '-m', 'Merge side', 'side']);
    const id = memOk(repo, box.env, ['capture', 'progress', 'Merged side']);
    const json = hydrateJson(repo, box.env, [id, '--level', 'files']);
    expect(json.commit.subject).toBe('Merge side');
    expect(json.commit.parents).toHaveLength(2);
    expect(json.files.base).toBe(mainTip);
    expect(json.files.shown.map((f: FileJson) => f.path)).toEqual(['side.txt']);
    expect(memOk(repo, box.env, ['hydrate', id])).toMatch(/Merge: [0-9a-f]{7} [0-9a-f]{7}/);
  });

  it('says so when a memory has no commit: captured before the first commit', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 0);
    const id = memOk(repo, box.env, ['capture', 'inception', 'Before anything']);
    for (const level of ['full', 'files']) {
      const r = mem(repo, box.env, ['hydrate', id, '--level', level]);
      expect(r.code, level).toBe(0);
      expect(r.stdout, level).toContain('summary: Before anything');
      expect(r.stdout, level).toMatch(/no commit: this memory is attached to the empty tree/);
      const json = hydrateJson(repo, box.env, [id, '--level', level]);
      expect(json.commit, level).toBeNull();
      expect(json.notice, level).toMatch(/empty tree/);
      expect(json, level).not.toHaveProperty('files');
    }
  });

  it('says so when the commit is not in this clone', () => {
    const box = sandbox();
    const origin = makeRepo(box, 'origin');
    git(origin, box.env, ['checkout', '-qb', 'side']);
    git(origin, box.env, ['commit', '-q', '--allow-empty', '-m', 'only on side']);
    const id = memOk(origin, box.env, ['capture', 'research', 'Side finding']);
    git(origin, box.env, ['checkout', '-q', 'main']);
    const clone = path.join(box.root, 'clone');
    git(box.root, box.env, ['clone', '-q', '--no-local', '--single-branch', '--branch', 'main', origin, clone]);
    git(clone, box.env, ['fetch', '-q', 'origin', 'refs/notes/mem/*:refs/notes/mem/*']);
    const r = mem(clone, box.env, ['hydrate', id, '--level', 'files']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('summary: Side finding');
    expect(r.stdout).toMatch(/commit [0-9a-f]{7} is not in this repository/);
  });

  it('rejects unknown ids and bad limits', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const id = memOk(repo, box.env, ['capture', 'decisions', 'Something']);
    expect(mem(repo, box.env, ['hydrate', 'decisions:abcdef0:abcdef0123']).code).toBe(1);
    expect(mem(repo, box.env, ['hydrate', 'not-an-id']).code).toBe(2);
    expect(mem(repo, box.env, ['hydrate', id, '--max-files', '-1']).code).toBe(2);
    expect(mem(repo, box.env, ['hydrate', id, '--max-bytes', 'lots']).code).toBe(2);
    expect(mem(repo, box.env, ['hydrate', id, '--level', 'summary']).code).toBe(2);
  });
});

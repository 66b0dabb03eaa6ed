import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PYTHON_DOC } from '../fixtures/python-note.ts';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

const PYTHON_NOTE_A = PYTHON_DOC;

const PYTHON_NOTE_B = `---
type: decisions
timestamp: 2025-12-22T09:00:00Z
summary: Use git notes append for captures
status: resolved
relates_to: [decisions:abc1234:0]
---

One note per commit; documents are appended.

---

A horizontal rule above is part of the body.`;

function listIds(repo: string, env: NodeJS.ProcessEnv): string[] {
  return (JSON.parse(memOk(repo, env, ['list', '--json'])) as Array<{ id: string }>).map((m) => m.id);
}

/** Writes `count` commits, each with a note in refs/notes/mem/<ns>, in one fast-import stream (git fans the notes tree out). */
function fastImportNotes(repo: string, env: NodeJS.ProcessEnv, count: number, ns = 'decisions'): void {
  let stream = '';
  for (let i = 1; i <= count; i++) {
    stream += `commit refs/heads/main\nmark :${i}\ncommitter T <t@example.com> ${1700000000 + i} +0000\ndata 5\nc${String(i).padStart(3, '0')}\n`;
    if (i === 1) stream += 'from refs/heads/main^0\n';
    stream += `M 644 inline f.txt\ndata ${String(i).length}\n${i}\n`;
  }
  stream += `commit refs/notes/mem/${ns}\ncommitter T <t@example.com> 1700001000 +0000\ndata 6\nnotes\n`;
  for (let i = 1; i <= count; i++) {
    const body = `---\ntype: ${ns}\ntimestamp: 2025-01-01T00:00:00Z\nsummary: Imported note ${i}\n---\n\nbody ${i}\n`;
    stream += `N inline :${i}\ndata ${Buffer.byteLength(body)}\n${body}`;
  }
  git(repo, env, ['fast-import', '--quiet'], stream);
}

describe('notes storage and interop with git', () => {
  it('reads notes written by the earlier Python system, several documents per note, with stable ids', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', PYTHON_NOTE_A, 'HEAD']);
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'append', '-m', PYTHON_NOTE_B, 'HEAD']);
    const memories = JSON.parse(memOk(repo, box.env, ['list', '--json']));
    expect(memories.map((m: { summary: string }) => m.summary)).toEqual(['Use git notes append for captures', 'Lazy loading via __getattr__ to avoid embedding model import penalty']);
    expect(memories[0]).toMatchObject({ status: 'resolved', relates_to: ['decisions:abc1234:0'], created: '2025-12-22T09:00:00Z' });
    expect(memories[0].body).toContain('A horizontal rule above is part of the body.');
    expect(memories[1]).toMatchObject({ spec: 'git-notes-memory', tags: ['performance', 'architecture'] });

    // Ids survive a rebuild of the index from scratch.
    const before = listIds(repo, box.env);
    fs.rmSync(path.join(repo, '.git', 'mem'), { recursive: true });
    expect(listIds(repo, box.env)).toEqual(before);

    // Editing one document rewrites only that one; the other keeps its bytes and id.
    memOk(repo, box.env, ['edit', before[1]!, '--status', 'archived']);
    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
    expect(note).toContain(PYTHON_NOTE_B);
    expect(listIds(repo, box.env).sort()).toEqual([...before].sort());
  });

  it('reads fanned-out notes trees and writes into them without duplicate notes', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    fastImportNotes(repo, box.env, 300);
    const top = git(repo, box.env, ['ls-tree', 'refs/notes/mem/decisions']);
    expect(top).toMatch(/^040000 tree [0-9a-f]{40}\t[0-9a-f]{2}$/m); // git fanned it out
    expect(listIds(repo, box.env)).toHaveLength(300);

    const target = git(repo, box.env, ['rev-parse', 'HEAD~10']).trim();
    const id = memOk(repo, box.env, ['capture', 'decisions', 'Written into a fanned-out tree', '--commit', 'HEAD~10']);
    const paths = git(repo, box.env, ['ls-tree', '-r', '--name-only', 'refs/notes/mem/decisions']).split('\n').filter((p) => p.replace('/', '') === target);
    expect(paths).toEqual([`${target.slice(0, 2)}/${target.slice(2)}`]);
    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', target]);
    expect(note).toContain('Imported note 290');
    expect(note).toContain('Written into a fanned-out tree');
    expect(listIds(repo, box.env)).toContain(id);
    expect(listIds(repo, box.env)).toHaveLength(301);
    // git agrees there is exactly one note per annotated commit.
    expect(git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'list']).trim().split('\n')).toHaveLength(300);
  });

  it('fans a flat tree out as it grows past 255 notes, and git reads every note', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    fastImportNotes(repo, box.env, 255, 'progress');
    git(repo, box.env, ['commit', '-q', '--allow-empty', '-m', 'one more']);
    memOk(repo, box.env, ['capture', 'progress', 'The 256th note']);
    const top = git(repo, box.env, ['ls-tree', 'refs/notes/mem/progress']);
    expect(top).not.toMatch(/blob/);
    expect(git(repo, box.env, ['notes', '--ref=refs/notes/mem/progress', 'list']).trim().split('\n')).toHaveLength(256);
    expect(git(repo, box.env, ['notes', '--ref=refs/notes/mem/progress', 'show', 'HEAD'])).toContain('The 256th note');
  });

  it('shares memories between linked worktrees', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const wt = path.join(box.root, 'wt');
    git(repo, box.env, ['worktree', 'add', '-q', '-b', 'feature', wt]);
    const fromWt = memOk(wt, box.env, ['capture', 'progress', 'Captured in the worktree']);
    expect(listIds(repo, box.env)).toContain(fromWt);
    const fromMain = memOk(repo, box.env, ['capture', 'progress', 'Captured in the main checkout']);
    expect(listIds(wt, box.env).sort()).toEqual([fromMain, fromWt].sort());
    expect(git(repo, box.env, ['notes', '--ref=refs/notes/mem/progress', 'show', 'HEAD'])).toContain('Captured in the worktree');
  });

  it('works in a repository with no commits yet', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'empty', 0);
    const id = memOk(repo, box.env, ['capture', 'inception', 'Build a memory for agents']);
    expect(listIds(repo, box.env)).toEqual([id]);
    expect(memOk(repo, box.env, ['show', id])).toContain('Build a memory for agents');
  });

  it('works with packed refs and after git gc', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 3);
    const a = memOk(repo, box.env, ['capture', 'learnings', 'Before gc']);
    git(repo, box.env, ['pack-refs', '--all']);
    git(repo, box.env, ['gc', '-q', '--prune=now']);
    expect(fs.existsSync(path.join(repo, '.git', 'refs', 'notes', 'mem', 'learnings'))).toBe(false);
    const b = memOk(repo, box.env, ['capture', 'learnings', 'After gc', '--commit', 'HEAD~1']);
    expect(listIds(repo, box.env).sort()).toEqual([a, b].sort());
    memOk(repo, box.env, ['forget', a]);
    expect(listIds(repo, box.env)).toEqual([b]);
  });

  it('sees notes changed by plain git, and rebuilds a corrupt index with a notice', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 2);
    memOk(repo, box.env, ['capture', 'patterns', 'Through git-mem']);
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/patterns', 'add', '-m', '---\ntype: patterns\ntimestamp: 2026-01-01T00:00:00Z\nsummary: Through plain git\n---\n\nbody', 'HEAD~1']);
    expect(memOk(repo, box.env, ['list'])).toContain('Through plain git');
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/patterns', 'remove', 'HEAD~1']);
    expect(memOk(repo, box.env, ['list'])).not.toContain('Through plain git');

    fs.writeFileSync(path.join(repo, '.git', 'mem', 'index.sqlite'), 'garbage, not a database');
    // list and show read the term index, which still matches the refs; git mem index reads the SQLite index.
    expect(mem(repo, box.env, ['list'])).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining('Through git-mem') });
    const id = JSON.parse(memOk(repo, box.env, ['list', '--json']))[0].id;
    expect(mem(repo, box.env, ['show', id])).toMatchObject({ code: 0, stderr: '', stdout: expect.stringContaining('Through git-mem') });
    const r = mem(repo, box.env, ['index']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/1 memor/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/rebuilding/);
    // Both damaged: list rebuilds from the notes too.
    fs.writeFileSync(path.join(repo, '.git', 'mem', 'index.sqlite'), 'garbage, not a database');
    fs.writeFileSync(path.join(repo, '.git', 'mem', 'terms.idx'), 'garbage');
    const l = mem(repo, box.env, ['list']);
    expect(l).toMatchObject({ code: 0, stdout: expect.stringContaining('Through git-mem') });
    expect(l.stderr).toMatch(/rebuilding/);
  });

  it('skips invalid and binary notes with a warning and never rewrites them', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 3);
    const bad = '---\ntype: decisions\nsummary: [unclosed\n---\n\nbody';
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', bad, 'HEAD~2']);
    const blob = git(repo, box.env, ['hash-object', '-w', '--stdin'], 'bin\0ary\0data');
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-C', blob.trim(), 'HEAD~1']);
    const good = memOk(repo, box.env, ['capture', 'decisions', 'A good one']);
    const r = mem(repo, box.env, ['list']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([expect.stringContaining(good)]);
    expect(r.stderr).toMatch(/invalid YAML/);
    expect(r.stderr).toMatch(/binary/);

    // A capture on the commit with the invalid note keeps that text byte for byte.
    memOk(repo, box.env, ['capture', 'decisions', 'Next to a broken one', '--commit', 'HEAD~2']);
    expect(git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD~2']).startsWith(`${bad}\n\n---\n`)).toBe(true);
    // A capture on the commit with the binary note is refused and writes nothing.
    const tip = git(repo, box.env, ['rev-parse', 'refs/notes/mem/decisions']);
    const refused = mem(repo, box.env, ['capture', 'decisions', 'Onto binary', '--commit', 'HEAD~1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/binary/);
    expect(git(repo, box.env, ['rev-parse', 'refs/notes/mem/decisions'])).toBe(tip);
  });
});

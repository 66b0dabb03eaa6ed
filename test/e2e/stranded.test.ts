/**
 * Memories never stranded (issue 30): moved by hand onto a commit (every
 * copy), imported from another repository onto a commit here, followed
 * through a local squash merge whose branch is deleted and gc'd, matched
 * from what was recorded at capture once the commit is gone, and reported
 * by doctor while stranded. A teammate's memory on a commit never fetched
 * stays put; another worktree's HEAD counts as live; two namespaces may
 * share a key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, type Sandbox, sandbox } from './helpers.ts';

function commitFile(cwd: string, env: NodeJS.ProcessEnv, file: string, text: string, message: string): string {
  fs.writeFileSync(path.join(cwd, file), text);
  git(cwd, env, ['add', file]);
  git(cwd, env, ['commit', '-qm', message]);
  return git(cwd, env, ['rev-parse', 'HEAD']).trim();
}

function capture(cwd: string, env: NodeJS.ProcessEnv, summary: string, ...args: string[]): string {
  return memOk(cwd, env, ['capture', 'decisions', summary, ...args]).split('\n').pop()!.trim();
}

function repo(box: Sandbox, hooks = false): string {
  const dir = makeRepo(box, 'repo', 1);
  memOk(dir, box.env, ['init', ...(hooks ? [] : ['--no-git-hooks'])]);
  return dir;
}

/** The commits holding a note in a namespace, sorted. */
function noted(dir: string, env: NodeJS.ProcessEnv, namespace = 'decisions'): string[] {
  return git(dir, env, ['notes', `--ref=refs/notes/mem/${namespace}`, 'list'])
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ')[1]!)
    .sort();
}

function prune(dir: string, env: NodeJS.ProcessEnv): void {
  git(dir, env, ['reflog', 'expire', '--expire=now', '--all']);
  git(dir, env, ['gc', '-q', '--prune=now']);
}

function objectOf(dir: string, env: NodeJS.ProcessEnv, id: string): string {
  return (JSON.parse(memOk(dir, env, ['show', id, '--json'])) as { commit: string }).commit;
}

describe('moving memories by hand', () => {
  it('reanchor <id> --to <rev> moves every copy of a memory, --dry-run writes nothing', () => {
    const box = sandbox();
    const dir = repo(box);
    const first = commitFile(dir, box.env, 'a.txt', 'a\n', 'Add a');
    const id = capture(dir, box.env, 'Why a exists', '--paths', 'a.txt');
    // notes.rewriteRef (set by init) copies the note onto the amended commit: two copies.
    fs.writeFileSync(path.join(dir, 'a.txt'), 'a2\n');
    git(dir, box.env, ['commit', '-qa', '--amend', '-m', 'Add a (amended)']);
    const amended = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    expect(noted(dir, box.env)).toEqual([first, amended].sort());
    const target = commitFile(dir, box.env, 'b.txt', 'b\n', 'Add b');

    const dry = memOk(dir, box.env, ['reanchor', id, '--to', 'HEAD', '--dry-run']);
    expect(dry).toContain(`would move decisions:${target.slice(0, 7)}:`);
    expect(noted(dir, box.env)).toEqual([first, amended].sort());

    const out = JSON.parse(memOk(dir, box.env, ['reanchor', id, '--to', 'HEAD', '--json']));
    expect(out.moved[0].from).toEqual([first, amended].sort());
    expect(out.moved[0].to).toEqual([target]);
    expect(noted(dir, box.env)).toEqual([target]);
    expect(objectOf(dir, box.env, id.split(':')[2]!)).toBe(target);
    expect(memOk(dir, box.env, ['show', id.split(':')[2]!])).toContain('Why a exists');
  });

  it('edit <id> --commit <rev> moves a memory whose commit gc pruned; a bad revision is refused', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'topic']);
    commitFile(dir, box.env, 'topic.txt', 'topic\n', 'Topic work');
    const id = capture(dir, box.env, 'Why the topic', '--paths', 'topic.txt');
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['branch', '-qD', 'topic']);
    prune(dir, box.env);
    const head = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    expect(mem(dir, box.env, ['edit', id, '--commit', 'no-such-rev']).code).not.toBe(0);
    expect(memOk(dir, box.env, ['edit', id, '--commit', 'HEAD', '--dry-run'])).toMatch(/^would move /);
    expect(noted(dir, box.env)).not.toEqual([head]);
    expect(memOk(dir, box.env, ['edit', id, '--commit', 'HEAD'])).toContain(`-> ${head.slice(0, 7)}`);
    expect(noted(dir, box.env)).toEqual([head]);
    expect(memOk(dir, box.env, ['hydrate', id.split(':')[2]!])).toContain('Why the topic');
    // And with an edit in the same command.
    const moved = memOk(dir, box.env, ['edit', id.split(':')[2]!, '--summary', 'Why the topic, moved', '--commit', 'HEAD']);
    expect(moved).toContain(`decisions:${head.slice(0, 7)}:`);
  });
});

describe('git mem import --attach-to', () => {
  it("imports another repository's export onto a commit here; without the option the error names it", () => {
    const box = sandbox();
    const other = makeRepo(box, 'other', 2);
    memOk(other, box.env, ['init', '--no-git-hooks']);
    capture(other, box.env, 'Decided in the other repository');
    capture(other, box.env, 'Another decision there', '--commit', 'HEAD~1');
    const file = path.join(box.root, 'mem.jsonl');
    fs.writeFileSync(file, memOk(other, box.env, ['export']) + '\n');

    const dir = makeRepo(box, 'here', 1);
    memOk(dir, box.env, ['init', '--no-git-hooks']);
    const refused = mem(dir, box.env, ['import', file]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('nothing was imported');
    expect(refused.stderr).toContain('--attach-to');
    expect(mem(dir, box.env, ['import', '--attach-to', 'no-such-rev', file]).code).not.toBe(0);

    expect(memOk(dir, box.env, ['import', '--attach-to', 'HEAD', file])).toBe('imported 2 memories');
    const head = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    expect(noted(dir, box.env)).toEqual([head]);
    const listed = JSON.parse(memOk(dir, box.env, ['list', '--json'])) as Array<{ summary: string; commit: string }>;
    expect(listed.map((m) => m.summary).sort()).toEqual(['Another decision there', 'Decided in the other repository']);
  });
});

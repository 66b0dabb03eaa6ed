/**
 * git mem reanchor, bounded (issue 38): memories on pruned commits are listed,
 * not skipped silently; a run with nothing to do says so (and the next one
 * answers from what the last one found); the candidate search walks only the
 * window and files of what is dead; rewrites still reanchor.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureDecision as capture, commitFile, git, makeRepo, mem, memOk, type Sandbox, sandbox } from './helpers.ts';


function repo(box: Sandbox): string {
  const dir = makeRepo(box, 'repo', 1);
  memOk(dir, box.env, ['init', '--no-git-hooks']);
  return dir;
}

/** A branch with one commit and a memory on it, then the branch deleted and everything unreachable pruned. */
function prunedMemory(box: Sandbox, dir: string, env: NodeJS.ProcessEnv = box.env): { id: string; commit: string } {
  git(dir, box.env, ['checkout', '-qb', 'topic']);
  const commit = commitFile(dir, box.env, 'topic.txt', 'topic\n', 'Topic work nobody merged');
  const id = capture(dir, env, 'Why the topic was tried', '--paths', 'topic.txt');
  git(dir, box.env, ['checkout', '-q', 'main']);
  git(dir, box.env, ['branch', '-qD', 'topic']);
  git(dir, box.env, ['reflog', 'expire', '--expire=now', '--all']);
  git(dir, box.env, ['gc', '-q', '--prune=now']);
  expect(mem(dir, box.env, ['show', id]).code).toBe(0);
  return { id, commit };
}

interface Left {
  id: string;
  key: string;
  objects: string[];
  mine?: boolean;
}

describe('git mem reanchor: memories left behind are listed', () => {
  it('a memory on a commit gc pruned is listed as missing, in text, --quiet and --json, run after run', () => {
    const box = sandbox();
    const dir = repo(box);
    const { id, commit } = prunedMemory(box, dir);
    const key = id.split(':')[2]!;
    for (let run = 0; run < 2; run++) {
      // The second run answers from what the first found: the same words.
      const text = memOk(dir, box.env, ['reanchor']);
      expect(text).toMatch(new RegExp(`^missing decisions:${commit.slice(0, 7)}:${key}.*: its commit ${commit.slice(0, 7)} is not in this clone \\(pruned\\?\\)`));
      expect(text).not.toContain('nothing to reanchor');
    }
    expect(memOk(dir, box.env, ['reanchor', '--quiet'])).toMatch(/^missing /);
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved).toEqual([]);
    expect(r.unmatched).toEqual([]);
    expect(r.missing.map((m: Left) => [m.key.slice(0, key.length), m.objects, m.mine])).toEqual([[key, [commit], true]]);
    // Left where it is.
    expect(memOk(dir, box.env, ['show', id])).toContain('Why the topic was tried');
  });

  it("a teammate's memory on a commit this clone lacks is counted, not listed one by one, and not under --quiet", () => {
    const box = sandbox();
    const dir = repo(box);
    const teammate = { ...box.env, GIT_AUTHOR_NAME: 'Tea Mate', GIT_AUTHOR_EMAIL: 'mate@example.com' };
    prunedMemory(box, dir, teammate);
    // As in a clone that fetched the memory and never had the commit: nothing says it was here (a clone that held
    // a commit, pruned since, lists its memories whoever wrote them, stranded.test.ts).
    fs.rmSync(path.join(dir, '.git', 'mem', 'held.log'), { force: true });
    expect(memOk(dir, box.env, ['reanchor'])).toBe("1 teammate's memory on commits this clone lacks (not fetched yet?) left alone");
    expect(memOk(dir, box.env, ['reanchor', '--quiet'])).toBe('');
    expect(JSON.parse(memOk(dir, box.env, ['reanchor', '--json'])).missing.map((m: Left) => m.mine)).toEqual([false]);
  });

  it('an unmatched memory becomes missing once gc prunes its commit, though no ref moved', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'spike']);
    const spike = commitFile(dir, box.env, 'spike.txt', 'spike\n', 'A spike nobody merged');
    capture(dir, box.env, 'The spike showed the idea does not work');
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['branch', '-qD', 'spike']);
    const before = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(before.unmatched.map((u: Left) => u.objects)).toEqual([[spike]]);
    expect(before.missing).toEqual([]);
    git(dir, box.env, ['reflog', 'expire', '--expire=now', '--all']);
    git(dir, box.env, ['gc', '-q', '--prune=now']);
    const after = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(after.unmatched).toEqual([]);
    expect(after.missing.map((u: Left) => [u.objects, u.mine])).toEqual([[[spike], true]]);
  });
});

describe('git mem reanchor: nothing to do', () => {
  it('says so in one line, run after run, and --json holds empty lists', () => {
    const box = sandbox();
    const dir = repo(box);
    commitFile(dir, box.env, 'a.txt', 'a\n', 'Add a');
    capture(dir, box.env, 'Why a exists');
    expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
    expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
    expect(memOk(dir, box.env, ['reanchor', '--quiet'])).toBe('');
    expect(JSON.parse(memOk(dir, box.env, ['reanchor', '--json']))).toEqual({ dryRun: false, converged: 0, moved: [], unmatched: [], missing: [] });
  });

  it('a run with nothing to do does not hide a later amend from the next run', () => {
    const box = sandbox();
    const dir = repo(box);
    const x = commitFile(dir, box.env, 'a.txt', 'a\n', 'Add the a file');
    capture(dir, box.env, 'Why a exists');
    expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
    git(dir, box.env, ['commit', '-q', '--amend', '-m', 'Add the a file, reworded']);
    const amended = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved).toMatchObject([{ via: 'copy', from: [x], to: [amended] }]);
    expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
  });
});

describe('git mem reanchor: what a run with nothing to do remembers', () => {
  it('a branch deleted since (the notes unchanged) leaves its memory unmatched, and a commit on main since does not hide it', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'topic']);
    const topic = commitFile(dir, box.env, 'topic.txt', 'topic\n', 'Topic work');
    capture(dir, box.env, 'Why the topic was tried');
    git(dir, box.env, ['checkout', '-q', 'main']);
    // Nothing to do: the branch reaches it. Then main moves on: still nothing.
    expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
    commitFile(dir, box.env, 'main.txt', 'main\n', 'Main moves on');
    expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
    git(dir, box.env, ['branch', '-qD', 'topic']);
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.unmatched.map((u: Left) => u.objects)).toEqual([[topic]]);
    // And again, from what that run found.
    expect(memOk(dir, box.env, ['reanchor'])).toMatch(/^unmatched /);
  });
});

describe('git mem reanchor: the search is bounded, rewrites still follow', () => {
  it('a branch rebased without notes copying: moved by patch-id, and only commits touching its files are diffed', () => {
    const box = sandbox();
    const dir = repo(box);
    // History the search must not diff: many commits on other files.
    for (let i = 0; i < 30; i++) commitFile(dir, box.env, `other${i % 3}.txt`, `${i}\n`, `Other work ${i}`);
    git(dir, box.env, ['checkout', '-qb', 'feature']);
    const original = commitFile(dir, box.env, 'feature.txt', 'the feature\n', 'Add the feature');
    const id = capture(dir, box.env, 'How the feature works');
    git(dir, box.env, ['checkout', '-q', 'main']);
    commitFile(dir, box.env, 'main.txt', 'main moves on\n', 'Main moves on');
    git(dir, box.env, ['checkout', '-q', 'feature']);
    // Notes not copied on rebase: only matching finds the rebased commit.
    git(dir, box.env, ['-c', 'notes.rewrite.rebase=false', 'rebase', '-q', 'main']);
    const rebased = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    expect(rebased).not.toBe(original);
    const r = mem(dir, { ...box.env, GIT_MEM_TRACE: '1' }, ['reanchor', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).moved).toMatchObject([{ via: 'patch-id', from: [original], to: [rebased] }]);
    const gits = r.stderr.split('\n').filter((l) => / ms git /.test(l));
    // The walk is limited to the orphan's files; patch-ids only for the commit that changed exactly them (and the orphan).
    expect(gits.some((l) => /rev-list .*--since=\d+ .* -- feature\.txt$/.test(l))).toBe(true);
    const diffs = gits.filter((l) => / git diff-tree --stdin -p /.test(l));
    expect(diffs.length).toBeLessThanOrEqual(2);
    expect(memOk(dir, box.env, ['show', id, '--json'])).toContain(rebased);
  });

  it('an orphan from years ago still finds its change redone today: the window starts at the orphan, not at a count of commits', () => {
    const box = sandbox();
    const dir = repo(box);
    const old = { ...box.env, GIT_COMMITTER_DATE: '2020-01-01T00:00:00Z', GIT_AUTHOR_DATE: '2020-01-01T00:00:00Z' };
    git(dir, old, ['checkout', '-qb', 'old']);
    fs.writeFileSync(path.join(dir, 'old.txt'), 'old\n');
    git(dir, old, ['add', 'old.txt']);
    git(dir, old, ['commit', '-qm', 'Old work on old.txt']);
    capture(dir, box.env, 'Why old.txt holds old');
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['branch', '-qD', 'old']);
    // The same change, committed today on main: newer than the orphan, same files, same patch.
    const redone = commitFile(dir, box.env, 'old.txt', 'old\n', 'Old work, redone');
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved).toMatchObject([{ via: 'patch-id', to: [redone] }]);
  });
});

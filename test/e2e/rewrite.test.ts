/**
 * Memories survive history rewriting: amend, interactive rebase, rebase of a
 * branch, squash merges (local and forge-style), cherry-picks, gc and
 * `git notes prune`, and clones that saw the rewrite at different times.
 * Real git on every side; scenarios repeat to defeat hash-order luck.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeClones, makeRepo, mem, memOk, type Sandbox, sandbox } from './helpers.ts';

interface Shown {
  id: string;
  key: string;
  commit: string;
  summary: string;
  body: string;
  status: string;
  paths?: string[];
}

function show(cwd: string, env: NodeJS.ProcessEnv, id: string): Shown {
  return JSON.parse(memOk(cwd, env, ['show', id, '--json'])) as Shown;
}

function list(cwd: string, env: NodeJS.ProcessEnv): Shown[] {
  return JSON.parse(memOk(cwd, env, ['list', '--json'])) as Shown[];
}

function capture(cwd: string, env: NodeJS.ProcessEnv, summary: string, ...args: string[]): string {
  return memOk(cwd, env, ['capture', 'decisions', summary, ...args]).split('\n').pop()!.trim();
}

function commitFile(cwd: string, env: NodeJS.ProcessEnv, file: string, text: string, message: string): string {
  fs.mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
  fs.writeFileSync(path.join(cwd, file), text);
  git(cwd, env, ['add', file]);
  git(cwd, env, ['commit', '-qm', message]);
  return git(cwd, env, ['rev-parse', 'HEAD']).trim();
}

function head(cwd: string, env: NodeJS.ProcessEnv, rev = 'HEAD'): string {
  return git(cwd, env, ['rev-parse', rev]).trim();
}

function isAncestor(cwd: string, env: NodeJS.ProcessEnv, commit: string, of = 'HEAD'): boolean {
  return spawnSync('git', ['merge-base', '--is-ancestor', commit, of], { cwd, env }).status === 0;
}

/** Everything unreachable goes, then the notes on what is gone: what a user's housekeeping does. */
function gcAndPrune(cwd: string, env: NodeJS.ProcessEnv): void {
  git(cwd, env, ['reflog', 'expire', '--expire=now', '--all']);
  git(cwd, env, ['gc', '-q', '--prune=now']);
  for (const ns of ['decisions', 'learnings']) git(cwd, env, ['notes', `--ref=refs/notes/mem/${ns}`, 'prune']);
}

/** Objects holding a note in refs/notes/mem/decisions. */
function annotated(cwd: string, env: NodeJS.ProcessEnv): string[] {
  const r = git(cwd, env, ['for-each-ref', '--format=%(objectname)', 'refs/notes/mem/decisions']);
  if (!r.trim()) return [];
  return git(cwd, env, ['notes', '--ref=refs/notes/mem/decisions', 'list'])
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split(' ')[1]!)
    .sort();
}

async function until(what: string, check: () => boolean, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A repository set up the way git mem init leaves it, without the git hooks unless asked. */
function repo(box: Sandbox, name = 'repo', hooks = false): string {
  const dir = makeRepo(box, name, 1);
  memOk(dir, box.env, ['init', ...(hooks ? [] : ['--no-git-hooks'])]);
  return dir;
}

describe('identity and anchors after git commit --amend', () => {
  it('five amends in a row: every id form finds the memory, on the amended HEAD, listed once', () => {
    const box = sandbox();
    const dir = repo(box);
    const first = capture(dir, box.env, 'Use sql.js for the index');
    const key = show(dir, box.env, first).key;
    for (let i = 1; i <= 5; i++) {
      git(dir, box.env, ['commit', '-q', '--amend', '-m', `amended ${i}`]);
      const now = head(dir, box.env);
      // The id printed at capture names a commit that is gone from every branch: only a hint.
      for (const id of [first, key, key.slice(0, 4), `decisions:${key.slice(0, 8)}`]) {
        expect(show(dir, box.env, id).commit, `round ${i}, id ${id}`).toBe(now);
      }
      const listed = list(dir, box.env);
      expect(listed.map((m) => m.key)).toEqual([key]);
      expect(listed[0]!.commit).toBe(now);
      expect(JSON.parse(memOk(dir, box.env, ['recall', 'sql.js index', '--mode', 'lexical', '--json']))[0]?.commit).toBe(now);
      expect(memOk(dir, box.env, ['hydrate', key, '--json'])).toContain(now);
      // git copied the note to every amended commit: the copies are still there.
      expect(annotated(dir, box.env).length).toBe(i + 1);
    }
  });

  it('two memories sharing a commit each get their own anchor: one on HEAD, the other on a branch rather than a dead commit', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'side']);
    const o = commitFile(dir, box.env, 'side.txt', 'side\n', 'On side');
    const m1 = show(dir, box.env, capture(dir, box.env, 'First memory on side'));
    const m2 = show(dir, box.env, capture(dir, box.env, 'Second memory on side'));
    git(dir, box.env, ['checkout', '-q', 'main']);
    const p = commitFile(dir, box.env, 'main.txt', 'main\n', 'On main');
    const q = git(dir, box.env, ['commit-tree', `${p}^{tree}`, '-p', p, '-m', 'dangling']).trim();
    const raw = (key: string) => {
      const note = git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', o]);
      return note.split(/\n(?=---\nid: )/).find((d) => d.includes(key.slice(0, 16)))!.trim();
    };
    // The first has a copy on HEAD's commit; the second one on a commit nothing reaches.
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', raw(m1.key), p]);
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', raw(m2.key), q]);
    expect(show(dir, box.env, m1.key).commit).toBe(p);
    expect(show(dir, box.env, m2.key).commit).toBe(o);
    expect(list(dir, box.env).map((m) => m.commit).sort()).toEqual([o, p].sort());
  });

  it('git log shows the memory on the rebased commit (init --show-in-log)', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    memOk(dir, box.env, ['init', '--show-in-log', '--no-git-hooks']);
    git(dir, box.env, ['checkout', '-qb', 'feature']);
    commitFile(dir, box.env, 'f.txt', 'f\n', 'Feature');
    capture(dir, box.env, 'Shown by git log after the rebase');
    git(dir, box.env, ['checkout', '-q', 'main']);
    commitFile(dir, box.env, 'm.txt', 'm\n', 'Main');
    git(dir, box.env, ['checkout', '-q', 'feature']);
    git(dir, box.env, ['rebase', '-q', 'main']);
    expect(git(dir, box.env, ['log', '-1'])).toContain('summary: Shown by git log after the rebase');
  });

  it('records the paths its commit changed, in front matter git reads back', () => {
    const box = sandbox();
    const dir = repo(box);
    const commit = commitFile(dir, box.env, 'src/index/store.ts', 'x\n', 'add the store');
    const id = capture(dir, box.env, 'The store is a cache');
    expect(show(dir, box.env, id).paths).toEqual(['src/index/store.ts']);
    expect(git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', commit])).toContain('paths: [src/index/store.ts]');
  });
});

describe('edit, resolve and forget reach every copy', () => {
  it('an edit after an amend survives gc and notes prune', () => {
    for (let round = 0; round < 3; round++) {
      const box = sandbox();
      const dir = repo(box);
      const id = capture(dir, box.env, `Decision ${round}`, '-m', 'first body');
      git(dir, box.env, ['commit', '-q', '--amend', '-m', 'amended']);
      memOk(dir, box.env, ['edit', id, '-m', 'edited body']);
      memOk(dir, box.env, ['resolve', id]);
      // Both copies hold the new revision before anything is pruned.
      for (const object of annotated(dir, box.env)) {
        expect(git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', object])).toContain('edited body');
      }
      gcAndPrune(dir, box.env);
      expect(annotated(dir, box.env)).toEqual([head(dir, box.env)]);
      const m = show(dir, box.env, id);
      expect(m.body).toBe('edited body');
      expect(m.status).toBe('resolved');
      expect(m.commit).toBe(head(dir, box.env));
    }
  });

  it('a memory forgotten after an amend stays forgotten after gc and notes prune', () => {
    for (let round = 0; round < 3; round++) {
      const box = sandbox();
      const dir = repo(box);
      const keep = capture(dir, box.env, 'Keep this one');
      const drop = capture(dir, box.env, 'Forget this one');
      git(dir, box.env, ['commit', '-q', '--amend', '-m', 'amended']);
      memOk(dir, box.env, ['forget', drop]);
      gcAndPrune(dir, box.env);
      expect(list(dir, box.env).map((m) => m.summary)).toEqual(['Keep this one']);
      expect(mem(dir, box.env, ['show', drop]).code).toBe(1);
      expect(show(dir, box.env, keep).commit).toBe(head(dir, box.env));
    }
  });
});

describe('interactive rebase', () => {
  it('reword, squash, fixup and a dropped commit: every memory ends on HEAD history and survives gc + prune', () => {
    for (let round = 0; round < 2; round++) {
      const box = sandbox();
      const dir = repo(box);
      const ids: string[] = [];
      for (let i = 1; i <= 5; i++) {
        commitFile(dir, box.env, `f${i}.txt`, `${i} ${round}\n`, `commit ${i}`);
        if (i !== 5) ids.push(capture(dir, box.env, `Memory on commit ${i} round ${round}`));
      }
      // pick 1, reword 2, squash 3 into 2, fixup 4, drop 5 (which has no memory).
      const script = "sed -i -e '2s/^pick/reword/' -e '3s/^pick/squash/' -e '4s/^pick/fixup/' -e '5s/^pick/drop/'";
      const env = { ...box.env, GIT_SEQUENCE_EDITOR: script, GIT_EDITOR: "sed -i '1s/.*/reworded/'" };
      git(dir, env, ['rebase', '-q', '-i', 'HEAD~5']);
      const check = () => {
        const listed = list(dir, box.env);
        expect(listed.length).toBe(4);
        for (const id of ids) {
          const m = show(dir, box.env, id);
          expect(isAncestor(dir, box.env, m.commit)).toBe(true);
        }
      };
      check();
      gcAndPrune(dir, box.env);
      check();
      expect(annotated(dir, box.env).every((o) => isAncestor(dir, box.env, o))).toBe(true);
    }
  });

  it('a feature branch rebased onto main, then gc and notes prune: memories and hydrate still work', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'feature']);
    const ids = [1, 2, 3].map((i) => {
      commitFile(dir, box.env, `feature${i}.txt`, `${i}\n`, `feature ${i}`);
      return capture(dir, box.env, `Feature decision ${i}`);
    });
    git(dir, box.env, ['checkout', '-q', 'main']);
    commitFile(dir, box.env, 'main.txt', 'main\n', 'main moves on');
    git(dir, box.env, ['checkout', '-q', 'feature']);
    git(dir, box.env, ['rebase', '-q', 'main']);
    gcAndPrune(dir, box.env);
    for (const id of ids) {
      const m = show(dir, box.env, id);
      expect(isAncestor(dir, box.env, m.commit)).toBe(true);
      const hydrated = JSON.parse(memOk(dir, box.env, ['hydrate', id, '--level', 'files', '--json']));
      expect(JSON.stringify(hydrated)).toContain(m.commit);
    }
  });
});

describe('git mem reanchor', () => {
  function featureBranch(box: Sandbox, dir: string, n: number): { ids: string[]; subjects: string[] } {
    git(dir, box.env, ['checkout', '-qb', 'feature']);
    const ids: string[] = [];
    const subjects: string[] = [];
    for (let i = 1; i <= n; i++) {
      const subject = `Add feature part number ${i}`;
      commitFile(dir, box.env, `feature/part${i}.ts`, `export const part${i} = ${i};\n`, subject);
      subjects.push(subject);
      ids.push(capture(dir, box.env, `Why part ${i} exists`));
    }
    git(dir, box.env, ['checkout', '-q', 'main']);
    commitFile(dir, box.env, 'unrelated.txt', 'main\n', 'main moves on');
    return { ids, subjects };
  }

  it('git merge --squash, the branch deleted, gc: memories move to the squash commit and survive notes prune', () => {
    for (let round = 0; round < 2; round++) {
      const box = sandbox();
      const dir = repo(box);
      const { ids } = featureBranch(box, dir, 3);
      git(dir, box.env, ['merge', '-q', '--squash', 'feature']);
      git(dir, box.env, ['commit', '-q', '--no-edit']);
      const squash = head(dir, box.env);
      git(dir, box.env, ['branch', '-qD', 'feature']);
      if (round === 1) {
        // The commits are gone before git-mem looks: the squash message still names them.
        git(dir, box.env, ['reflog', 'expire', '--expire=now', '--all']);
        git(dir, box.env, ['gc', '-q', '--prune=now']);
      }
      const dry = JSON.parse(memOk(dir, box.env, ['reanchor', '--dry-run', '--json']));
      expect(dry.moved.length).toBe(3);
      expect(annotated(dir, box.env)).not.toContain(squash);
      const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
      expect(r.moved.map((m: { to: string[]; via: string }) => [m.to[0], m.via])).toEqual(ids.map(() => [squash, 'message']));
      gcAndPrune(dir, box.env);
      for (const id of ids) expect(show(dir, box.env, id).commit).toBe(squash);
      expect(annotated(dir, box.env)).toEqual([squash]);
      expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
    }
  });

  it('a forge-style squash commit (made with plumbing): matched by the listed subjects, also once the commits are gone (their subjects recorded at capture)', () => {
    for (const gone of [false, true]) {
      const box = sandbox();
      const dir = repo(box);
      const { ids, subjects } = featureBranch(box, dir, 3);
      const tree = git(dir, box.env, ['rev-parse', 'feature^{tree}']).trim();
      // The forge merges feature's tree on top of main with one commit listing the subjects.
      git(dir, box.env, ['merge', '-q', '-m', 'tmp', 'feature']);
      const mergedTree = git(dir, box.env, ['rev-parse', 'HEAD^{tree}']).trim();
      git(dir, box.env, ['reset', '-q', '--hard', 'HEAD~1']);
      expect(mergedTree).not.toBe(tree);
      const message = `Feature parts (#12)\n\n${subjects.map((s) => `* ${s}`).join('\n\n')}\n`;
      const squash = git(dir, box.env, ['commit-tree', mergedTree, '-p', 'HEAD', '-m', message]).trim();
      git(dir, box.env, ['update-ref', 'refs/heads/main', squash]);
      git(dir, box.env, ['reset', '-q', '--hard']);
      git(dir, box.env, ['branch', '-qD', 'feature']);
      if (gone) {
        git(dir, box.env, ['reflog', 'expire', '--expire=now', '--all']);
        git(dir, box.env, ['gc', '-q', '--prune=now']);
      }
      const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
      expect(r.unmatched).toEqual([]);
      // Once gone, this clone held them (issue 30): matched on the subjects their memories recorded.
      expect(r.missing).toEqual([]);
      expect(r.moved.map((m: { via: string }) => m.via)).toEqual(ids.map(() => 'message'));
      gcAndPrune(dir, box.env);
      for (const id of ids) expect(show(dir, box.env, id).commit).toBe(squash);
    }
  });

  it('a cherry-pick to a second branch: found from both; once the first branch is deleted, moved by patch-id', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'one']);
    const original = commitFile(dir, box.env, 'fix.txt', 'the fix\n', 'Fix the flaky cache');
    const id = capture(dir, box.env, 'The cache was flaky because of clock skew');
    git(dir, box.env, ['checkout', '-qb', 'two', 'main']);
    commitFile(dir, box.env, 'other.txt', 'other\n', 'Other work');
    git(dir, box.env, ['cherry-pick', original]);
    const picked = head(dir, box.env);
    // From branch two, the memory is still found, on branch one's commit (a local branch reaches it).
    expect(show(dir, box.env, id).commit).toBe(original);
    git(dir, box.env, ['branch', '-qD', 'one']);
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved).toMatchObject([{ via: 'patch-id', to: [picked] }]);
    gcAndPrune(dir, box.env);
    expect(show(dir, box.env, id).commit).toBe(picked);
  });

  // Matching by files would pick Z (its files are exactly X's, X′'s are a superset): only the
  // live-copy rule keeps the memory where git copied it. The subject is too short to match by message.
  it('a memory with a live copy keeps it: amended to touch a second file, then a later commit on the first file does not take it', () => {
    const box = sandbox();
    const dir = repo(box);
    const x = commitFile(dir, box.env, 'f.txt', 'one\n', 'wip');
    const id = capture(dir, box.env, 'Why f holds one');
    fs.writeFileSync(path.join(dir, 'g.txt'), 'g\n');
    git(dir, box.env, ['add', 'g.txt']);
    git(dir, box.env, ['commit', '-q', '--amend', '--no-edit']);
    const amended = head(dir, box.env);
    commitFile(dir, box.env, 'f.txt', 'two\n', 'wip');
    expect(annotated(dir, box.env)).toEqual([x, amended].sort());
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved).toMatchObject([{ via: 'copy', from: [x], to: [amended] }]);
    expect(r.unmatched).toEqual([]);
    gcAndPrune(dir, box.env);
    expect(show(dir, box.env, id).commit).toBe(amended);
    expect(annotated(dir, box.env)).toEqual([amended]);
  });

  it('after a plain amend, a dry run names one orphaned copy, moved onto the live one, and writes nothing', () => {
    const box = sandbox();
    const dir = repo(box);
    const x = commitFile(dir, box.env, 'f.txt', 'one\n', 'First version of f');
    capture(dir, box.env, 'Why f holds one');
    git(dir, box.env, ['commit', '-q', '--amend', '-m', 'First version of f, reworded']);
    const amended = head(dir, box.env);
    const notes = git(dir, box.env, ['rev-parse', 'refs/notes/mem/decisions']);
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--dry-run', '--json']));
    // The live copy is not an orphan: matching would list it among the sources (patch-id, from [x, amended]).
    expect(r.moved).toMatchObject([{ via: 'copy', from: [x], to: [amended] }]);
    expect(r.dryRun).toBe(true);
    expect(git(dir, box.env, ['rev-parse', 'refs/notes/mem/decisions'])).toBe(notes);
  });

  it('an unmatched memory is kept where it is and reported', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'spike']);
    commitFile(dir, box.env, 'spike.txt', 'spike\n', 'A spike nobody merged');
    const id = capture(dir, box.env, 'The spike showed the idea does not work');
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['branch', '-qD', 'spike']);
    const r = mem(dir, box.env, ['reanchor']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/unmatched .*its commit .* is on no branch/);
    expect(show(dir, box.env, id).summary).toBe('The spike showed the idea does not work');
  });
});

describe('git hooks installed by git mem init', () => {
  it('post-rewrite reanchors in the background after an amend, after running the hook that was there', async () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    const hooks = path.join(dir, '.githooks');
    fs.mkdirSync(hooks);
    git(dir, box.env, ['config', 'core.hooksPath', '.githooks']);
    fs.writeFileSync(path.join(hooks, 'post-rewrite'), `#!/bin/sh\ncat > "${path.join(box.root, 'rewritten.txt')}"\necho "$1" > "${path.join(box.root, 'kind.txt')}"\n`, { mode: 0o755 });
    const out = memOk(dir, box.env, ['init']);
    expect(out).toContain('post-rewrite.chained');
    expect(memOk(dir, box.env, ['init'])).not.toContain('added  ');
    const id = capture(dir, box.env, 'Survives the amend');
    const before = head(dir, box.env);
    git(dir, box.env, ['commit', '-q', '--amend', '-m', 'amended']);
    const after = head(dir, box.env);
    await until('the old copy to be reanchored', () => annotated(dir, box.env).join() === after);
    expect(fs.readFileSync(path.join(box.root, 'rewritten.txt'), 'utf8')).toContain(`${before} ${after}`);
    expect(fs.readFileSync(path.join(box.root, 'kind.txt'), 'utf8').trim()).toBe('amend');
    expect(show(dir, box.env, id).commit).toBe(after);
    const doctor = JSON.parse(mem(dir, box.env, ['doctor', '--json']).stdout);
    expect(doctor.checks.filter((c: { id: string; status: string }) => c.id === 'git-hooks').map((c: { status: string }) => c.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
  });

  it('--no-git-hooks leaves the hooks alone, and doctor says so', () => {
    const box = sandbox();
    const dir = repo(box);
    expect(fs.existsSync(path.join(dir, '.git', 'hooks', 'post-rewrite'))).toBe(false);
    const doctor = JSON.parse(mem(dir, box.env, ['doctor', '--json']).stdout);
    expect(doctor.checks.filter((c: { id: string }) => c.id === 'git-hooks').map((c: { status: string }) => c.status)).toEqual(['info', 'info', 'info', 'info']);
  });
});

describe('two clones, one rewrote', () => {
  it('one memory, the newest revision, nothing resurrected, whichever way they sync', () => {
    for (let round = 0; round < 3; round++) {
      const box = sandbox();
      const { clones: [a, b] } = makeClones(box, ['a', 'b']);
      for (const c of [a!, b!]) memOk(c, box.env, ['init', '--no-git-hooks']);
      git(a!, box.env, ['checkout', '-qb', 'feature']);
      commitFile(a!, box.env, 'feature.txt', 'v1\n', 'feature work');
      const edited = capture(a!, box.env, 'Edited later by b', '-m', 'original');
      const forgotten = capture(a!, box.env, 'Forgotten later by a');
      git(a!, box.env, ['push', '-q', 'origin', 'feature']);
      memOk(a!, box.env, ['push']);
      git(b!, box.env, ['fetch', '-q', 'origin']);
      git(b!, box.env, ['checkout', '-q', '-b', 'feature', 'origin/feature']);
      memOk(b!, box.env, ['pull']);
      // a rewrites the commit, forgets one memory and drops the old copies; b edits the other on the old commit.
      git(a!, box.env, ['commit', '-q', '--amend', '-m', 'feature work, amended']);
      git(a!, box.env, ['push', '-q', '--force', 'origin', 'feature']);
      memOk(a!, box.env, ['reanchor']);
      memOk(a!, box.env, ['forget', forgotten]);
      memOk(b!, box.env, ['edit', edited, '-m', 'edited by b']);
      const order = round % 2 === 0 ? [a!, b!, a!] : [b!, a!, b!];
      for (const c of order) memOk(c, box.env, ['sync']);
      for (const c of [a!, b!]) {
        const listed = list(c, box.env);
        expect(listed.map((m) => m.summary), c).toEqual(['Edited later by b']);
        expect(listed[0]!.body).toBe('edited by b');
      }
      // After a's housekeeping, a still has exactly that.
      gcAndPrune(a!, box.env);
      expect(list(a!, box.env).map((m) => [m.summary, m.body, m.commit])).toEqual([['Edited later by b', 'edited by b', head(a!, box.env)]]);
    }
  });

  it('git mem pull follows a squash merge done on the forge', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    for (const c of [a!, b!]) memOk(c, box.env, ['init', '--no-git-hooks']);
    git(a!, box.env, ['checkout', '-qb', 'feature']);
    commitFile(a!, box.env, 'feature.txt', 'feature\n', 'Implement the feature fully');
    const id = capture(a!, box.env, 'How the feature works');
    memOk(a!, box.env, ['push']);
    // The forge (b here) squashes feature into main and the branch is deleted.
    git(b!, box.env, ['fetch', '-q', a!, 'feature']);
    git(b!, box.env, ['merge', '-q', '--squash', 'FETCH_HEAD']);
    git(b!, box.env, ['commit', '-q', '-m', 'Feature (#1)\n\n* Implement the feature fully']);
    git(b!, box.env, ['push', '-q', 'origin', 'main']);
    const squash = head(b!, box.env);
    git(a!, box.env, ['checkout', '-q', 'main']);
    git(a!, box.env, ['pull', '-q', '--ff-only', 'origin', 'main']);
    git(a!, box.env, ['branch', '-qD', 'feature']);
    // b pulls the memories: they arrive on a commit b never had, and move onto its squash commit.
    memOk(b!, box.env, ['pull']);
    expect(show(b!, box.env, id).commit).toBe(squash);
    gcAndPrune(b!, box.env);
    expect(show(b!, box.env, id).commit).toBe(squash);
  });
});

describe('reanchor leaves alone what it cannot know is dead', () => {
  it('a teammate\'s commit not fetched yet, an orphan branch checked out, and an abandoned branch do not move or block memories', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    for (const c of [a!, b!]) memOk(c, box.env, ['init', '--no-git-hooks']);
    commitFile(a!, box.env, 'app.js', 'tweak\n', 'Tweak app logic');
    const id = capture(a!, box.env, 'Why app logic changed');
    const theirs = head(a!, box.env);
    memOk(a!, box.env, ['push']);
    commitFile(b!, box.env, 'app.js', 'other\n', 'Unrelated app change');
    memOk(b!, box.env, ['pull']);
    expect(show(b!, box.env, id).commit).toBe(theirs);
    // An orphan branch checked out: HEAD is on no commit, main still reaches everything.
    git(b!, box.env, ['checkout', '-q', '--orphan', 'pages']);
    expect(JSON.parse(memOk(b!, box.env, ['reanchor', '--json'])).moved).toEqual([]);
    git(b!, box.env, ['checkout', '-q', '-f', 'main']);
    // An abandoned branch from today's main does not hide main's squash commit from another orphan.
    git(b!, box.env, ['checkout', '-qb', 'feat']);
    commitFile(b!, box.env, 'parser.js', 'parse\n', 'Add the feature parser');
    const parser = capture(b!, box.env, 'The parser is hand-written');
    git(b!, box.env, ['checkout', '-q', 'main']);
    git(b!, box.env, ['merge', '-q', '--squash', 'feat']);
    git(b!, box.env, ['commit', '-q', '--no-edit']);
    const squash = head(b!, box.env);
    git(b!, box.env, ['branch', '-qD', 'feat']);
    git(b!, box.env, ['checkout', '-qb', 'exp']);
    commitFile(b!, box.env, 'cache.js', 'cache\n', 'Try a caching layer');
    capture(b!, box.env, 'Caching did not help');
    git(b!, box.env, ['checkout', '-q', 'main']);
    git(b!, box.env, ['branch', '-qD', 'exp']);
    const r = JSON.parse(memOk(b!, box.env, ['reanchor', '--json']));
    expect(r.moved.map((m: { to: string[] }) => m.to[0])).toEqual([squash]);
    expect(show(b!, box.env, parser).commit).toBe(squash);
    expect(show(b!, box.env, id).commit).toBe(theirs);
  });

  it('a copy on a teammate\'s amended commit, not fetched here, is kept beside the live copy', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    for (const c of [a!, b!]) memOk(c, box.env, ['init', '--no-git-hooks']);
    const x = commitFile(a!, box.env, 'app.js', 'tweak\n', 'Tweak app logic');
    capture(a!, box.env, 'Why app logic changed');
    git(a!, box.env, ['push', '-q', 'origin', 'main']);
    memOk(a!, box.env, ['push']);
    git(b!, box.env, ['pull', '-q', 'origin', 'main']);
    memOk(b!, box.env, ['pull']);
    // A amends (git copies the note to the new commit) and pushes its memories, not the commit.
    git(a!, box.env, ['commit', '-q', '--amend', '-m', 'Tweak app logic, reworded']);
    const amended = head(a!, box.env);
    memOk(a!, box.env, ['push']);
    memOk(b!, box.env, ['pull']);
    expect(spawnSync('git', ['cat-file', '-e', amended], { cwd: b!, env: box.env }).status).not.toBe(0);
    expect(JSON.parse(memOk(b!, box.env, ['reanchor', '--json'])).moved).toEqual([]);
    expect(annotated(b!, box.env)).toEqual([x, amended].sort());
  });

  it('a memory whose match holds a binary note stays where it is, reported, and the binary note is not rewritten', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'one']);
    const original = commitFile(dir, box.env, 'fix.txt', 'the fix\n', 'Fix the flaky cache');
    const id = capture(dir, box.env, 'The cache was flaky because of clock skew');
    git(dir, box.env, ['checkout', '-qb', 'two', 'main']);
    commitFile(dir, box.env, 'other.txt', 'other\n', 'Other work');
    git(dir, box.env, ['cherry-pick', original]);
    const picked = head(dir, box.env);
    // Another tool's binary note where patch-id matching would move the memory.
    const blob = git(dir, box.env, ['hash-object', '-w', '--stdin'], 'bin\u0000ary\n').trim();
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-C', blob, picked]);
    git(dir, box.env, ['branch', '-qD', 'one']);
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved).toEqual([]);
    expect(r.unmatched.map((u: { key: string }) => u.key.slice(0, 10))).toEqual([id.split(':')[2]]);
    expect(git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'list', picked]).trim()).toBe(blob);
    expect(annotated(dir, box.env)).toEqual([original, picked].sort());
  });

  it('a forgotten memory whose tombstone sits on a squashed commit stays forgotten after gc and notes prune', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'feat']);
    commitFile(dir, box.env, 'parser.js', 'p\n', 'Add feature parser module');
    const id = capture(dir, box.env, 'Forgotten later');
    memOk(dir, box.env, ['forget', id]);
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['merge', '-q', '--squash', 'feat']);
    git(dir, box.env, ['commit', '-q', '--no-edit']);
    git(dir, box.env, ['branch', '-qD', 'feat']);
    memOk(dir, box.env, ['reanchor']);
    gcAndPrune(dir, box.env);
    expect(annotated(dir, box.env)).toEqual([head(dir, box.env)]);
    expect(git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD'])).toContain('forgotten:');
  });
});

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
import { captureDecision as capture, commitFile, git, makeRepo, mem, memOk, type Sandbox, sandbox } from './helpers.ts';


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

/** Waits (at most 15 s) for a background reanchor started by a git hook to have done `done`. */
function waitFor(done: () => boolean): void {
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && !done()) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
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
    // hydrate names the way out.
    expect(mem(dir, box.env, ['hydrate', id]).stdout + mem(dir, box.env, ['hydrate', id]).stderr).toContain(`git mem reanchor ${id} --to <commit>`);
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
    const other = makeRepo(box, 'other', 1);
    memOk(other, box.env, ['init', '--no-git-hooks']);
    commitFile(other, box.env, 'o1.txt', 'one\n', 'Other one');
    commitFile(other, box.env, 'o2.txt', 'two\n', 'Other two');
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

    const head = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    expect(memOk(dir, box.env, ['import', '--attach-to', 'HEAD', file])).toBe(`imported 2 memories (2 attached to ${head.slice(0, 7)}: their commits are not in this repository)`);
    expect(noted(dir, box.env)).toEqual([head]);
    const listed = JSON.parse(memOk(dir, box.env, ['list', '--json'])) as Array<{ summary: string; commit: string }>;
    expect(listed.map((m) => m.summary).sort()).toEqual(['Another decision there', 'Decided in the other repository']);
    // What the export recorded of the commits it was captured on travels with it.
    expect(fs.readFileSync(file, 'utf8')).toContain('"commit_subject":"Other one"');
    expect(memOk(dir, box.env, ['export'])).toContain('"commit_subject":"Other one"');
  });
});

/** A topic branch of three commits, a memory captured on each (its scope: the commit's file), squash-merged by hand, deleted, gc'd. */
function squashedAndPruned(box: Sandbox, dir: string, hooks = false): { ids: string[]; squash: string } {
  git(dir, box.env, ['checkout', '-qb', 'topic']);
  const ids: string[] = [];
  for (const n of [1, 2, 3]) {
    commitFile(dir, box.env, `t${n}.txt`, `topic ${n}\n`, `Topic part ${n}`);
    ids.push(capture(dir, box.env, `Why topic part ${n} is done this way`));
  }
  git(dir, box.env, ['checkout', '-q', 'main']);
  commitFile(dir, box.env, 'main.txt', 'main moved on\n', 'Meanwhile on main');
  git(dir, box.env, ['merge', '-q', '--squash', 'topic']);
  git(dir, box.env, ['commit', '-qm', 'Topic']);
  const squash = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
  git(dir, box.env, ['branch', '-qD', 'topic']);
  // The hooks reanchor in the background; gc runs later (two weeks with its defaults). A gc --prune=now while a
  // notes write is under way would prune the objects it is writing (git's own caveat), so let it end first.
  if (hooks) waitFor(() => noted(dir, box.env).join() === squash);
  prune(dir, box.env);
  return { ids, squash };
}

describe("git-mem's reference-transaction hook follows a deleted branch", () => {
  it('a local squash merge, then the branch deleted: the memories move to the squash commit with no git-mem command run, before gc', () => {
    const box = sandbox();
    const dir = repo(box, true);
    expect(fs.existsSync(path.join(dir, '.git', 'hooks', 'reference-transaction'))).toBe(true);
    git(dir, box.env, ['checkout', '-qb', 'topic']);
    const ids: string[] = [];
    for (const n of [1, 2]) {
      commitFile(dir, box.env, `t${n}.txt`, `topic ${n}\n`, `Topic part ${n}`);
      ids.push(capture(dir, box.env, `Why topic part ${n} is done this way`));
    }
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['merge', '-q', '--squash', 'topic']);
    git(dir, box.env, ['commit', '-qm', 'Topic']);
    const squash = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    // Let the post-merge hook's background reanchor (nothing orphaned then) end first.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
    git(dir, box.env, ['branch', '-qD', 'topic']);
    // The hook starts reanchor in the background a second after the deletion.
    waitFor(() => noted(dir, box.env).join() === squash);
    expect(noted(dir, box.env)).toEqual([squash]);
    prune(dir, box.env);
    for (const id of ids) expect(objectOf(dir, box.env, id.split(':')[2]!)).toBe(squash);
  });

  it('one run is due at a time: a deletion before it begins starts none, the run removes the mark, a mark whose process is gone stops nothing', () => {
    const box = sandbox();
    const dir = repo(box, true);
    const due = path.join(dir, '.git', 'mem', 'reanchor-due');
    for (const b of ['a', 'b', 'c']) git(dir, box.env, ['branch', b]);
    git(dir, box.env, ['branch', '-qD', 'a']);
    const pid = fs.readFileSync(due, 'utf8').trim();
    expect(pid).toMatch(/^\d+$/);
    git(dir, box.env, ['branch', '-qD', 'b']);
    expect(fs.readFileSync(due, 'utf8').trim()).toBe(pid);
    waitFor(() => !fs.existsSync(due));
    expect(fs.existsSync(due)).toBe(false);
    // A run killed before it began leaves its pid: no process has it now (above the kernel's pid_max), so the next deletion starts one.
    fs.writeFileSync(due, '999999999\n');
    git(dir, box.env, ['branch', '-qD', 'c']);
    expect(fs.readFileSync(due, 'utf8').trim()).toMatch(/^(?!999999999$)\d+$/);
    waitFor(() => !fs.existsSync(due));
    expect(fs.existsSync(due)).toBe(false);
  });

  it('git reset onto a commit that already holds the change (a squash merge from the forge): the memory follows with no git-mem command run', () => {
    const box = sandbox();
    const dir = repo(box, true);
    commitFile(dir, box.env, 'x.txt', 'x\n', 'Add x');
    const id = capture(dir, box.env, 'Why x is there');
    const mine = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    git(dir, box.env, ['checkout', '-qb', 'forge', 'main~1']);
    git(dir, box.env, ['merge', '-q', '--squash', 'main']);
    git(dir, box.env, ['commit', '-qm', 'Add x (#1)']);
    const squash = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    git(dir, box.env, ['checkout', '-q', 'main']);
    // Let the post-merge hook's background reanchor (nothing orphaned then) end first.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500);
    expect(noted(dir, box.env)).toEqual([mine]);
    git(dir, box.env, ['reset', '-q', '--hard', 'forge']);
    waitFor(() => noted(dir, box.env).join() === squash);
    expect(noted(dir, box.env)).toEqual([squash]);
    expect(objectOf(dir, box.env, id.split(':')[2]!)).toBe(squash);
  });

  it("a hook of the user's already there is kept, run first with the same state and input", () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    const log = path.join(box.root, 'tx.log');
    const mine = path.join(dir, '.git', 'hooks', 'reference-transaction');
    fs.writeFileSync(mine, `#!/bin/sh\necho "$1" >> '${log}'\ncat >> '${log}'\n`, { mode: 0o755 });
    memOk(dir, box.env, ['init']);
    expect(fs.existsSync(`${mine}.chained`)).toBe(true);
    git(dir, box.env, ['branch', 'side']);
    const text = fs.readFileSync(log, 'utf8');
    expect(text).toContain('committed');
    expect(text).toMatch(/^0{40} [0-9a-f]{40} refs\/heads\/side$/m);
  });
});

describe('memories whose commits are gone are matched on what was recorded at capture', () => {
  for (const hooks of [false, true]) {
    it(`a local squash merge, the branch deleted, then gc: the memories land on the squash commit (${hooks ? 'with' : 'without'} git-mem's git hooks)`, () => {
      const box = sandbox();
      const dir = repo(box, hooks);
      const { ids, squash } = squashedAndPruned(box, dir, hooks);
      // With the hooks, reference-transaction's reanchor moved them already, when the branch was deleted.
      const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
      expect(r.missing).toEqual([]);
      expect(r.moved.map((m: { to: string[] }) => m.to)).toEqual(hooks ? [] : [[squash], [squash], [squash]]);
      expect(noted(dir, box.env)).toEqual([squash]);
      for (const id of ids) expect(objectOf(dir, box.env, id.split(':')[2]!)).toBe(squash);
      expect(memOk(dir, box.env, ['reanchor'])).toBe('nothing to reanchor');
    });
  }

  it('a branch cherry-picked, deleted and gc’d before any git-mem command ran: matched by the recorded patch-id', () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'fix']);
    fs.writeFileSync(path.join(dir, 'file0.txt'), 'content 0\nfixed\n');
    git(dir, box.env, ['commit', '-qam', 'Fix the parser']);
    const id = capture(dir, box.env, 'The parser fix needs the trailing line');
    const facts = memOk(dir, box.env, ['show', id]);
    expect(facts).toContain('commit_subject: Fix the parser');
    expect(facts).toMatch(/patch_id: "?[0-9a-f]{40}/);
    git(dir, box.env, ['checkout', '-q', 'main']);
    commitFile(dir, box.env, 'other.txt', 'other\n', 'Unrelated work');
    git(dir, box.env, ['cherry-pick', 'fix']);
    git(dir, box.env, ['commit', '-q', '--amend', '-m', 'Parser: keep the trailing line']);
    const picked = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    git(dir, box.env, ['branch', '-qD', 'fix']);
    prune(dir, box.env);
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved.map((m: { to: string[]; via: string }) => [m.to, m.via])).toEqual([[[picked], 'patch-id']]);
    expect(objectOf(dir, box.env, id.split(':')[2]!)).toBe(picked);
  });

  it("a teammate's memory on a commit never fetched here stays put, though a live commit has its subject and files", () => {
    const box = sandbox();
    const { clones } = (() => {
      const remote = path.join(box.root, 'remote.git');
      git(box.root, box.env, ['init', '-q', '--bare', remote]);
      const seed = makeRepo(box, 'seed');
      git(seed, box.env, ['push', '-q', remote, 'main']);
      const out = ['mine', 'theirs'].map((n) => {
        const d = path.join(box.root, n);
        git(box.root, box.env, ['clone', '-q', remote, d]);
        memOk(d, box.env, ['init', '--no-git-hooks']);
        return d;
      });
      return { clones: out };
    })();
    const [me, them] = clones as [string, string];
    const mate = { ...box.env, GIT_AUTHOR_NAME: 'Tea Mate', GIT_AUTHOR_EMAIL: 'mate@example.com', GIT_COMMITTER_NAME: 'Tea Mate', GIT_COMMITTER_EMAIL: 'mate@example.com' };
    git(them, mate, ['checkout', '-qb', 'local-only']);
    const theirs = commitFile(them, mate, 'shared.txt', 'theirs\n', 'Tune the shared settings');
    const id = capture(them, mate, 'Why the shared settings are tuned');
    memOk(them, mate, ['push']);
    // Here, a commit of the same subject and file, unrelated.
    commitFile(me, box.env, 'shared.txt', 'mine\n', 'Tune the shared settings');
    memOk(me, box.env, ['pull']);
    const r = JSON.parse(memOk(me, box.env, ['reanchor', '--json']));
    expect(r.moved).toEqual([]);
    expect(r.missing.map((m: { mine: boolean; pruned: boolean }) => [m.mine, m.pruned])).toEqual([[false, false]]);
    expect(objectOf(me, box.env, id.split(':')[2]!)).toBe(theirs);
  });
});

describe('keys are scoped to their namespace', () => {
  it('two memories sharing a key in different namespaces stay two: listed, edited, forgotten and found apart', () => {
    const box = sandbox();
    const dir = repo(box);
    const head = commitFile(dir, box.env, 'b.txt', 'b\n', 'Add b');
    const key = '0123456789abcdef';
    const line = (namespace: string, summary: string, updated: string) =>
      JSON.stringify({ key, namespace, summary, commit: head, created: '2026-01-01T00:00:00Z', updated });
    // The older one in decisions, a newer one in patterns: neither may hide the other.
    fs.writeFileSync(path.join(box.root, 'two.jsonl'), `${line('decisions', 'A decision with a shared key', '2026-01-01T00:00:00Z')}\n${line('patterns', 'A pattern with a shared key', '2026-02-01T00:00:00Z')}\n`);
    expect(memOk(dir, box.env, ['import', path.join(box.root, 'two.jsonl')])).toBe('imported 2 memories');
    const listed = () => (JSON.parse(memOk(dir, box.env, ['list', '--json'])) as Array<{ namespace: string; summary: string }>).map((m) => `${m.namespace}: ${m.summary}`).sort();
    expect(listed()).toEqual(['decisions: A decision with a shared key', 'patterns: A pattern with a shared key']);
    // The bare key names two memories: ambiguous, not one of them picked.
    const bare = mem(dir, box.env, ['show', key]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('ambiguous');
    expect(memOk(dir, box.env, ['show', `patterns:${key}`])).toContain('A pattern with a shared key');
    memOk(dir, box.env, ['edit', `decisions:${key}`, '--summary', 'A decision, edited']);
    expect(listed()).toEqual(['decisions: A decision, edited', 'patterns: A pattern with a shared key']);
    const onHead = JSON.parse(memOk(dir, box.env, ['log', 'HEAD~1..HEAD', '--format', 'json'])) as unknown;
    expect(JSON.stringify(onHead)).toContain('A pattern with a shared key');
    memOk(dir, box.env, ['forget', `patterns:${key}`]);
    expect(listed()).toEqual(['decisions: A decision, edited']);
    // Rebuilt from the notes, the same.
    memOk(dir, box.env, ['index', '--rebuild']);
    expect(listed()).toEqual(['decisions: A decision, edited']);
  });
});

describe('linked worktrees', () => {
  it("a memory on a commit another worktree has checked out detached is not moved, whichever worktree reanchors", () => {
    const box = sandbox();
    const dir = repo(box);
    git(dir, box.env, ['checkout', '-qb', 'topic']);
    const topic = commitFile(dir, box.env, 't.txt', 'topic\n', 'Topic work in progress');
    const id = capture(dir, box.env, 'Why the topic work goes this way', '--paths', 't.txt');
    git(dir, box.env, ['checkout', '-q', 'main']);
    // A newer commit on main touching the same file: what reanchoring would match the topic commit with.
    commitFile(dir, box.env, 't.txt', 'redone\n', 'Topic work in progress');
    const wt = path.join(box.root, 'wt');
    git(dir, box.env, ['worktree', 'add', '-q', '--detach', wt, 'topic']);
    git(dir, box.env, ['branch', '-qD', 'topic']);
    for (const where of [dir, wt]) {
      const r = JSON.parse(memOk(where, box.env, ['reanchor', '--json']));
      expect(r.moved).toEqual([]);
      expect(r.unmatched).toEqual([]);
      expect(objectOf(where, box.env, id.split(':')[2]!)).toBe(topic);
    }
    // Once that worktree moves on, the commit is orphaned and the memory follows its change.
    git(wt, box.env, ['checkout', '-q', '--detach', 'main']);
    const r = JSON.parse(memOk(dir, box.env, ['reanchor', '--json']));
    expect(r.moved.map((m: { from: string[] }) => m.from)).toEqual([[topic]]);
  });
});

describe('git mem doctor reports stranded memories', () => {
  interface Check {
    id: string;
    status: string;
    message: string;
    fix?: string;
  }
  const stranded = (dir: string, env: NodeJS.ProcessEnv): { code: number; checks: Check[] } => {
    const r = mem(dir, env, ['doctor', '--json']);
    return { code: r.code, checks: (JSON.parse(r.stdout) as { checks: Check[] }).checks.filter((c) => c.id === 'stranded') };
  };

  it('on commits no branch reaches, then gone after gc, each with the command that fixes them; none after reanchor', () => {
    const box = sandbox();
    const dir = repo(box);
    expect(stranded(dir, box.env).checks.map((c) => c.status)).toEqual(['ok']);
    git(dir, box.env, ['checkout', '-qb', 'topic']);
    commitFile(dir, box.env, 't.txt', 'topic\n', 'Topic part one');
    const id = capture(dir, box.env, 'Why the topic is split');
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['merge', '-q', '--squash', 'topic']);
    git(dir, box.env, ['commit', '-qm', 'Topic']);
    git(dir, box.env, ['branch', '-qD', 'topic']);
    let r = stranded(dir, box.env);
    expect(r.code).toBe(1);
    expect(r.checks).toMatchObject([{ status: 'warn', message: expect.stringContaining(id.split(':')[2]!), fix: expect.stringContaining('git mem reanchor') }]);
    expect(r.checks[0]!.message).toContain('no branch');
    prune(dir, box.env);
    r = stranded(dir, box.env);
    expect(r.checks).toMatchObject([{ status: 'warn', message: expect.stringContaining('gone from this clone'), fix: expect.stringContaining(`--to <commit>`) }]);
    memOk(dir, box.env, ['reanchor']);
    r = stranded(dir, box.env);
    expect(r.checks.map((c) => c.status)).toEqual(['ok']);
  });
});

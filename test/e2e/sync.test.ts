import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { git, makeClones, mem, memOk, refTip, sandbox, summaries } from './helpers.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** `git daemon` on loopback serving `base`, with push enabled; stopped when the test ends. */
async function gitDaemon(base: string, env: NodeJS.ProcessEnv): Promise<string> {
  const port = await freePort();
  const daemon = spawn('git', ['daemon', '--export-all', '--enable=receive-pack', '--reuseaddr', `--base-path=${base}`, '--listen=127.0.0.1', `--port=${port}`, base], { env, stdio: 'ignore' });
  onTestFinished(() => {
    daemon.kill();
  });
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => (s.end(), resolve(true)));
      s.on('error', () => resolve(false));
    });
    if (up) return `git://127.0.0.1:${port}`;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('git daemon did not start');
}

describe('push, pull and sync through a real remote', () => {
  it('two clones capture on the same commit; after push and pull each has both memories once', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    memOk(a!, box.env, ['capture', 'decisions', 'From clone A', '-m', 'body A']);
    memOk(b!, box.env, ['capture', 'decisions', 'From clone B', '-m', 'body B']);
    expect(memOk(a!, box.env, ['push'])).toBe('push origin: 0 in, 1 out');
    // B's push is rejected (the remote moved): it pulls, merges and retries.
    expect(memOk(b!, box.env, ['push'])).toBe('push origin: 1 in, 1 out (1 merge commit)');
    expect(memOk(a!, box.env, ['pull'])).toBe('pull origin: 1 in, 0 out');
    for (const clone of [a!, b!]) {
      expect(summaries(clone, box.env)).toEqual(['From clone A', 'From clone B']);
      const note = git(clone, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
      expect(note.match(/summary: From clone A/g)).toHaveLength(1);
      expect(note.match(/summary: From clone B/g)).toHaveLength(1);
    }
    // The merge commit has both notes commits as parents, so the last push was a fast-forward.
    expect(git(a!, box.env, ['rev-list', '--merges', '--count', 'refs/notes/mem/decisions']).trim()).toBe('1');
    expect(refTip(a!, box.env, 'refs/notes/mem/decisions')).toBe(refTip(b!, box.env, 'refs/notes/mem/decisions'));
    // Nothing left to do: pulls and pushes are idempotent.
    expect(memOk(b!, box.env, ['sync'])).toBe('sync origin: 0 in, 0 out');
  });

  it('keeps the newer edit, and a forget is not undone by a clone that still has the memory', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    const at = (iso: string) => ({ ...box.env, GIT_MEM_NOW: iso });
    const x = memOk(a!, at('2026-01-01T00:00:00Z'), ['capture', 'learnings', 'Will be forgotten']);
    const y = memOk(a!, at('2026-01-01T00:00:01Z'), ['capture', 'learnings', 'Will be edited twice']);
    memOk(a!, box.env, ['push']);
    memOk(b!, box.env, ['pull']);
    memOk(a!, at('2026-01-02T00:00:00Z'), ['forget', x]);
    memOk(a!, at('2026-01-02T00:00:00Z'), ['edit', y, '--summary', 'Edited on A (older)']);
    memOk(b!, at('2026-01-03T00:00:00Z'), ['edit', y, '--summary', 'Edited on B (newer)']);
    memOk(b!, box.env, ['sync']);
    memOk(a!, box.env, ['sync']);
    memOk(b!, box.env, ['pull']);
    for (const clone of [a!, b!]) expect(summaries(clone, box.env)).toEqual(['Edited on B (newer)']);
    expect(git(b!, box.env, ['notes', '--ref=refs/notes/mem/learnings', 'show', 'HEAD'])).toContain('forgotten: 2026-01-02T00:00:00Z');
  });

  it('pushes over git:// (git daemon on loopback) and creates the refs on a remote that has none', async () => {
    const box = sandbox();
    const { remote, clones: [a, b] } = makeClones(box, ['a', 'b']);
    const url = `${await gitDaemon(box.root, box.env)}/${path.basename(remote)}`;
    git(a!, box.env, ['remote', 'add', 'net', url]);
    git(b!, box.env, ['remote', 'add', 'net', url]);
    expect(git(a!, box.env, ['ls-remote', url, 'refs/notes/*'])).toBe('');
    memOk(a!, box.env, ['capture', 'research', 'Over the network']);
    expect(memOk(a!, box.env, ['push', 'net'])).toBe('push net: 0 in, 1 out');
    expect(git(a!, box.env, ['ls-remote', url, 'refs/notes/mem/*'])).toMatch(/\trefs\/notes\/mem\/research\n$/);
    memOk(b!, box.env, ['capture', 'research', 'Also over the network']);
    memOk(b!, box.env, ['sync', 'net']);
    memOk(a!, box.env, ['pull', 'net']);
    expect(summaries(a!, box.env)).toEqual(['Also over the network', 'Over the network']);
    expect(summaries(b!, box.env)).toEqual(['Also over the network', 'Over the network']);
  });

  it('fails in one line and changes nothing when the remote is unreachable', () => {
    const box = sandbox();
    const { clones: [a] } = makeClones(box, ['a']);
    memOk(a!, box.env, ['capture', 'blockers', 'Offline']);
    git(a!, box.env, ['remote', 'add', 'gone', 'git://127.0.0.1:9/nothing.git']);
    git(a!, box.env, ['remote', 'add', 'missing', path.join(box.root, 'no-such-repo.git')]);
    const before = git(a!, box.env, ['for-each-ref']);
    for (const args of [['pull', 'gone'], ['push', 'gone'], ['sync', 'missing'], ['pull', 'nope']]) {
      const r = mem(a!, box.env, args);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
    }
    expect(git(a!, box.env, ['for-each-ref'])).toBe(before);
  });

  it('init is idempotent, leaves plain git push alone, and memories follow amend and rebase', () => {
    const box = sandbox();
    const { remote, clones: [a] } = makeClones(box, ['a']);
    const config = () => git(a!, box.env, ['config', '--local', '--list']);
    const original = config();
    memOk(a!, box.env, ['init', '--show-in-log', '--no-git-hooks']);
    const once = config();
    expect(once).toContain('remote.origin.fetch=+refs/notes/mem/*:refs/notes/remotes/origin/mem/*');
    expect(once).toContain('remote.origin.fetch=+refs/heads/*:refs/remotes/origin/*'); // kept beside ours
    expect(once).toContain('notes.rewriteref=refs/notes/mem/*');
    expect(once).toContain('notes.displayref=refs/notes/mem/*');
    expect(once).not.toContain('remote.origin.push');
    memOk(a!, box.env, ['init', '--show-in-log', '--no-git-hooks']);
    expect(config()).toBe(once);
    expect(original.split('\n').every((l) => once.includes(l))).toBe(true);

    // Plain git push still pushes just the current branch.
    fs.writeFileSync(path.join(a!, 'x.txt'), 'x\n');
    git(a!, box.env, ['add', 'x.txt']);
    git(a!, box.env, ['commit', '-qm', 'x']);
    memOk(a!, box.env, ['capture', 'progress', 'Attached to x']);
    git(a!, box.env, ['push', '-q']);
    expect(git(a!, box.env, ['rev-parse', 'HEAD'])).toBe(git(remote, box.env, ['rev-parse', 'main']));
    expect(git(remote, box.env, ['for-each-ref', 'refs/notes/'])).toBe('');
    expect(git(a!, box.env, ['log', '-1'])).toContain('Attached to x');

    // Amend: the memory moves to the new commit.
    git(a!, box.env, ['commit', '-q', '--amend', '-m', 'x amended']);
    expect(git(a!, box.env, ['notes', '--ref=refs/notes/mem/progress', 'show', 'HEAD'])).toContain('Attached to x');
    // Rebase: onto a new upstream commit.
    fs.writeFileSync(path.join(a!, 'y.txt'), 'y\n');
    git(a!, box.env, ['checkout', '-q', '-b', 'side', 'HEAD~1']);
    git(a!, box.env, ['add', 'y.txt']);
    git(a!, box.env, ['commit', '-qm', 'y']);
    git(a!, box.env, ['checkout', '-q', 'main']);
    git(a!, box.env, ['rebase', '-q', 'side']);
    expect(git(a!, box.env, ['log', '-1', '--format=%s'])).toBe('x amended\n');
    expect(git(a!, box.env, ['notes', '--ref=refs/notes/mem/progress', 'show', 'HEAD'])).toContain('Attached to x');
    expect(summaries(a!, box.env)).toEqual(['Attached to x']);
  });

  it('merges what plain git fetch brought with pull --no-fetch', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    memOk(b!, box.env, ['init']);
    memOk(a!, box.env, ['capture', 'patterns', 'Fetched by plain git']);
    memOk(a!, box.env, ['push']);
    git(b!, box.env, ['fetch', '-q']);
    expect(refTip(b!, box.env, 'refs/notes/remotes/origin/mem/patterns')).not.toBeNull();
    expect(summaries(b!, box.env)).toEqual([]);
    expect(memOk(b!, box.env, ['pull', '--no-fetch'])).toBe('pull origin: 1 in, 0 out');
    expect(summaries(b!, box.env)).toEqual(['Fetched by plain git']);
  });
});

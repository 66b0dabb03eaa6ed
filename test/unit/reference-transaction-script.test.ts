/**
 * The reference-transaction hook script itself, run by sh with the states
 * and inputs git gives it (git 2.39: `git branch -D` reads `0{40} 0{40} <ref>`
 * in every state), a stand-in git-mem on PATH recording each run it starts.
 * test/e2e/stranded.test.ts drives the real hook through git and the binary.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hookScript } from '../../src/services/git-hooks.ts';

const Z = '0'.repeat(40);
const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const roots: string[] = [];
afterEach(() => {
  for (const r of roots.splice(0)) fs.rmSync(r, { recursive: true, force: true });
});

/** A git dir layout (`.git/hooks`, `.git/mem`) holding the script, and a git-mem that logs `reanchor` runs. */
function layout(ownHooksDir = true) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-reftx-'));
  roots.push(root);
  fs.mkdirSync(path.join(root, '.git', 'hooks'), { recursive: true });
  fs.mkdirSync(path.join(root, '.git', 'mem'));
  fs.mkdirSync(path.join(root, 'bin'));
  const log = path.join(root, 'runs.log');
  // `git mem reanchor` is how the hook starts it: a stand-in git passes anything else to nothing.
  fs.writeFileSync(path.join(root, 'bin', 'git'), `#!/bin/sh\n[ "$1" = mem ] && echo "$*" >> '${log}'\nexit 0\n`, { mode: 0o755 });
  const hook = path.join('.git', 'hooks', 'reference-transaction');
  fs.writeFileSync(path.join(root, hook), hookScript('reference-transaction', { ownHooksDir }), { mode: 0o755 });
  const run = (state: string, lines: string[]) => {
    const r = spawnSync(hook, [state], { cwd: root, input: lines.map((l) => `${l}\n`).join(''), env: { ...process.env, PATH: `${path.join(root, 'bin')}:${process.env.PATH}` }, encoding: 'utf8' });
    expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
  };
  const due = path.join(root, '.git', 'mem', 'reanchor-due');
  const runs = () => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);
  return { root, run, due, runs };
}

const settle = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1400);

describe('reference-transaction hook script', () => {
  it('starts nothing for a commit, a created branch, a notes write, or any state but committed', () => {
    const h = layout();
    for (const state of ['prepared', 'committed', 'aborted']) {
      h.run(state, [`${A} ${B} HEAD`, `${A} ${B} refs/heads/main`]);
      h.run(state, [`${Z} ${A} refs/heads/new`]);
      h.run(state, [`${A} ${Z} refs/notes/mem/decisions`]);
    }
    for (const state of ['prepared', 'aborted']) h.run(state, [`${Z} ${Z} refs/heads/gone`, `${A} ${B} ORIG_HEAD`]);
    settle();
    expect(h.runs()).toEqual([]);
    expect(fs.existsSync(h.due)).toBe(false);
  });

  it('a deleted branch, tag or remote-tracking branch, and a git reset (ORIG_HEAD), start one reanchor a second later', () => {
    for (const line of [`${Z} ${Z} refs/heads/topic`, `${A} ${Z} refs/tags/v1`, `${Z} ${Z} refs/remotes/origin/topic`, `${A} ${B} ORIG_HEAD`]) {
      const h = layout();
      h.run('committed', [`${A} ${B} refs/heads/other`, line]);
      expect(fs.readFileSync(h.due, 'utf8').trim()).toMatch(/^\d+$/);
      expect(h.runs()).toEqual([]);
      settle();
      expect(h.runs()).toEqual(['mem reanchor --quiet']);
    }
  });

  it('one run due at a time: the two transactions of git branch -D start one; a dead pid in the file starts another', () => {
    const h = layout();
    h.run('committed', [`${Z} ${Z} refs/heads/topic`]);
    h.run('committed', [`${Z} ${Z} refs/heads/topic`]);
    settle();
    expect(h.runs()).toEqual(['mem reanchor --quiet']);
    // The stand-in does not remove the file as git-mem does: its pid is gone now.
    h.run('committed', [`${Z} ${Z} refs/heads/second`]);
    settle();
    expect(h.runs()).toHaveLength(2);
  });

  it('under a core.hooksPath (not the repository folder) every deletion starts its run, and no file is written', () => {
    const h = layout(false);
    h.run('committed', [`${Z} ${Z} refs/heads/topic`]);
    h.run('committed', [`${Z} ${Z} refs/heads/topic`]);
    settle();
    expect(h.runs()).toHaveLength(2);
    expect(fs.existsSync(h.due)).toBe(false);
  });
});

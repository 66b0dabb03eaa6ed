/** What a new user met (issue 31's polish list), through the binary. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

describe('polish a new user met', () => {
  it('counts in the singular: "1 tombstone", "line 2"', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    fs.writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\nthree\n');
    git(repo, box.env, ['add', '.']);
    git(repo, box.env, ['commit', '-qm', 'a']);
    memOk(repo, box.env, ['capture', 'decisions', 'Three lines in a', '--paths', 'a.txt']);
    memOk(repo, box.env, ['forget', memOk(repo, box.env, ['capture', 'learnings', 'Soon gone'])]);
    expect(memOk(repo, box.env, ['stats'])).toMatch(/^index {2}1 memory, 1 revision, 1 tombstone, /m);
    expect(memOk(repo, box.env, ['blame', 'a.txt:2'])).toMatch(/Three lines in a {2}line 2$/m);
    expect(memOk(repo, box.env, ['blame', 'a.txt'])).toMatch(/Three lines in a {2}lines 1-3$/m);
  });

  it('log --format text marks a resolved memory as list does', () => {
    const box = sandbox();
    const repo = makeRepo(box, 'repo', 2);
    const id = memOk(repo, box.env, ['capture', 'blockers', 'CI is red on main']);
    memOk(repo, box.env, ['resolve', id]);
    expect(memOk(repo, box.env, ['list'])).toMatch(/CI is red on main \[resolved\]$/m);
    expect(memOk(repo, box.env, ['log', 'HEAD~1..HEAD', '--format', 'text'])).toMatch(/CI is red on main \[resolved\]$/m);
  });

  it('stats, doctor and model status name a missing model alike', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const env = { ...box.env, GIT_MEM_MODEL_DOWNLOAD: '0' };
    const missing = /missing config\.json, tokenizer\.json/;
    expect(memOk(repo, env, ['model', 'status'])).toMatch(missing);
    const stats = memOk(repo, env, ['stats']);
    expect(stats).toMatch(/^model {2}missing config\.json, tokenizer\.json/m);
    expect(stats).not.toContain('not-configured');
    expect(JSON.parse(memOk(repo, env, ['stats', '--json'])).model.state).toBe('missing');
    const doctor = mem(repo, env, ['doctor']).stdout;
    expect(doctor).toMatch(/embedding model missing config\.json, tokenizer\.json/);
    expect(doctor).not.toContain('not configured');
  });

  it('capture: "did you mean" for a near namespace; a missing summary named in one line, exit 2', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const near = mem(repo, box.env, ['capture', 'decision', 'Use sql.js']);
    expect(near.code).toBe(2);
    expect(near.stderr).toMatch(/^git-mem: unknown namespace 'decision' \(did you mean decisions\?\); valid namespaces: /);
    expect(mem(repo, box.env, ['capture', 'zzzzzzzz', 'x']).stderr).not.toContain('did you mean');
    const bare = mem(repo, box.env, ['capture', 'decisions']);
    expect(bare.code).toBe(2);
    expect(bare.stderr.trim()).toBe('git-mem: missing <summary>: git mem capture <namespace> <summary..> (see git mem capture --help)');
    expect(bare.stderr).not.toContain('Not enough non-option arguments');
    expect(mem(repo, box.env, ['capture']).stderr).toMatch(/^git-mem: missing <namespace> and <summary>: /);
    expect(memOk(repo, box.env, ['list'])).toBe('');
  });

  it('show: the commit in text mode; a forgotten memory said to be forgotten', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const head = git(repo, box.env, ['rev-parse', 'HEAD']).trim();
    const id = memOk(repo, box.env, ['capture', 'learnings', 'Shown with its commit', '-m', 'Body.']);
    expect(memOk(repo, box.env, ['show', id])).toContain(`# commit ${head}`);
    memOk(repo, box.env, ['forget', id]);
    for (const asked of [id, id.split(':')[2]!]) {
      const r = mem(repo, box.env, ['show', asked]);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^git-mem: memory '${asked}' was forgotten \\(git mem forget\\)`));
    }
    expect(mem(repo, box.env, ['show', 'ffffffffff']).stderr).toMatch(/no memory matches 'ffffffffff'/);
  });
});

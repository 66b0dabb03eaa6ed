/** git mem doctor against real repositories: each problem found, explained, with its fix and exit 1. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

interface Check {
  id: string;
  status: 'ok' | 'info' | 'warn' | 'fail';
  message: string;
  fix?: string;
}

function doctor(cwd: string, env: NodeJS.ProcessEnv): { code: number; ok: boolean; checks: Check[]; stderr: string } {
  const r = mem(cwd, env, ['doctor', '--json']);
  const report = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
  return { code: r.code, ...report, stderr: r.stderr };
}

const byId = (checks: Check[], id: string) => checks.filter((c) => c.id === id);

/** A repository set up as git mem init leaves it, with a memory and a fresh index. */
function healthyRepo() {
  const box = sandbox();
  const repo = makeRepo(box);
  memOk(repo, box.env, ['init']);
  memOk(repo, box.env, ['capture', 'decisions', 'A decision']);
  memOk(repo, box.env, ['list']);
  return { box, repo };
}

describe('git mem doctor', () => {
  it('passes on a repository set up with git mem init, and says what it checked', () => {
    const { box, repo } = healthyRepo();
    const r = doctor(repo, box.env);
    expect(r.code).toBe(0);
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.id)).toEqual(expect.arrayContaining(['git', 'path', 'notes-refs', 'rewrite-ref', 'fetch-refspec', 'index', 'locks', 'model', 'claude-hooks']));
    expect(r.checks.filter((c) => c.status === 'warn' || c.status === 'fail')).toEqual([]);
    expect(byId(r.checks, 'index')[0]!.message).toMatch(/up to date: 1 memories/);
    expect(byId(r.checks, 'model')[0]).toMatchObject({ status: 'info', message: expect.stringMatching(/^embedding model missing config\.json/) });
    const text = mem(repo, box.env, ['doctor']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ok {4}git {11}git \d+\.\d+/m);
    expect(text.stdout).toMatch(/no problems found\n$/);
  });

  it('reports notes.rewriteRef missing, with git mem init as the fix, and exits 1', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const r = doctor(repo, box.env);
    expect(r.code).toBe(1);
    expect(r.ok).toBe(false);
    expect(byId(r.checks, 'rewrite-ref')[0]).toMatchObject({ status: 'warn', fix: 'git mem init' });
    expect(r.stderr).toBe('git-mem: doctor found 1 problem\n');
    const text = mem(repo, box.env, ['doctor']);
    expect(text.stdout).toMatch(/^warn {2}rewrite-ref {3}notes\.rewriteRef does not include refs\/notes\/mem\/\*.*\n {20}fix: git mem init$/m);
  });

  it('says when a remote does not fetch memories, and when a push refspec forces them', () => {
    const { box, repo } = healthyRepo();
    git(repo, box.env, ['remote', 'add', 'upstream', path.join(box.root, 'x.git')]);
    git(repo, box.env, ['config', '--add', 'remote.upstream.push', '+refs/notes/mem/*:refs/notes/mem/*']);
    const r = doctor(repo, box.env);
    expect(byId(r.checks, 'fetch-refspec')).toContainEqual(expect.objectContaining({ status: 'info', fix: 'git mem init --remote upstream' }));
    expect(byId(r.checks, 'push-refspec')[0]).toMatchObject({ status: 'warn', message: expect.stringMatching(/forces refs\/notes\/mem\/\*/) });
    expect(r.code).toBe(1);
  });

  it('finds abandoned lock files and left-over temporary files', () => {
    const { box, repo } = healthyRepo();
    const memDir = path.join(repo, '.git/mem');
    const old = new Date(Date.now() - 60_000);
    fs.writeFileSync(path.join(memDir, 'index.sqlite.lock'), '4242');
    fs.utimesSync(path.join(memDir, 'index.sqlite.lock'), old, old);
    fs.mkdirSync(path.join(memDir, 'sessions'), { recursive: true });
    fs.writeFileSync(path.join(memDir, 'sessions/abc.json.lock'), '1');
    fs.utimesSync(path.join(memDir, 'sessions/abc.json.lock'), old, old);
    fs.writeFileSync(path.join(memDir, 'index.sqlite.999.tmp'), 'x');
    fs.utimesSync(path.join(memDir, 'index.sqlite.999.tmp'), old, old);
    const fresh = path.join(memDir, 'sessions/new.json.lock');
    fs.writeFileSync(fresh, '1');
    const r = doctor(repo, box.env);
    expect(r.code).toBe(1);
    const locks = byId(r.checks, 'locks');
    expect(locks).toHaveLength(2);
    expect(locks[0]).toMatchObject({ status: 'warn', message: expect.stringMatching(/abandoned lock .*index\.sqlite\.lock \(\d+ s old, left by process 4242\)/), fix: expect.stringMatching(/^rm /) });
    expect(locks[1]!.message).toContain('sessions/abc.json.lock');
    expect(byId(r.checks, 'index').some((c) => c.status === 'warn' && c.message.includes('index.sqlite.999.tmp'))).toBe(true);
  });

  it('reports an unreadable index, with the rebuild as its fix', () => {
    const { box, repo } = healthyRepo();
    fs.writeFileSync(path.join(repo, '.git/mem/index.sqlite'), 'this is not a database, but long enough to look like one?'.repeat(20));
    const r = doctor(repo, box.env);
    expect(r.code).toBe(1);
    expect(byId(r.checks, 'index')[0]).toMatchObject({ status: 'fail', fix: expect.stringMatching(/^git mem index --rebuild/) });
    memOk(repo, box.env, ['index', '--rebuild']);
    expect(doctor(repo, box.env).code).toBe(0);
  });

  it('says the index is behind the notes (not a problem: it catches up)', () => {
    const { box, repo } = healthyRepo();
    memOk(repo, box.env, ['capture', 'learnings', 'Not indexed yet']);
    const r = doctor(repo, box.env);
    expect(r.code).toBe(0);
    expect(byId(r.checks, 'index')[0]).toMatchObject({ status: 'ok', message: expect.stringMatching(/behind the notes in learnings/) });
    expect(byId(r.checks, 'term-index')[0]).toMatchObject({ status: 'ok', message: expect.stringMatching(/behind the notes/) });
    memOk(repo, box.env, ['recall', '--mode', 'lexical', 'indexed']);
    expect(byId(doctor(repo, box.env).checks, 'term-index')[0]).toMatchObject({ status: 'ok', message: expect.stringMatching(/up to date: 2 memories/) });
    fs.writeFileSync(path.join(repo, '.git/mem/terms.idx'), 'damaged');
    expect(byId(doctor(repo, box.env).checks, 'term-index')[0]).toMatchObject({ status: 'info', message: expect.stringMatching(/unreadable/) });
  });

  it('warns about notes refs of namespaces that are not configured', () => {
    const { box, repo } = healthyRepo();
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/incidents', 'add', '-m', 'x', 'HEAD']);
    const r = doctor(repo, box.env);
    expect(byId(r.checks, 'notes-refs')).toContainEqual(expect.objectContaining({ status: 'warn', fix: 'git config --add mem.namespaces incidents' }));
  });

  it('checks the Claude Code hooks: installed, complete, and pointing at an existing git-mem', () => {
    const { box, repo } = healthyRepo();
    memOk(repo, box.env, ['init', '--claude']);
    // The project's settings run git-mem from PATH; here it is not where a GUI-started session looks.
    expect(byId(doctor(repo, box.env).checks, 'claude-hooks')[0]).toMatchObject({ status: 'warn', message: expect.stringMatching(/git-mem from PATH, but git-mem is not in \/usr\/local\/bin/) });
    memOk(repo, box.env, ['init', '--claude', '--remove']);
    memOk(repo, box.env, ['init', '--claude', '--scope', 'local']);
    expect(byId(doctor(repo, box.env).checks, 'claude-hooks')[0]).toMatchObject({ status: 'ok' });
    memOk(repo, box.env, ['init', '--claude', '--scope', 'local', '--remove']);
    memOk(repo, box.env, ['init', '--claude']);

    const file = path.join(repo, '.claude/settings.json');
    const settings = JSON.parse(fs.readFileSync(file, 'utf8'));
    for (const groups of Object.values(settings.hooks) as Array<Array<{ hooks: Array<{ command: string }> }>>) {
      for (const g of groups) for (const h of g.hooks) h.command = h.command.replace(/^\S+/, '/nonexistent/bin/git-mem');
    }
    delete settings.hooks.PreCompact;
    fs.writeFileSync(file, JSON.stringify(settings));
    const r = doctor(repo, box.env);
    expect(r.code).toBe(1);
    expect(byId(r.checks, 'claude-hooks')[0]).toMatchObject({
      status: 'fail',
      message: expect.stringMatching(/missing events: PreCompact;.*runs \/nonexistent\/bin\/git-mem, which does not exist/),
      fix: 'git mem init --claude',
    });

    fs.writeFileSync(file, '{ not json');
    expect(byId(doctor(repo, box.env).checks, 'claude-hooks')[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/not valid JSON/) });
  });

  it('fails when git-mem is not on PATH, and still runs outside a repository', () => {
    const box = sandbox();
    const env = { ...box.env, PATH: (box.env.PATH ?? '').split(':').slice(1).join(':') };
    const r = spawnSync(BIN, ['doctor', '--json'], { cwd: box.root, env, encoding: 'utf8' });
    expect(r.status).toBe(1);
    const report = JSON.parse(r.stdout) as { checks: Check[] };
    expect(byId(report.checks, 'path')[0]).toMatchObject({ status: 'fail', message: expect.stringMatching(/not on PATH/) });
    expect(byId(report.checks, 'repository')[0]).toMatchObject({ status: 'info', message: expect.stringMatching(/not a git repository.*repository checks skipped/) });
  });
});

/**
 * git-mem as a git citizen: help (without yargs), the man page through
 * `git mem --help`, make install / uninstall, git mem config and stats, and
 * --no-color.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const hasMan = spawnSync('man', ['--version'], { stdio: 'ignore' }).status === 0;
const hasMake = spawnSync('make', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasMan) console.warn('cli-polish: skipping man page tests: man is not installed (apt-get install man-db)');
if (!hasMake) console.warn('cli-polish: skipping make install tests: make is not installed');

describe('help', () => {
  it('git-mem --help lists every command; git mem <command> --help its options', () => {
    const box = sandbox();
    const root = spawnSync(BIN, ['--help'], { env: box.env, encoding: 'utf8' });
    expect(root.status).toBe(0);
    for (const c of ['capture <namespace> <summary..>', 'list (ls)', 'recall <query..>', 'doctor', 'config', 'stats']) expect(root.stdout).toContain(c);
    const capture = mem(box.root, box.env, ['capture', '--help']);
    expect(capture.code).toBe(0);
    expect(capture.stdout).toMatch(/^git mem capture <namespace> <summary\.\.>\n/);
    expect(capture.stdout).toContain('-m, --message <text>');
    expect(mem(box.root, box.env, ['ls', '-h']).stdout).toMatch(/^git mem list\n/);
  });

  it('answers an unknown command: with --help the root help, else a one-line usage error and exit 2', () => {
    const box = sandbox();
    const r = mem(box.root, box.env, ['nope', '--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^git mem <command> \[options\]/);
    const bad = mem(box.root, box.env, ['nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^git-mem: .*\(see git mem --help\)\n$/);
    expect(mem(box.root, box.env, []).stderr).toBe('git-mem: give a command (see git mem --help)\n');
  });

  it.skipIf(!hasMan)('man ./man/git-mem.1 renders without warnings', () => {
    const r = spawnSync('man', ['--warnings', '-l', path.join(ROOT, 'man/git-mem.1')], { env: { ...process.env, MANPAGER: 'cat', MANWIDTH: '80', LC_ALL: 'C.UTF-8' }, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^GIT-MEM\(1\)/);
    expect(r.stdout).toContain('git mem capture <namespace> <summary>...');
  });

  it.skipIf(!hasMan)('git mem --help opens the man page (git help mem) when MANPATH has it', () => {
    const box = sandbox();
    const manDir = path.join(box.root, 'man');
    fs.mkdirSync(path.join(manDir, 'man1'), { recursive: true });
    fs.copyFileSync(path.join(ROOT, 'man/git-mem.1'), path.join(manDir, 'man1/git-mem.1'));
    const env = { ...box.env, MANPATH: `${manDir}:`, MANPAGER: 'cat', MANWIDTH: '80' };
    for (const args of [['mem', '--help'], ['help', 'mem'], ['help', '-m', 'mem']]) {
      const r = spawnSync('git', args, { cwd: box.root, env, encoding: 'utf8' });
      expect(r.status, args.join(' ')).toBe(0);
      expect(r.stdout).toMatch(/^GIT-MEM\(1\) +git-mem Manual/);
      expect(r.stdout).toContain('EXIT STATUS');
    }
  });
});

describe.skipIf(!hasMake || !hasMan)('make install / uninstall', () => {
  it('installs the binary, man page and completions under PREFIX, where git and man find them, and removes exactly those', () => {
    const box = sandbox();
    const prefix = path.join(box.root, 'prefix');
    const make = (target: string) => spawnSync('make', ['-s', '-C', ROOT, target, `PREFIX=${prefix}`, `BIN=${BIN}`], { env: { ...process.env }, encoding: 'utf8' });
    expect(make('install').status).toBe(0);
    const files = ['bin/git-mem', 'share/man/man1/git-mem.1', 'share/bash-completion/completions/git-mem', 'share/zsh/site-functions/_git-mem', 'share/fish/vendor_completions.d/git-mem.fish', 'share/fish/vendor_conf.d/git-mem.fish'];
    for (const f of files) expect(fs.existsSync(path.join(prefix, f)), f).toBe(true);
    // Only the prefix's bin on PATH (no MANPATH): man finds <prefix>/share/man from PATH, as for ~/.local.
    const env: NodeJS.ProcessEnv = { ...box.env, PATH: `${path.join(prefix, 'bin')}:/usr/bin:/bin`, MANPAGER: 'cat', MANWIDTH: '80' };
    delete env.MANPATH;
    expect(spawnSync('git', ['mem', '--version'], { env, encoding: 'utf8' }).stdout).toMatch(/^git-mem \d/);
    const help = spawnSync('git', ['mem', '--help'], { cwd: box.root, env, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^GIT-MEM\(1\)/);
    expect(make('uninstall').status).toBe(0);
    for (const f of files) expect(fs.existsSync(path.join(prefix, f)), f).toBe(false);
  });
});

describe('git mem config', () => {
  it('shows each setting with its value and source: default, git config (scope, file), environment', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    git(repo, box.env, ['config', 'mem.autoCapture', 'false']);
    git(repo, box.env, ['config', '--global', '--add', 'mem.namespaces', 'incidents']);
    git(repo, box.env, ['config', 'mem.hooks.pushOnEnd', 'perhaps']);
    git(repo, box.env, ['config', 'mem.autocaptur', 'true']);
    const env = { ...box.env, GIT_MEM_SECRETS: 'block' };
    const r = JSON.parse(memOk(repo, env, ['config', '--json'])) as { settings: Array<Record<string, unknown>>; unknown: Array<{ key: string }> };
    const row = (key: string) => r.settings.find((s) => s.key === key)!;
    expect(row('mem.autoCapture')).toMatchObject({ value: false, source: 'git config', origin: 'local: .git/config' });
    expect(row('mem.namespaces')).toMatchObject({ value: ['incidents'], source: 'git config', origin: expect.stringMatching(/^global: .*gitconfig$/) });
    expect(row('mem.secrets')).toMatchObject({ value: 'block', source: 'environment', origin: 'GIT_MEM_SECRETS' });
    expect(row('mem.hooks.pullOnStart')).toMatchObject({ value: false, source: 'default', origin: null });
    expect(row('mem.hooks.pushOnEnd')).toMatchObject({ value: false, problem: expect.stringMatching(/'perhaps' is not a boolean/) });
    expect(r.unknown.map((u) => u.key)).toEqual(['mem.autocaptur']);

    const text = mem(repo, env, ['config']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^mem\.autoCapture +false +git config \(local: \.git\/config\)$/m);
    expect(text.stdout).toMatch(/^mem\.secrets +block +environment \(GIT_MEM_SECRETS\)$/m);
    expect(text.stdout).toMatch(/^mem\.hooks\.pullOnStart +false +default$/m);
    expect(text.stdout).toContain("warning: mem.hooks.pushOnEnd: 'perhaps' is not a boolean; using false");
    expect(text.stdout).toContain('warning: mem.autocaptur (local) is not a git-mem setting');
  });

  it('works outside a repository (global config)', () => {
    const box = sandbox();
    git(box.root, box.env, ['config', '--global', 'mem.secrets', 'warn']);
    expect(mem(box.root, box.env, ['config']).stdout).toMatch(/^mem\.secrets +warn +git config \(global: /m);
  });
});

describe('git mem stats', () => {
  it('counts by namespace and status, charts captures per week, and reports index and model', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const at = (iso: string) => ({ ...box.env, GIT_MEM_NOW: iso });
    memOk(repo, at('2026-11-20T10:00:00Z'), ['capture', 'decisions', 'One']);
    memOk(repo, at('2026-11-20T11:00:00Z'), ['capture', 'decisions', 'Two', '--status', 'resolved']);
    memOk(repo, at('2026-11-03T11:00:00Z'), ['capture', 'blockers', 'Three']);
    const env = at('2026-11-22T12:00:00Z');
    const json = JSON.parse(memOk(repo, env, ['stats', '--json', '--weeks', '4']));
    expect(json).toMatchObject({
      total: 3,
      byStatus: { active: 2, resolved: 1, archived: 0 },
      namespaces: [
        { name: 'decisions', total: 2, byStatus: { active: 1, resolved: 1, archived: 0 } },
        { name: 'blockers', total: 1 },
      ],
      weeks: [
        { week: '2026-10-26', count: 0 },
        { week: '2026-11-02', count: 1 },
        { week: '2026-11-09', count: 0 },
        { week: '2026-11-16', count: 2 },
      ],
      earlier: 0,
      index: { memories: 3, revisions: 3, tombstones: 0 },
      model: { state: 'missing', detail: expect.stringMatching(/^missing config\.json/) },
    });
    const text = memOk(repo, env, ['stats', '--weeks', '4']);
    expect(text).toMatch(/^3 memories: 2 active, 1 resolved/);
    expect(text).toMatch(/^ {2}2026-11-16 {6}2 {2}#{40}$/m);
    expect(text).toMatch(/^ {2}2026-11-02 {6}1 {2}#{20}$/m);
    expect(mem(repo, env, ['stats', '--weeks', '0']).code).toBe(2);
  });
});

describe('colour', () => {
  it('--no-color wins over FORCE_COLOR; without it, FORCE_COLOR colours', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'decisions', 'Coloured']);
    const env: NodeJS.ProcessEnv = { ...box.env, FORCE_COLOR: '1' };
    delete env.NO_COLOR;
    expect(mem(repo, env, ['list']).stdout).toContain('\u001b[');
    expect(mem(repo, env, ['list', '--no-color']).stdout).not.toContain('\u001b[');
    expect(mem(repo, env, ['--no-color', 'namespaces']).stdout).not.toContain('\u001b[');
    expect(mem(repo, { ...env, NO_COLOR: '1' }, ['list']).stdout).not.toContain('\u001b[');
  });
});

/**
 * The generated completion scripts, loaded in real bash (with bash-completion and
 * git's completion), zsh (with its git completion) and fish, asked for completions
 * of `git-mem …` and of `git mem …`. A shell that is not installed is skipped,
 * saying so (CI installs all three: apt-get install bash-completion zsh fish).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, git, memOk, type Sandbox } from './helpers.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const HERE = path.join(ROOT, 'test/e2e/completion');

function has(cmd: string, args = ['--version']): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';
const shells = {
  bash: has('bash') && fs.existsSync(BASH_COMPLETION),
  zsh: has('zsh') && has('zsh', ['-c', 'zmodload zsh/zpty']),
  fish: has('fish'),
};
for (const [shell, ok] of Object.entries(shells)) {
  if (!ok) console.warn(`completions: skipping ${shell} tests: ${shell === 'bash' ? `bash or ${BASH_COMPLETION}` : shell} is not installed (apt-get install bash-completion zsh fish)`);
}

let box: Sandbox;
let repo: string;
let key: string;
let env: NodeJS.ProcessEnv;

/** Like helpers.sandbox(), for the whole file (the shells are slow to start: one repository for all cases). */
function suiteSandbox(): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-complete-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  fs.mkdirSync(path.join(root, 'bin'));
  fs.symlinkSync(BIN, path.join(root, 'bin', 'git-mem'));
  fs.writeFileSync(path.join(root, 'gitconfig'), '[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n');
  const env = { PATH: `${path.join(root, 'bin')}:${process.env.PATH ?? ''}`, HOME: root, GIT_CONFIG_GLOBAL: path.join(root, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1', TMPDIR: os.tmpdir() };
  return { root, env };
}

beforeAll(() => {
  box = suiteSandbox();
  repo = path.join(box.root, 'repo');
  fs.mkdirSync(repo);
  git(repo, box.env, ['init', '-q']);
  git(repo, box.env, ['commit', '-q', '--allow-empty', '-m', 'first']);
  git(repo, box.env, ['remote', 'add', 'origin', path.join(box.root, 'nowhere.git')]);
  git(repo, box.env, ['config', '--add', 'mem.namespaces', 'incidents']);
  memOk(repo, box.env, ['capture', 'decisions', 'Use sql.js for the index']);
  memOk(repo, box.env, ['capture', 'learnings', 'Bun compiles fast']);
  key = JSON.parse(memOk(repo, box.env, ['list', '--namespace', 'decisions', '--json']))[0].key;
  // Each shell finds the scripts where `make install PREFIX=~/.local` puts them.
  const data = path.join(box.root, 'share');
  fs.mkdirSync(path.join(data, 'bash-completion/completions'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'completions/git-mem.bash'), path.join(data, 'bash-completion/completions/git-mem'));
  fs.mkdirSync(path.join(box.root, 'zsh'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'completions/_git-mem'), path.join(box.root, 'zsh/_git-mem'));
  fs.mkdirSync(path.join(data, 'fish/vendor_completions.d'), { recursive: true });
  fs.mkdirSync(path.join(data, 'fish/vendor_conf.d'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'completions/git-mem.fish'), path.join(data, 'fish/vendor_completions.d/git-mem.fish'));
  fs.copyFileSync(path.join(ROOT, 'completions/git-mem.conf.fish'), path.join(data, 'fish/vendor_conf.d/git-mem.fish'));
  env = { ...box.env, XDG_DATA_HOME: data, XDG_CONFIG_HOME: path.join(box.root, 'config'), TERM: 'dumb' };
}, 60_000);

/** The candidates a shell offers for `line` (cursor at its end), without descriptions or trailing blanks. */
function complete(shell: keyof typeof shells, line: string): string[] {
  const run =
    shell === 'bash'
      ? spawnSync('bash', [path.join(HERE, 'complete.bash'), line], { cwd: repo, env, encoding: 'utf8', timeout: 30_000 })
      : shell === 'zsh'
        ? spawnSync('zsh', [path.join(HERE, 'capture.zsh'), path.join(box.root, 'zsh'), line], { cwd: repo, env, encoding: 'utf8', timeout: 30_000 })
        : // fish reads vendor_completions.d and vendor_conf.d under XDG_DATA_HOME/fish by itself.
          spawnSync('fish', ['-c', `complete -C ${JSON.stringify(line)}`], {
            cwd: repo,
            env,
            encoding: 'utf8',
            timeout: 30_000,
          });
  if (run.status !== 0 && !run.stdout) throw new Error(`${shell} failed (${run.status}): ${run.stderr}`);
  return run.stdout
    .split('\n')
    .map((l) => l.replace(/\|$/, '').replace(/ -- .*$/, '').replace(/\t.*$/, '').trim())
    .filter(Boolean);
}

const cases: Array<[string, string, string[], string[]?]> = [
  // [what, after "git-mem " / "git mem ", must include, must not include]
  ['commands', 'ca', ['capture']],
  ['aliases', 'l', ['list', 'ls']],
  ['namespaces, configured ones too', 'capture ', ['decisions', 'learnings', 'incidents']],
  ['a namespace prefix', 'capture dec', ['decisions'], ['learnings']],
  ['options of the command', 'list --n', ['--namespace', '--no-color'], ['--no-json']],
  ['an option value: namespaces', 'list --namespace le', ['learnings']],
  ['an option value: choices', 'recall why --level f', ['full', 'files'], ['summary']],
  ['negatable options', 'pull --no-f', ['--no-fetch']],
  ['remotes', 'pull o', ['origin']],
  ['hook events', 'hook Sess', ['SessionStart', 'SessionEnd']],
  ['no namespaces after the summary', 'capture decisions summary ', [], ['decisions']],
];

describe.each(Object.keys(shells) as Array<keyof typeof shells>)('%s completion', (shell) => {
  describe.each(['git-mem', 'git mem'])('as `%s`', (prog) => {
    it.skipIf(!shells[shell]).each(cases)('completes %s', (_what, rest, include, exclude = []) => {
      const got = complete(shell, `${prog} ${rest}`);
      expect(got).toEqual(expect.arrayContaining(include));
      for (const x of exclude) expect(got).not.toContain(x);
    });

    it.skipIf(!shells[shell])('completes memory ids: a key prefix, and namespace:…', () => {
      expect(complete(shell, `${prog} show ${key.slice(0, 4)}`).map((c) => c.replace(/^.*:/, ''))).toContain(key.slice(0, 10));
      const ids = complete(shell, `${prog} show decisions:`);
      // bash offers what follows the last ':' (readline's word); zsh and fish the whole id.
      expect(ids.some((c) => c.endsWith(key.slice(0, 10)))).toBe(true);
      expect(ids.join(' ')).not.toContain('learnings');
    });
  });
});

describe('git-mem __complete', () => {
  it('answers from the index file as it is: no refresh, no lock, no yargs', () => {
    const index = path.join(repo, '.git/mem/index.sqlite');
    const before = fs.statSync(index).mtimeMs;
    memOk(repo, box.env, ['capture', 'progress', 'Not indexed yet']);
    const r = spawnSync('git-mem', ['__complete', 'ids', ''], { cwd: repo, env: box.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^decisions:[0-9a-f]{7}:[0-9a-f]{10}\tUse sql\.js for the index$/m);
    expect(r.stdout).not.toContain('Not indexed yet');
    expect(fs.statSync(index).mtimeMs).toBe(before);
    expect(fs.existsSync(`${index}.lock`)).toBe(false);
  });

  it('prints nothing, and exits 0, outside a repository or for an unknown kind', () => {
    for (const args of [['ids', ''], ['nonsense'], []]) {
      const r = spawnSync('git-mem', ['__complete', ...args], { cwd: box.root, env: box.env, encoding: 'utf8' });
      expect([r.status, r.stdout, r.stderr]).toEqual([0, '', '']);
    }
    const ns = spawnSync('git-mem', ['__complete', 'namespaces', 'p'], { cwd: box.root, env: { ...box.env, GIT_MEM_NAMESPACES: 'platform' }, encoding: 'utf8' });
    expect(ns.stdout).toBe('progress\tMilestones, completed work, pending actions\npatterns\tCross-project practices and recurring solutions\nplatform\tConfigured namespace\n');
  });
});

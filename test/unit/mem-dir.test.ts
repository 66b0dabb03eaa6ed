/** The cache folder's owner (stores/cache/mem-dir.ts) on real folders: what it calls each broken state, and where the caches go then. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fallbackDir, inspectMemDir, MemDir, type MemDirProblem, usableFallback } from '../../src/stores/cache/mem-dir.ts';

function scratch(): { git: string; tmp: string; mem: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-memdir-'));
  onTestFinished(() => fs.rmSync(root, { recursive: true, force: true }));
  const git = path.join(root, '.git');
  const tmp = path.join(root, 'tmp');
  fs.mkdirSync(git);
  fs.mkdirSync(tmp);
  return { git, tmp, mem: path.join(git, 'mem') };
}

describe('inspectMemDir', () => {
  it('takes a folder, or a missing one it can make, as usable, and makes nothing', () => {
    const { mem } = scratch();
    expect(inspectMemDir(mem)).toBeNull();
    expect(fs.existsSync(mem)).toBe(false);
    fs.mkdirSync(mem);
    expect(inspectMemDir(mem)).toBeNull();
  });

  it('names each state that cannot be used, with its fix', () => {
    const { mem } = scratch();
    fs.symlinkSync(path.join(path.dirname(mem), 'gone'), mem);
    expect(inspectMemDir(mem)).toMatchObject({ kind: 'dangling-symlink', message: expect.stringContaining('which does not exist'), fix: expect.stringMatching(/^mkdir -p \S+gone, or rm \S+mem$/) });
    fs.rmSync(mem);
    fs.symlinkSync('mem', mem);
    expect(inspectMemDir(mem)).toMatchObject({ kind: 'symlink-loop', fix: `rm ${mem}` });
    fs.rmSync(mem);
    fs.writeFileSync(mem, 'x');
    expect(inspectMemDir(mem)).toMatchObject({ kind: 'not-a-directory', message: `${mem} is a file, not a directory`, fix: `mv ${mem} ${mem}.bak` });
    fs.rmSync(mem);
    fs.writeFileSync(`${mem}.target`, 'x');
    fs.symlinkSync('mem.target', mem);
    expect(inspectMemDir(mem)?.message).toBe(`${mem} is a symlink to a file, not a directory`);
  });

  it('quotes a path with spaces in its fix', () => {
    const { git } = scratch();
    const mem = path.join(git, 'my repo', 'mem');
    fs.mkdirSync(path.dirname(mem));
    fs.symlinkSync('mem', mem);
    expect(inspectMemDir(mem)?.fix).toBe(`rm '${mem}'`);
  });
});

describe('MemDir', () => {
  it('keeps the caches in the folder itself when it can be used, making it on the first write', () => {
    const { mem, tmp } = scratch();
    const told: MemDirProblem[] = [];
    const dir = new MemDir(mem, tmp);
    dir.onProblem = (p) => told.push(p);
    expect(dir.file('index')).toBe(path.join(mem, 'index.sqlite'));
    expect(fs.existsSync(mem)).toBe(false);
    expect(dir.writable()).toBe(true);
    expect(fs.statSync(mem).isDirectory()).toBe(true);
    expect(dir.problem()).toBeNull();
    expect(told).toEqual([]);
  });

  it('sends them to a private folder under the temporary directory when it cannot, and says so once', () => {
    const { mem, tmp } = scratch();
    fs.symlinkSync('mem', mem);
    const told: Array<[string, string | null]> = [];
    const dir = new MemDir(mem, tmp);
    dir.onProblem = (p, fallback) => told.push([p.kind, fallback]);
    const fallback = fallbackDir(mem, tmp)!;
    expect(usableFallback(mem, tmp)).toBe(fallback);
    expect(dir.file('terms')).toBe(path.join(fallback, 'terms.idx'));
    expect(dir.writable()).toBe(true);
    dir.file('sessions');
    expect(told).toEqual([['symlink-loop', fallback]]);
    expect(fs.statSync(path.dirname(fallback)).mode & 0o777).toBe(0o700);
    // The same repository finds the same folder; another one, its own.
    expect(new MemDir(mem, tmp).root).toBe(fallback);
    expect(fallbackDir(path.join(tmp, 'other', '.git', 'mem'), tmp)).not.toBe(fallback);
  });

  it('does not use a fallback folder others can write: the caches stay in memory', () => {
    const { mem, tmp } = scratch();
    fs.writeFileSync(mem, 'x');
    const shared = path.dirname(fallbackDir(mem, tmp)!);
    fs.mkdirSync(shared);
    fs.chmodSync(shared, 0o777);
    const told: Array<string | null> = [];
    const dir = new MemDir(mem, tmp);
    dir.onProblem = (_, fallback) => told.push(fallback);
    expect(usableFallback(mem, tmp)).toBeNull();
    expect(dir.writable()).toBe(false);
    expect(dir.root).toBe(mem);
    expect(told).toEqual([null]);
    expect(fs.readdirSync(shared)).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)('does not use a fallback folder another user made', () => {
    const { mem, tmp } = scratch();
    fs.symlinkSync('mem', mem);
    const theirs = path.dirname(fallbackDir(mem, tmp)!);
    fs.mkdirSync(theirs, { mode: 0o700 });
    fs.chownSync(theirs, 65534, 65534);
    const dir = new MemDir(mem, tmp);
    expect(dir.writable()).toBe(false);
    expect(dir.root).toBe(mem);
  });
});

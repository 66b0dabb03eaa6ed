import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { checkPaths } from '../../src/core/validate.ts';
import { chooseScope, commitScope, namedFiles, parsePathsOption, parseScope, scopeFiles, workingScope } from '../../src/core/history/scope.ts';
import { workingFiles } from '../../src/stores/cache/sessions.ts';

describe('scope entries', () => {
  it('reads a file with lines, a file with one line, and a plain file', () => {
    expect(parseScope('src/a.py:10-40')).toEqual({ path: 'src/a.py', start: 10, end: 40 });
    expect(parseScope('src/a.py:7')).toEqual({ path: 'src/a.py', start: 7, end: 7 });
    expect(parseScope('src/a.py')).toEqual({ path: 'src/a.py' });
    // Not a range: kept as the file name it is.
    expect(parseScope('src/a.py:40-10')).toEqual({ path: 'src/a.py:40-10' });
    expect(parseScope('c:/x')).toEqual({ path: 'c:/x' });
    for (const odd of ['src/a.py:0-3', 'src/a.py:-3', 'a:b', 'C:', ':12', 'x:1-2-3', 'x:99999999999999999999']) expect(parseScope(odd)).toEqual({ path: odd });
    expect(scopeFiles(['a.py:1-2', 'a.py:5', 'b.py'])).toEqual(['a.py', 'b.py']);
  });

  it('parses --paths, normalising ./ and refusing what is not a relative path', () => {
    expect(parsePathsOption('src/a.py, ./src/b.py:10-40,src/a.py')).toEqual({ paths: ['src/a.py', 'src/b.py:10-40'] });
    expect(parsePathsOption('')).toEqual({ paths: [] });
    // A list (import, MCP) is taken entry by entry: a comma belongs to the file's name.
    expect(checkPaths(['docs/a, b.md', 'src/c.py:3'])).toEqual(['docs/a, b.md', 'src/c.py:3']);
    expect(checkPaths('docs/a, b.md')).toEqual(['docs/a', 'b.md']);
    expect(parsePathsOption('/etc/passwd').bad).toBe('/etc/passwd');
    expect(parsePathsOption('a/../../b').bad).toBe('a/../../b');
    expect(parsePathsOption('a.py:0-3').bad).toBe('a.py:0-3');
    expect(parsePathsOption('a.py:9-3').bad).toBe('a.py:9-3');
  });
});

describe('files a text names', () => {
  const files = ['src/cache.py', 'src/auth.py', 'lib/cache.py', 'Makefile', 'README.md', 'x/__init__.py', 'y/__init__.py', 'z/__init__.py', 'w/__init__.py'];
  it('finds full paths and file names as whole tokens, a sentence end included', () => {
    expect(namedFiles('Create the Redis client lazily in src/cache.py.', files)).toEqual(['src/cache.py']);
    expect(namedFiles('auth.py checks tokens', files)).toEqual(['src/auth.py']);
    expect(namedFiles('see README.md', files)).toEqual(['README.md']);
  });
  it('takes every file of a shared name when few share it, none when many do, and no partial word', () => {
    expect(namedFiles('cache.py is lazy', files).sort()).toEqual(['lib/cache.py', 'src/cache.py']);
    expect(namedFiles('edit __init__.py', files)).toEqual([]);
    expect(namedFiles('mycache.py and cache.pyc and the Makefile', files)).toEqual([]);
  });
});

describe('choosing a scope', () => {
  const big = ['a.py', 'b.py', 'c.py', 'd.py'];
  it('takes the files worked on and named, then a small commit, never a large one', () => {
    expect(chooseScope({ working: ['w.py'], text: 'about b.py', commitFiles: big }, 50)).toEqual(['w.py', 'b.py']);
    expect(chooseScope({ text: 'Use PostgreSQL', commitFiles: big }, 50)).toEqual([]);
    expect(chooseScope({ text: 'Use PostgreSQL', commitFiles: ['a.py', 'b.py'] }, 50)).toEqual(['a.py', 'b.py']);
    expect(chooseScope({ text: 'about e.py', commitFiles: big, repoFiles: ['e.py'] }, 50)).toEqual(['e.py']);
  });
  it('judges an old memory without paths by its commit only when the commit is small', () => {
    expect(commitScope(['a.py'])).toEqual(['a.py']);
    expect(commitScope(big)).toEqual([]);
  });
});

describe('the files a session worked on', () => {
  it('takes the edited files with their lines, else the files read, inside the work tree only', () => {
    const worked = [
      { file: '/r/src/a.py' },
      { file: '/r/src/b.py', lines: '3,10-12', edited: true },
      { file: '/elsewhere/c.py', edited: true },
    ];
    expect(workingScope('/r', worked, path.posix.relative)).toEqual(['src/b.py:3', 'src/b.py:10-12']);
    expect(workingScope('/r', [{ file: '/r/src/a.py' }, { file: '/r/README.md' }], path.posix.relative)).toEqual(['src/a.py', 'README.md']);
  });
  it('under the same prompt, or lately when the client gives no prompt ids', () => {
    const state = { injected: [], captured: [], working: [{ file: 'a', prompt: 'p1', at: 0 }, { file: 'b', prompt: 'p2', at: 0 }, { file: 'c', at: 1_000_000 }] };
    expect(workingFiles(state, 'p1', 1_000_000).map((w) => w.file)).toEqual(['a', 'c']);
    expect(workingFiles(state, '', 1_000_000).map((w) => w.file)).toEqual(['c']);
  });
});

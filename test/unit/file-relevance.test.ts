import { describe, expect, it } from 'vitest';
import { type FileCandidate, nameWords, pathWords, rankForFile } from '../../src/core/history/file-relevance.ts';
import type { Memory } from '../../src/core/memory.ts';

function memory(summary: string, extra: Partial<Memory> = {}): Memory {
  return { key: summary.toLowerCase().replace(/\W+/g, '-'), namespace: 'decisions', object: 'c'.repeat(40), summary, body: '', created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', tags: [], status: 'active', relatesTo: [], ...extra };
}

const names = (ms: Memory[]) => ms.map((m) => m.summary);

describe('pathWords', () => {
  it('gives the name parts and directories, without generic ones', () => {
    expect(pathWords('src/services/uploadRetry_handler.ts')).toEqual(['services', 'upload', 'retry', 'handler']);
    expect(pathWords('src/cache.py')).toEqual(['cache']);
  });

  it('gives the words of the name alone, in order', () => {
    expect(nameWords('packages/vite/src/node/typeUtils.ts')).toEqual(['type', 'utils']);
    expect(nameWords('src/index.ts')).toEqual([]);
  });
});

describe('rankForFile', () => {
  const target = { path: 'src/cache.py' };
  it('puts scope and words first, then words, then scope alone; leaves out commit-only ties far below the best', () => {
    const both = memory('Cache entries expire after 60 seconds', { paths: ['src/cache.py'] });
    const words = memory('Create Redis client lazily', { tags: ['redis', 'cache'] });
    const scopeOnly = memory('Use PostgreSQL 16', { paths: ['src/cache.py', 'src/settings.py'] });
    const tie = memory('Use gunicorn with uvicorn workers');
    const candidates: FileCandidate[] = [
      { memory: tie, onFileCommit: true },
      { memory: scopeOnly, onFileCommit: true },
      { memory: both, onFileCommit: true },
      { memory: words, searchHit: true },
    ];
    expect(names(rankForFile(candidates, target))).toEqual(['Cache entries expire after 60 seconds', 'Create Redis client lazily', 'Use PostgreSQL 16']);
  });

  it('gives commit-only ties when nothing better is there, in the order they came', () => {
    const a = memory('Use gunicorn with uvicorn workers');
    const b = memory('Deploy with a token');
    expect(names(rankForFile([{ memory: a, onFileCommit: true }, { memory: b, onFileCommit: true }], target))).toEqual([a.summary, b.summary]);
  });

  it('puts a scope holding the edited lines first, before words and blame', () => {
    const lines = memory('Keep the retry loop bounded', { paths: ['src/cache.py:40-45'] });
    const elsewhere = memory('The header comment is generated', { paths: ['src/cache.py:1-5'] });
    const words = memory('Cache misses are logged', { tags: ['cache'] });
    const blamed = memory('Written in the refactor');
    const ranked = rankForFile([{ memory: words, searchHit: true }, { memory: blamed, onEditedLines: true }, { memory: elsewhere }, { memory: lines }], { path: 'src/cache.py', lines: [[42, 43]] });
    // Blame and a scope on other lines score far below a scope on these lines: left out.
    expect(names(ranked)).toEqual(['Keep the retry loop bounded', 'Cache misses are logged']);
    // Without the line scope, blame ranks below words and above nothing.
    expect(names(rankForFile([{ memory: blamed, onEditedLines: true }, { memory: words, searchHit: true }], { path: 'src/cache.py', lines: [[42, 43]] }))).toEqual(['Cache misses are logged', 'Written in the refactor']);
  });

  it('matches no scope for a file outside the working tree, only its words', () => {
    const scoped = memory('Keep it small', { paths: ['cache.py'] });
    const words = memory('Cache misses are logged');
    expect(names(rankForFile([{ memory: scoped }, { memory: words }], { path: 'cache.py', outside: true }))).toEqual([words.summary]);
  });

  it('ranks a narrow scope above a big commit\'s, and body words below summary words', () => {
    const wide = memory('Bump every dependency', { paths: ['src/cache.py', ...Array.from({ length: 20 }, (_, i) => `src/m${i}.py`)] });
    const narrow = memory('Keep the module small', { paths: ['src/cache.py'] });
    expect(names(rankForFile([{ memory: wide }, { memory: narrow }], target))).toEqual([narrow.summary, wide.summary]);
    const body = memory('Connect lazily', { body: 'The cache client connects on first use.' });
    const summary = memory('Cache keys carry the schema version');
    expect(names(rankForFile([{ memory: body }, { memory: summary }], target))).toEqual([summary.summary, body.summary]);
  });

  it('counts a memory found by several sources once, with all its reasons', () => {
    const m = memory('Create Redis client lazily', { tags: ['cache'] });
    expect(names(rankForFile([{ memory: m, onFileCommit: true }, { memory: m, searchHit: true }], target))).toEqual([m.summary]);
  });

  it('matches word forms (caching, caches) and not other files\' scopes', () => {
    const forms = memory('Caching the client avoids reconnects');
    const other = memory('Keep auth tokens short-lived', { paths: ['src/auth.py'] });
    expect(names(rankForFile([{ memory: other, onFileCommit: true }, { memory: forms }], target))).toEqual([forms.summary]);
  });

  it('ties nothing by directory words alone, nor by the name\'s words apart (issue 38)', () => {
    const target = { path: 'packages/vite/src/node/typeUtils.ts' };
    const bump = memory('Update @rollup/plugin-node-resolve to v16');
    const apart = memory('Use ESTree types from rolldown/utils');
    const whole = memory('Move typeUtils helpers out of the config');
    const spaced = memory('The type utils are pure');
    expect(names(rankForFile([bump, apart, whole, spaced].map((m) => ({ memory: m, searchHit: true })), target))).toEqual([whole.summary, spaced.summary]);
  });

  it('takes a memory without recorded paths to be about its commit\'s files when they are few', () => {
    const small = memory('Keep the helpers pure', { object: 'a'.repeat(40) });
    const big = memory('Reformat everything', { object: 'b'.repeat(40) });
    const many = ['src/cache.py', 'a.py', 'b.py', 'c.py'];
    const ranked = rankForFile([{ memory: big, onFileCommit: true, commitFiles: many }, { memory: small, onFileCommit: true, commitFiles: ['src/cache.py'] }], target);
    // The small commit's memory scores a scope; the big one's only the commit, far below: left out.
    expect(names(ranked)).toEqual([small.summary]);
    expect(names(rankForFile([{ memory: big, onFileCommit: true, commitFiles: many }], target))).toEqual([big.summary]);
  });
});

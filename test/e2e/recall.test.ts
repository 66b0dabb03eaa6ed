import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadSqlJs } from '../../src/stores/index/sqljs.ts';
import { git, makeRepo, mem, memOk, type Sandbox, sandbox } from './helpers.ts';

interface Hit {
  id: string;
  namespace: string;
  summary: string;
  score: number;
}

function recallIds(repo: string, env: NodeJS.ProcessEnv, args: string[]): string[] {
  return (JSON.parse(memOk(repo, env, ['recall', '--mode', 'lexical', '--json', ...args])) as Hit[]).map((h) => h.id);
}

/** A repository with a few realistic memories; returns their ids by name. */
function seeded(box: Sandbox): { repo: string; ids: Record<'sqljs' | 'flaky' | 'cache' | 'bodyOnly' | 'resolved', string> } {
  const repo = makeRepo(box);
  const at = (date: string) => ({ ...box.env, GIT_MEM_NOW: date });
  const ids = {
    sqljs: memOk(repo, at('2026-01-05T10:00:00Z'), ['capture', 'decisions', 'Use sql.js for the local index', '-m', 'No native modules to build; the WASM build runs on every platform.', '--tags', 'database,wasm', '--spec', 'storage']),
    flaky: memOk(repo, at('2026-02-10T10:00:00Z'), ['capture', 'blockers', 'Flaky timeout in the sync integration tests', '-m', 'The remote fixture is slow to start; raised the timeout.', '--tags', 'ci,tests']),
    cache: memOk(repo, at('2026-03-15T10:00:00Z'), ['capture', 'learnings', 'Caching parsed notes trees cuts capture latency', '-m', 'Reading objects in one batch avoids a process per note.', '--tags', 'performance', '--spec', 'storage']),
    bodyOnly: memOk(repo, at('2026-03-20T10:00:00Z'), ['capture', 'progress', 'Weekly status', '-m', 'Mostly meetings. Looked briefly at flaky tests and at the timeout of the sync job.']),
    resolved: memOk(repo, at('2026-04-01T10:00:00Z'), ['capture', 'blockers', 'Windows paths break the index', '-m', 'Backslashes were not normalised.', '--tags', 'ci,windows', '--status', 'resolved']),
  };
  return { repo, ids };
}

describe('git mem recall', () => {
  it('ranks memories by BM25 with stemming, stop words and summary/tags above body', () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    // "flaky" and "timeout" are in flaky's summary, and only in bodyOnly's body.
    expect(recallIds(repo, box.env, ['why', 'is', 'the', 'flaky', 'timeout', 'happening'])).toEqual([ids.flaky, ids.bodyOnly]);
    // Porter stemming: "cached" finds "Caching"; stop words alone do not match everything.
    // (Related words add weaker matches below it: "tree" is related to "index", core/search/related-words.ts.)
    expect(recallIds(repo, box.env, ['what', 'did', 'we', 'learn', 'about', 'cached', 'trees'])[0]).toBe(ids.cache);
    // Tags are searched: "wasm" and "database" appear only as tags (and in the body).
    expect(recallIds(repo, box.env, ['database'])).toEqual([ids.sqljs]);
    // Any term matches (OR); more matching terms rank higher.
    const both = recallIds(repo, box.env, ['windows', 'index']);
    expect(both[0]).toBe(ids.resolved);
    expect(both).toContain(ids.sqljs);
    // The last term matches as a prefix, for typing ahead.
    expect(recallIds(repo, box.env, ['integ'])).toEqual([ids.flaky]);
    expect(recallIds(repo, box.env, ['kubernetes'])).toEqual([]);
  });

  it('prints one line per result by default, and scores in JSON, best first', () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    const r = mem(repo, box.env, ['recall', 'flaky', 'timeout', '--mode', 'lexical']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(new RegExp(`^${ids.flaky}\\s+blockers\\s+\\S+\\s+Flaky timeout in the sync integration tests\\s+\\d+\\.\\d\\d$`));
    const hits = JSON.parse(memOk(repo, box.env, ['recall', 'flaky', 'timeout', '--mode', 'lexical', '--json'])) as Array<Hit & Record<string, unknown>>;
    expect(hits.map((h) => h.id)).toEqual([ids.flaky, ids.bodyOnly]);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    expect(hits[1]!.score).toBeGreaterThan(0);
    expect(hits[0]).toMatchObject({ namespace: 'blockers', summary: 'Flaky timeout in the sync integration tests', tags: ['ci', 'tests'], status: 'active', created: '2026-02-10T10:00:00Z' });
    expect(hits[0]).not.toHaveProperty('body');
    const none = mem(repo, box.env, ['recall', 'kubernetes', '--mode', 'lexical']);
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toMatch(/no memories match/);
  });

  it('filters by namespace, tags, spec, status, dates, and limits', () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    const q = ['index', 'flaky', 'timeout', 'caching', 'sql'];
    expect(recallIds(repo, box.env, [...q]).length).toBe(5);
    expect(recallIds(repo, box.env, [...q, '--namespace', 'blockers']).sort()).toEqual([ids.flaky, ids.resolved].sort());
    expect(recallIds(repo, box.env, [...q, '-n', 'learnings', '-n', 'decisions']).sort()).toEqual([ids.cache, ids.sqljs].sort());
    expect(recallIds(repo, box.env, [...q, '--tags', 'ci']).sort()).toEqual([ids.flaky, ids.resolved].sort());
    expect(recallIds(repo, box.env, [...q, '--tags', 'ci,windows'])).toEqual([ids.resolved]);
    expect(recallIds(repo, box.env, [...q, '--tags', 'c'])).toEqual([]); // whole tags only
    expect(recallIds(repo, box.env, [...q, '--spec', 'storage']).sort()).toEqual([ids.cache, ids.sqljs].sort());
    expect(recallIds(repo, box.env, [...q, '--status', 'resolved'])).toEqual([ids.resolved]);
    expect(recallIds(repo, box.env, [...q, '--since', '2026-03-01', '--until', '2026-03-31']).sort()).toEqual([ids.cache, ids.bodyOnly].sort());
    expect(recallIds(repo, box.env, [...q, '--limit', '2'])).toHaveLength(2);
    // The default limit is 10.
    for (let i = 0; i < 12; i++) memOk(repo, box.env, ['capture', 'progress', `Index work item ${i}`]);
    expect(recallIds(repo, box.env, ['index'])).toHaveLength(10);
  });

  it('shows whole memories at --level full and their commits and files at --level files', () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    const full = memOk(repo, box.env, ['recall', 'caching', '--mode', 'lexical', '--level', 'full']);
    expect(full).toContain(`# ${ids.cache}  score `);
    expect(full).toContain('summary: Caching parsed notes trees cuts capture latency');
    expect(full).toContain('Reading objects in one batch avoids a process per note.');
    const fullJson = JSON.parse(memOk(repo, box.env, ['recall', 'caching', '--mode', 'lexical', '--level', 'full', '--json']));
    expect(fullJson[0]).toMatchObject({ id: ids.cache, body: 'Reading objects in one batch avoids a process per note.', spec: 'storage' });
    expect(fullJson[0].score).toBeGreaterThan(0);
    const files = memOk(repo, box.env, ['recall', 'caching', '--mode', 'lexical', '--level', 'files']);
    expect(files).toContain('commit ');
    expect(files).toContain('=== file0.txt (added, 10 bytes) ===\ncontent 0');
    const filesJson = JSON.parse(memOk(repo, box.env, ['recall', 'caching', '--mode', 'lexical', '--level', 'files', '--json']));
    expect(filesJson[0].memory.id).toBe(ids.cache);
    expect(filesJson[0].commit.subject).toBe('commit 0');
    expect(filesJson[0].files.shown[0]).toMatchObject({ path: 'file0.txt', content: 'content 0\n' });
  });

  it('falls back to lexical search with a one-line notice when semantic or hybrid is asked for', () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    // No model in the sandbox's cache, and none fetched even where a network exists (semantic.test.ts covers fetching).
    box.env.GIT_MEM_MODEL_DOWNLOAD = 'false';
    for (const mode of ['semantic', 'hybrid']) {
      const r = mem(repo, box.env, ['recall', 'flaky', '--mode', mode]);
      expect(r.code, mode).toBe(0);
      expect(r.stdout.split(/\s+/)[0], mode).toBe(ids.flaky);
      expect(r.stderr.trim().split('\n'), mode).toHaveLength(1);
      expect(r.stderr, mode).toMatch(/no embedding model/);
    }
    // hybrid is the default.
    expect(mem(repo, box.env, ['recall', 'flaky']).stderr).toMatch(/no embedding model/);
  });

  it('rejects bad usage with exit 2', () => {
    const box = sandbox();
    const { repo } = seeded(box);
    for (const args of [['recall', '?!'], ['recall', 'x', '--limit', '0'], ['recall', 'x', '--limit', 'many'], ['recall', 'x', '-n', 'nope'], ['recall', 'x', '--mode', 'fuzzy'], ['recall', 'x', '--since', 'someday'], ['recall', 'x', '--status', 'done'], ['recall']]) {
      const r = mem(repo, box.env, args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
    }
  });

  it('follows edits, forgets and changes made by plain git, and returns only the current revision', () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    memOk(repo, box.env, ['edit', ids.sqljs, '--summary', 'Use better-sqlite3 for the local index']);
    expect(recallIds(repo, box.env, ['sqlite3'])).toEqual([ids.sqljs]);
    expect(recallIds(repo, box.env, ['sql', 'js'])).toEqual([]);
    memOk(repo, box.env, ['forget', ids.flaky]);
    expect(recallIds(repo, box.env, ['flaky'])).toEqual([ids.bodyOnly]);

    // A note written by plain git is found; removing it with plain git removes it from results.
    git(repo, box.env, ['commit', '-q', '--allow-empty', '-m', 'second']);
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/research', 'add', '-m', '---\ntype: research\ntimestamp: 2026-05-01T00:00:00Z\nsummary: Benchmarks of tokenizers\n---\n\nPorter versus unicode61.', 'HEAD']);
    const found = recallIds(repo, box.env, ['tokenizer']);
    expect(found).toHaveLength(1);
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/research', 'remove', 'HEAD']);
    expect(recallIds(repo, box.env, ['tokenizer'])).toEqual([]);

    // The same memory on two commits (notes copied by a rebase): one result, not two.
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/learnings', 'copy', 'HEAD~1', 'HEAD']);
    const copies = recallIds(repo, box.env, ['latency']);
    expect(copies).toHaveLength(1);
    expect(copies[0]!.split(':')[2]).toBe(ids.cache.split(':')[2]);

    // Deleting a whole notes ref empties its namespace.
    git(repo, box.env, ['update-ref', '-d', 'refs/notes/mem/learnings']);
    expect(recallIds(repo, box.env, ['latency'])).toEqual([]);
  });

  it('rebuilds an index written by an older version, and a corrupt one, with results intact', async () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    expect(recallIds(repo, box.env, ['latency'])).toEqual([ids.cache]);
    const file = path.join(repo, '.git', 'mem', 'index.sqlite');
    // Make it look like an index of an older version, with the same tips: only the version forces a rebuild.
    const SQL = await loadSqlJs();
    const db = new SQL.Database(fs.readFileSync(file));
    db.run("UPDATE meta SET value = '1' WHERE key = 'version'");
    fs.writeFileSync(file, db.export());
    db.close();
    // The term index is removed too, so that recall goes through the index.
    const terms = path.join(repo, '.git', 'mem', 'terms.idx');
    fs.rmSync(terms);
    const r = mem(repo, box.env, ['recall', 'latency', '--mode', 'lexical', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((h: Hit) => h.id)).toEqual([ids.cache]);

    fs.writeFileSync(file, 'not a database at all, just some bytes that are long enough to be read'.repeat(20));
    fs.rmSync(terms);
    const c = mem(repo, box.env, ['recall', 'latency', '--mode', 'lexical', '--json']);
    expect(c.code).toBe(0);
    expect(c.stderr).toMatch(/rebuilding it from the notes/);
    expect(JSON.parse(c.stdout).map((h: Hit) => h.id)).toEqual([ids.cache]);
  });

  it('keeps the term index beside the index: rebuilt when damaged, refreshed when the notes move', () => {
    const box = sandbox();
    const { repo, ids } = seeded(box);
    const terms = path.join(repo, '.git', 'mem', 'terms.idx');
    expect(recallIds(repo, box.env, ['latency'])).toEqual([ids.cache]);
    const good = fs.readFileSync(terms);
    // Damaged: cut short, or overwritten with something else. Recall rebuilds it silently.
    for (const damage of [good.subarray(0, good.byteLength - 100), Buffer.from('garbage'.repeat(50))]) {
      fs.writeFileSync(terms, damage);
      const r = mem(repo, box.env, ['recall', 'latency', '--mode', 'lexical', '--json']);
      expect(r).toMatchObject({ code: 0, stderr: '' });
      expect(JSON.parse(r.stdout).map((h: Hit) => h.id)).toEqual([ids.cache]);
      // The same file, byte for byte: rows read again from the notes keep creation order (document order breaks ties).
      expect(fs.readFileSync(terms).equals(good)).toBe(true);
    }
    // Missing: the same.
    fs.rmSync(terms);
    expect(recallIds(repo, box.env, ['flaky'])).toEqual([ids.flaky, ids.bodyOnly]);
    expect(fs.existsSync(terms)).toBe(true);
    // A stale one (the notes moved since it was written) is never used as it is.
    const stale = fs.readFileSync(terms);
    memOk(repo, box.env, ['capture', 'learnings', 'Latency of the term index beside the index']);
    fs.writeFileSync(terms, stale);
    expect(recallIds(repo, box.env, ['latency'])).toHaveLength(2);
    // git mem index brings back a missing one even when the index itself is current (doctor's fix).
    // (The capture's memory reached only the term index, appended: the SQLite index catches up first.)
    expect(memOk(repo, box.env, ['index'])).toMatch(/^index updated/);
    fs.rmSync(terms);
    expect(memOk(repo, box.env, ['index'])).toMatch(/^index already up to date/);
    expect(fs.existsSync(terms)).toBe(true);
    // index --rebuild rewrites it too.
    const before = fs.statSync(terms).mtimeMs;
    memOk(repo, box.env, ['index', '--rebuild']);
    expect(fs.statSync(terms).mtimeMs).toBeGreaterThan(before);
    expect(recallIds(repo, box.env, ['latency'])).toHaveLength(2);
  });
});

describe('git mem index', () => {
  it('updates or rebuilds the index and prints counts', () => {
    const box = sandbox();
    const { repo } = seeded(box);
    const first = mem(repo, box.env, ['index']);
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^index updated: 5 memories in 4 namespaces, 5 revisions, 0 tombstones \(\d+ ms\)/);
    expect(first.stdout).toMatch(/blockers\s+2/);
    expect(first.stderr).toBe(''); // stderr is not a terminal here: no progress bar
    expect(memOk(repo, box.env, ['index'])).toMatch(/^index already up to date: 5 memories/);
    memOk(repo, box.env, ['capture', 'decisions', 'Another decision']);
    const forgotten = memOk(repo, box.env, ['list', '--json', '--limit', '1']);
    memOk(repo, box.env, ['forget', JSON.parse(forgotten)[0].id]);
    const report = JSON.parse(memOk(repo, box.env, ['index', '--json']));
    expect(report).toMatchObject({ rebuilt: false, updated: true, memories: 5, revisions: 5, tombstones: 1, namespaces: { blockers: 2, decisions: 1, learnings: 1, progress: 1 } });
    expect(report.file).toBe(path.join(fs.realpathSync(repo), '.git', 'mem', 'index.sqlite'));
    const rebuilt = JSON.parse(memOk(repo, box.env, ['index', '--rebuild', '--json']));
    expect(rebuilt).toMatchObject({ rebuilt: true, updated: true, memories: 5, tombstones: 1 });
    expect(memOk(repo, box.env, ['index', '--rebuild'])).toMatch(/^index rebuilt from the notes: 5 memories/);
  });

  it('draws a progress bar on stderr when it is a terminal', () => {
    const box = sandbox();
    const { repo } = seeded(box);
    const probe = spawnSync('script', ['-qec', 'true', '/dev/null'], { encoding: 'utf8' });
    if (probe.status !== 0) return; // no script(1) here
    const r = spawnSync('script', ['-qec', 'git mem index --rebuild', '/dev/null'], { cwd: repo, env: box.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    // Progress counts notes: the five memories are in four notes (one per namespace on HEAD).
    expect(r.stdout).toMatch(/rebuilding index \[#+\] 100% 4\/4 notes/);
    expect(r.stdout).toMatch(/index rebuilt from the notes: 5 memories/);
  });
});

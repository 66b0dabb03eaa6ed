// How the index follows the notes, through the compiled binary on real repositories: a change
// that adds memories, or edits or forgets memories with one revision, is applied to the term
// index without sql.js (index.sqlite is left as it was); anything else goes the full path; either
// way every answer equals that of an index rebuilt from the notes. And a process killed at any moment of an update leaves an index that
// every command can use and that agrees with the notes.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, makeRepo, mem, memOk, sandbox, type Sandbox } from './helpers.ts';

const lexical = (box: Sandbox) => ({ ...box.env, GIT_MEM_RECALL_MODE: 'lexical', GIT_MEM_LIFECYCLE_CONNECT: '1' });
const memDir = (repo: string) => path.join(repo, '.git', 'mem');
/** Identifies a cache file: each is replaced by rename whenever it is rewritten. */
const stampOf = (repo: string, name: string) => {
  const st = fs.statSync(path.join(memDir(repo), name));
  return `${st.ino}:${st.size}:${st.mtimeMs}`;
};
const sqliteStamp = (repo: string) => stampOf(repo, 'index.sqlite');

/** An answer without provenance: it tells the history this clone saw (which a rebuild after gc cannot see again), not what the index holds. */
function indexed(text: string): string {
  return JSON.stringify((JSON.parse(text) as Array<Record<string, unknown>>).map(({ provenance: _p, trusted: _t, ...rest }) => rest), null, 2);
}

/** What the commands answer: every current memory, and a few searches. */
function answers(repo: string, env: NodeJS.ProcessEnv): string {
  const out = [indexed(memOk(repo, env, ['list', '--json', '--status', 'active', '--status', 'resolved', '--status', 'archived']))];
  for (const q of ['cache', 'retry backoff', 'zebra', 'parser']) out.push(indexed(memOk(repo, env, ['recall', q, '--json', '--status', 'active', '--status', 'resolved', '--status', 'archived'])));
  out.push(memOk(repo, env, ['namespaces', '--json']));
  return out.join('\n');
}

/** The answers, then the answers of an index rebuilt from the notes: they must be equal. */
function expectAgreesWithRebuild(repo: string, env: NodeJS.ProcessEnv): string {
  const now = answers(repo, env);
  const fresh = path.join(path.dirname(repo), `${path.basename(repo)}-rebuilt-${Date.now()}`);
  fs.cpSync(repo, fresh, { recursive: true });
  fs.rmSync(memDir(fresh), { recursive: true, force: true });
  expect(now.split('\n')).toEqual(answers(fresh, env).split('\n'));
  return now;
}

describe('index updates', () => {
  it('new memories (a capture, a new namespace, an import) are appended without sql.js, and agree with a rebuild', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 3);
    memOk(repo, env, ['capture', 'decisions', 'Cache the notes tree per process', '-m', 'Because ls-tree is slow.']);
    memOk(repo, env, ['capture', 'learnings', 'Retry with backoff on 503', '--commit', 'HEAD~1']);
    memOk(repo, env, ['recall', 'cache']);
    const stamp = sqliteStamp(repo);
    const terms = stampOf(repo, 'terms.idx');

    memOk(repo, env, ['capture', 'decisions', 'The zebra parser cache is per file', '-m', 'So that edits stay local.']);
    memOk(repo, env, ['capture', 'blockers', 'Parser crashes on empty notes', '--commit', 'HEAD~2']);
    expect(JSON.parse(memOk(repo, env, ['recall', 'parser', '--json'])).map((h: { summary: string }) => h.summary).sort()).toEqual(['Parser crashes on empty notes', 'The zebra parser cache is per file']);
    // The update read only the changed notes: neither the SQLite index nor the term index file was
    // rewritten; the new memories sit in the overlay beside it.
    expect(sqliteStamp(repo)).toBe(stamp);
    expect(stampOf(repo, 'terms.idx')).toBe(terms);
    expect(fs.existsSync(path.join(memDir(repo), 'terms.add'))).toBe(true);
    const file = path.join(box.root, 'more.jsonl');
    fs.writeFileSync(file, `${JSON.stringify({ namespace: 'research', summary: 'Zebra stripes and cache lines', body: 'Retry later.' })}\n`);
    memOk(repo, env, ['import', file]);
    const found = JSON.parse(memOk(repo, env, ['recall', 'zebra', '--json'])) as Array<{ summary: string }>;
    expect(found.map((h) => h.summary).sort()).toEqual(['The zebra parser cache is per file', 'Zebra stripes and cache lines']);
    // The import asked the term index which keys it may hold: none, so no SQLite look-up either.
    expect(sqliteStamp(repo)).toBe(stamp);
    // Imported again: every key is held, the SQLite index answers, nothing is written twice.
    expect(memOk(repo, env, ['import', file])).toMatch(/0 imported|imported 0/);
    expectAgreesWithRebuild(repo, env);
  });

  it('an edit or a forget of a memory with one revision changes its document alone, without sql.js, and agrees with a rebuild', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 2);
    const a = memOk(repo, env, ['capture', 'decisions', 'Cache the notes tree per process', '-m', 'Because ls-tree is slow.']);
    const b = memOk(repo, env, ['capture', 'decisions', 'Retry with backoff on 503']);
    memOk(repo, env, ['capture', 'learnings', 'The parser cache is per file', '--commit', 'HEAD~1']);
    memOk(repo, env, ['index']);
    // Neither the writes (an id is found in the term index) nor the reads after them load sql.js (the
    // SQLite index would have caught up and been rewritten) or rewrite the main term index file.
    const withoutSqlite = (args: string[]) => {
      const stamps = [sqliteStamp(repo), stampOf(repo, 'terms.idx')];
      const out = memOk(repo, env, args);
      expect([sqliteStamp(repo), stampOf(repo, 'terms.idx')]).toEqual(stamps);
      return out;
    };

    withoutSqlite(['edit', a, '--summary', 'Cache the zebra tree per process', '--tags', 'zebra']);
    expect(JSON.parse(withoutSqlite(['recall', 'zebra', '--json'])).map((h: { summary: string }) => h.summary)).toEqual(['Cache the zebra tree per process']);
    expect(JSON.parse(withoutSqlite(['recall', 'notes', '--json']))).toEqual([]);
    expect(withoutSqlite(['show', a])).toContain('summary: Cache the zebra tree per process');
    expectAgreesWithRebuild(repo, env);

    withoutSqlite(['forget', b]);
    expect(JSON.parse(withoutSqlite(['recall', 'retry', '--json']))).toEqual([]);
    expect(JSON.parse(withoutSqlite(['list', '--json']))).toHaveLength(2);
    expect(mem(repo, env, ['show', b]).code).not.toBe(0);
    expectAgreesWithRebuild(repo, env);

    // A memory the overlay holds (captured since the main file was written), edited, then forgotten.
    const c = withoutSqlite(['capture', 'blockers', 'Parser crashes on empty notes']);
    withoutSqlite(['recall', 'parser']);
    withoutSqlite(['edit', c, '--status', 'resolved', '-m', 'Fixed: the zebra parser skips empty notes.']);
    expect(JSON.parse(withoutSqlite(['recall', 'zebra', '--json', '--status', 'resolved'])).map((h: { id: string }) => h.id)).toEqual([c]);
    expectAgreesWithRebuild(repo, env);
    withoutSqlite(['forget', c]);
    expect(JSON.parse(withoutSqlite(['recall', 'parser', '--json', '--status', 'resolved']))).toEqual([]);
    expectAgreesWithRebuild(repo, env);

    // The SQLite index catches up when a command needs it, and the answers stay the same.
    expect(memOk(repo, env, ['index'])).toMatch(/^index updated/);
    expectAgreesWithRebuild(repo, env);
  });

  it('an edited memory takes part in feedback as after a rebuild, though its new revision sits last in the index', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 2);
    // More equal first-pass scores than feedback learns from (10): which ones it takes is settled by
    // creation order, not by where the update put the edited memory.
    const words = ['apple', 'banana', 'cherry', 'damson', 'elder', 'figs', 'grape', 'hazel', 'iris', 'juniper', 'kiwi'];
    const ids = words.map((w) => memOk(repo, env, ['capture', 'decisions', `parser ${w}`, '-m', 'x']));
    for (const w of words) memOk(repo, env, ['capture', 'learnings', `${w} other`, '-m', 'y']);
    memOk(repo, env, ['recall', 'parser']);
    memOk(repo, env, ['edit', ids[0]!, '--summary', 'parser apple']);
    expect(JSON.parse(memOk(repo, env, ['recall', 'parser', '--json', '--limit', '30']))).toHaveLength(words.length);
    // The scores of `recall parser` too (it fails when feedback settles ties by document order).
    expect(expectAgreesWithRebuild(repo, env)).toContain('parser apple');
  });

  it('a memory copied onto another commit takes the full path, and so does any later edit of it', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 2);
    const a = memOk(repo, env, ['capture', 'decisions', 'Cache the notes tree per process']);
    memOk(repo, env, ['recall', 'cache']);
    // The same memory, word for word, on a new commit (as an amend that copies notes leaves it): one memory with two copies.
    const note = git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'show', 'HEAD']);
    git(repo, { ...env, GIT_COMMITTER_DATE: '2030-01-01T00:00:00Z' }, ['commit', '-q', '--allow-empty', '-m', 'later']);
    let stamp = sqliteStamp(repo);
    git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'add', '-f', '-m', note.trimEnd(), 'HEAD']);
    expect(JSON.parse(memOk(repo, env, ['list', '--json'])) as unknown[]).toHaveLength(1);
    expect(sqliteStamp(repo)).not.toBe(stamp);
    expectAgreesWithRebuild(repo, env);
    // The copies are two revisions of one key: which is current only the full path knows.
    memOk(repo, env, ['edit', a, '--summary', 'Cache the zebra tree per process']);
    stamp = sqliteStamp(repo);
    expect(JSON.parse(memOk(repo, env, ['recall', 'zebra', '--json'])).map((h: { summary: string }) => h.summary)).toEqual(['Cache the zebra tree per process']);
    expect(sqliteStamp(repo)).not.toBe(stamp);
    expectAgreesWithRebuild(repo, env);
  });

  it('a paragraph appended to a note by hand is an edit of the memory before it, not an addition', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 1);
    memOk(repo, env, ['capture', 'decisions', 'Use sqlite for storage', '-m', 'Body one about storage.']);
    memOk(repo, env, ['recall', 'storage']);
    git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'append', '-m', 'Zebra paragraph added by hand.', 'HEAD']);
    memOk(repo, env, ['capture', 'decisions', 'Giraffe decision', '-m', 'Giraffe body.']);
    const hits = JSON.parse(memOk(repo, env, ['recall', 'zebra', '--json'])) as Array<{ summary: string }>;
    expect(hits.map((h) => h.summary)).toEqual(['Use sqlite for storage']);
    expectAgreesWithRebuild(repo, env);
  });

  it('a note written by hand that starts with a blank line, then gains a memory: appended, in agreement with a rebuild', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 2);
    memOk(repo, env, ['capture', 'decisions', 'First storage decision', '-m', 'Body.']);
    memOk(repo, env, ['list']);
    // git notes keeps a leading blank line of the text it is given.
    const blob = git(repo, env, ['hash-object', '-w', '--stdin'], '\nhand written\n').trim();
    git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'add', '-C', blob, 'HEAD~1']);
    memOk(repo, env, ['list']);
    const doc = '---\nid: aaaabbbbccccdddd\ntype: decisions\ntimestamp: 2026-01-02T00:00:00Z\nupdated: 2026-01-02T00:00:00Z\nsummary: Zebra storage decision\n---\n\nBody.';
    git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'append', '-m', doc, 'HEAD~1']);
    const r = mem(repo, env, ['recall', 'zebra', '--json'], { timeout: 20_000 });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as Array<{ summary: string }>).map((h) => h.summary)).toEqual(['Zebra storage decision']);
    expectAgreesWithRebuild(repo, env);
  });

  it('a damaged term index: the command that finds the damage says so in one line and removes it; the next one rebuilds it', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 1);
    for (let i = 0; i < 40; i++) memOk(repo, env, ['capture', 'decisions', `Storage decision ${i} about the cache`, '-m', `Because of reason ${i}.`]);
    memOk(repo, env, ['index']);
    const good = answers(repo, env);
    const file = path.join(memDir(repo), 'terms.idx');
    // The documents come last in the file: two bytes of the last block flipped.
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 30]! ^= 0xff;
    bytes[bytes.length - 29]! ^= 0xff;
    fs.writeFileSync(file, bytes);
    const damaged = mem(repo, env, ['list', '--limit', '50']);
    expect(damaged.code).toBe(1);
    expect(damaged.stderr.trim().split('\n')).toHaveLength(1);
    expect(damaged.stderr).toMatch(/term index is damaged/);
    expect(fs.existsSync(file)).toBe(false);
    expect(answers(repo, env)).toBe(good);
  });

  it('a notes history squashed and collected under the index: reads fall back to the full path', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 1);
    memOk(repo, env, ['capture', 'decisions', 'One storage decision']);
    memOk(repo, env, ['recall', 'storage']);
    memOk(repo, env, ['capture', 'decisions', 'Two storage decision']);
    const ref = 'refs/notes/mem/decisions';
    git(repo, env, ['update-ref', ref, git(repo, env, ['commit-tree', `${ref}^{tree}`, '-m', 'squash']).trim()]);
    git(repo, env, ['reflog', 'expire', '--expire=now', '--all']);
    git(repo, env, ['gc', '-q', '--prune=now']);
    expect((JSON.parse(memOk(repo, env, ['recall', 'storage', '--json'])) as unknown[]).length).toBe(2);
    expectAgreesWithRebuild(repo, env);
  });

  it('a copy that appears on a commit HEAD reaches is weighed, though the anchors were cached before it', () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 0);
    // Commits with one time: between copies HEAD reaches, the smaller object id is the anchor.
    const dated = { ...env, GIT_COMMITTER_DATE: '2030-01-01T00:00:00Z', GIT_AUTHOR_DATE: '2030-01-01T00:00:00Z' };
    const commits: string[] = [];
    for (let i = 0; commits.length < 2 || commits.at(-1)! < commits.slice(0, -1).sort()[0]!; i++) {
      git(repo, dated, ['commit', '-q', '--allow-empty', '-m', `c${i}`]);
      commits.push(git(repo, env, ['rev-parse', 'HEAD']).trim());
    }
    const target = commits.slice(0, -1).sort()[0]!;
    memOk(repo, env, ['capture', 'decisions', 'Cache the notes tree per process']);
    memOk(repo, env, ['list']);
    const note = git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'show', 'HEAD']);
    git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'add', '-f', '-m', note.trimEnd(), target]);
    const shown = JSON.parse(memOk(repo, env, ['list', '--json']))[0].commit;
    expect(shown).toBe(target);
    expect(expectAgreesWithRebuild(repo, env)).toContain(target);
  });

  it('a process killed at any moment of an update leaves an index every command uses, in agreement with the notes', async () => {
    const box = sandbox();
    const env = lexical(box);
    const repo = makeRepo(box, 'repo', 3);
    for (let i = 0; i < 30; i++) memOk(repo, env, ['capture', 'decisions', `Seed memory ${i} about the cache`, '-m', `Body ${i}: retry later.`]);
    memOk(repo, env, ['recall', 'cache']);
    // Kill points spread over a whole update, from before it starts to after it ends.
    const delays = [0, 5, 10, 15, 20, 30, 40, 60, 80, 120];
    for (const [i, delay] of delays.entries()) {
      // In turn a change the term index appends, an edit it applies by itself, and one that needs the
      // full path (the memories of one note copied onto another commit: keys with two copies).
      if (i % 3 === 0) memOk(repo, env, ['capture', i % 2 === 0 ? 'decisions' : 'learnings', `Zebra memory ${i}`]);
      else if (i % 3 === 1) memOk(repo, env, ['edit', JSON.parse(memOk(repo, env, ['list', '--json', '--limit', '1']))[0].id, '--summary', `Zebra memory edited ${i}`]);
      else git(repo, env, ['notes', '--ref', 'refs/notes/mem/decisions', 'copy', '-f', 'HEAD', i % 2 === 0 ? 'HEAD~1' : 'HEAD~2']);
      // The binary itself (not through git): the kill must reach the process doing the update.
      const child = spawn(BIN, [delay % 20 === 0 ? 'recall' : 'list', 'zebra'], { cwd: repo, env, stdio: 'ignore' });
      const closed = new Promise((resolve) => child.on('close', resolve));
      await new Promise((resolve) => setTimeout(resolve, delay));
      child.kill('SIGKILL');
      await closed;
      // Doctor may warn of a killed writer's temporary file (the next write removes it); nothing may fail.
      const doctor = JSON.parse(mem(repo, env, ['doctor', '--json']).stdout) as { checks: Array<{ id: string; status: string }> };
      expect(doctor.checks.filter((c) => c.status === 'fail')).toEqual([]);
      expectAgreesWithRebuild(repo, env);
    }
  }, 120_000);
});

/**
 * Ids users did not get from git-mem: a hand-written note's own `id` (not
 * hex) is shown in a form every command takes back, and `--relates-to` names
 * a memory that exists, or the capture is refused.
 */
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

interface Listed {
  id: string;
  key: string;
  summary: string;
  status: string;
  relates_to: string[];
}

const list = (dir: string, env: NodeJS.ProcessEnv) => JSON.parse(memOk(dir, env, ['list', '--json'])) as Listed[];

/** The notes state (every ref and its tip): a refused command must leave it as it was. */
const notesState = (dir: string, env: NodeJS.ProcessEnv) => git(dir, env, ['for-each-ref', 'refs/notes/']);

function handWritten(id: string, summary: string): string {
  return `---\nid: ${JSON.stringify(id)}\ntype: decisions\ntimestamp: 2026-01-01T00:00:00Z\nsummary: ${summary}\n---\n\nWritten by hand.\n`;
}

describe('a hand-written id that is not hex', () => {
  it('is shown in an id that show, hydrate, edit, resolve and forget take, as the hooks inject it', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const written = { 'ADR-0001': 'Use Postgres', 'use postgres 2': 'Pool connections', 'ops/db:1': 'Back up nightly' };
    const note = Object.entries(written).map(([id, summary]) => handWritten(id, summary)).join('\n');
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', note, 'HEAD']);
    // Injected at session start with the ids list shows.
    const hook = mem(dir, box.env, ['hook', 'SessionStart'], { input: JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'SessionStart', source: 'startup', transcript_path: '' }) });
    const injected = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext as string;
    for (const m of list(dir, box.env)) expect(injected).toContain(`id="${m.id}"`);
    memOk(dir, box.env, ['capture', 'decisions', 'A memory git-mem wrote']);
    const byKey = new Map(list(dir, box.env).map((m) => [m.key, m]));
    expect([...byKey.keys()].filter((k) => !/^[0-9a-f]+$/.test(k)).sort()).toEqual(['adr-0001', 'ops/db:1', 'use postgres 2']);

    // The id list prints, the namespace and key alone, and the key as written (any case).
    const shown = byKey.get('adr-0001')!.id;
    for (const id of [shown, 'decisions:adr-0001', 'decisions:ADR-0001']) {
      const r = mem(dir, box.env, ['show', id]);
      expect(r.code, `${id}: ${r.stderr}`).toBe(0);
      expect(r.stdout, id).toContain('summary: Use Postgres');
    }
    expect(memOk(dir, box.env, ['hydrate', byKey.get('ops/db:1')!.id])).toContain('Back up nightly');

    memOk(dir, box.env, ['edit', byKey.get('use postgres 2')!.id, '--summary', 'Pool connections, 20 at most']);
    memOk(dir, box.env, ['resolve', byKey.get('ops/db:1')!.id]);
    memOk(dir, box.env, ['forget', shown]);
    const after = new Map(list(dir, box.env).map((m) => [m.key, m]));
    expect(after.has('adr-0001')).toBe(false);
    expect(after.get('use postgres 2')?.summary).toBe('Pool connections, 20 at most');
    expect(after.get('ops/db:1')?.status).toBe('resolved');
    expect(after.size).toBe(3);
  });

  it('is still no bare key: a word alone is refused as an id, naming the form that works', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', handWritten('adr-7', 'Seven'), 'HEAD']);
    const r = mem(dir, box.env, ['show', 'adr-7']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^git-mem: 'adr-7' is not a memory id; .*<namespace>:<key>/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('capture --relates-to', () => {
  it('refuses what is not an id, or names no memory, with one line and nothing written', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    memOk(dir, box.env, ['capture', 'decisions', 'First']);
    const before = notesState(dir, box.env);
    const cases: Array<[string, number, RegExp]> = [
      ['nonsense', 2, /^git-mem: --relates-to: 'nonsense' is not a memory id/],
      ['abcd1234', 1, /^git-mem: --relates-to: no memory matches 'abcd1234'/],
      ['learnings:abcd1234', 1, /^git-mem: --relates-to: no memory matches 'learnings:abcd1234'/],
    ];
    for (const [ref, code, message] of cases) {
      const r = mem(dir, box.env, ['capture', 'learnings', 'Second', '--relates-to', ref]);
      expect(r.code, ref).toBe(code);
      expect(r.stderr.trim(), ref).toMatch(message);
      expect(r.stderr.trim().split('\n'), ref).toHaveLength(1);
      expect(notesState(dir, box.env), ref).toBe(before);
    }
  });

  it('stores the memory it names as a link that survives a rebase (<namespace>:<key>), a hand-written id included', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', handWritten('ADR-0002', 'Use Redis'), 'HEAD']);
    const first = JSON.parse(memOk(dir, box.env, ['capture', 'decisions', 'First', '--json'])) as Listed;
    const second = JSON.parse(memOk(dir, box.env, ['capture', 'learnings', 'Second', '--relates-to', first.key.slice(0, 6), '--relates-to', 'decisions:adr-0002', '--json'])) as Listed;
    expect(second.relates_to).toEqual(expect.arrayContaining([`decisions:${first.key}`, 'decisions:adr-0002']));
    expect(memOk(dir, box.env, ['related', second.id])).toContain('Use Redis');
  });
});

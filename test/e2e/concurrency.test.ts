import { describe, expect, it } from 'vitest';
import { git, makeRepo, memAsync, memOk, sandbox } from './helpers.ts';

describe('compare-and-swap notes updates', () => {
  it('keeps every memory when 20 captures run at once as separate processes', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => memAsync(repo, box.env, ['capture', 'progress', `Parallel capture ${i}`])));
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const ids = results.map((r) => r.stdout.trim());
    expect(new Set(ids).size).toBe(20);
    const listed = JSON.parse(memOk(repo, box.env, ['list', '--json'])) as Array<{ id: string; summary: string }>;
    expect(listed.map((m) => m.id).sort()).toEqual([...ids].sort());
    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/progress', 'show', 'HEAD']);
    for (let i = 0; i < 20; i++) expect(note).toContain(`summary: Parallel capture ${i}\n`);
    // One notes commit per capture, in a linear history.
    expect(git(repo, box.env, ['rev-list', '--count', 'refs/notes/mem/progress']).trim()).toBe('20');
    expect(git(repo, box.env, ['rev-list', '--merges', 'refs/notes/mem/progress']).trim()).toBe('');
  });
});

/**
 * The caches kept as sorted tables (anchors.tab, commit-files.tab): damage to a row, as a disk
 * or a hand edit leaves it, costs the row, never the command (a damaged JSON cache read as nothing).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureDecision, git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

/** Replaces, in place and at the same length, the first byte after the header's line's first row's tab. */
function damageFirstRow(file: string): void {
  const b = fs.readFileSync(file);
  const tab = b.indexOf(0x09, b.indexOf(0x0a) + 1);
  expect(tab).toBeGreaterThan(0);
  b[tab + 1] = 'x'.charCodeAt(0);
  fs.writeFileSync(file, b);
}

describe('sorted-table caches', () => {
  it('a damaged row of anchors.tab: list, show and recall still answer, and the row is placed again', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    memOk(dir, box.env, ['init', '--no-git-hooks']);
    captureDecision(dir, box.env, 'Use sql.js for the index');
    // The amend copies the note: a memory with two copies has an anchor, cached.
    git(dir, box.env, ['commit', '-q', '--amend', '-m', 'amended']);
    const head = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    const before = JSON.parse(memOk(dir, box.env, ['list', '--json']));
    expect(before[0].commit).toBe(head);
    const file = path.join(dir, '.git', 'mem', 'anchors.tab');
    expect(fs.existsSync(file)).toBe(true);
    damageFirstRow(file);
    const r = mem(dir, box.env, ['list', '--json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)[0].commit).toBe(head);
    expect(JSON.parse(memOk(dir, box.env, ['recall', 'sql.js index', '--mode', 'lexical', '--json']))[0]?.commit).toBe(head);
    // Written again whole: no row is left damaged.
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1).filter(Boolean)) expect(() => JSON.parse(line.split('\t')[1]!)).not.toThrow();
  });
});

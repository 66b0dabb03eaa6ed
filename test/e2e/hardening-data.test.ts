/**
 * Hardening: no memory lost, no secret leaked, on inputs users and teammates
 * really send (binary notes in a merge, killed imports, fields git-mem does
 * not know, secrets in every field and at the summary's cut).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, makeClones, makeRepo, mem, memOk, sandbox } from './helpers.ts';

interface Listed {
  key: string;
  summary: string;
  body: string;
  spec: string | null;
  phase: string | null;
  relates_to: string[];
  author: string | null;
  source: string | null;
  tags: string[];
}

function list(cwd: string, env: NodeJS.ProcessEnv): Listed[] {
  return JSON.parse(memOk(cwd, env, ['list', '--json'])) as Listed[];
}

describe('a merge with a binary note on the same commit', () => {
  it('keeps every memory from both sides and carries the binary bytes along, whoever merges first', () => {
    for (const first of ['a', 'b'] as const) {
      const box = sandbox();
      const { clones } = makeClones(box, ['a', 'b']);
      const [a, b] = clones as [string, string];
      const bytes = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe, 0x00, 0x0a]);
      const file = path.join(box.root, 'blob.bin');
      fs.writeFileSync(file, bytes);
      git(a, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-F', file, 'HEAD']);
      memOk(b, box.env, ['capture', 'decisions', "B's decision"]);
      memOk(b, box.env, ['push']);
      const order = first === 'a' ? [a, b, a] : [b, a, b];
      if (first === 'b') memOk(a, box.env, ['push']);
      for (const c of order) memOk(c, box.env, ['sync']);
      for (const c of [a, b]) {
        expect(list(c, box.env).map((m) => m.summary), c).toContain("B's decision");
        const note = git(c, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
        const carried = /binary-note: base64\n---\n\n([A-Za-z0-9+/=\n]+)/.exec(note);
        expect(carried, c).not.toBeNull();
        expect(Buffer.from(carried![1]!.replace(/\n/g, ''), 'base64').equals(bytes)).toBe(true);
      }
      expect(git(a, box.env, ['rev-parse', 'refs/notes/mem/decisions^{tree}'])).toBe(git(b, box.env, ['rev-parse', 'refs/notes/mem/decisions^{tree}']));
    }
  });
});

describe('edit and resolve keep what they do not change', () => {
  it('round-trips unknown front-matter fields and an unreadable timestamp untouched', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const note = '---\nid: 0123456789abcdef\ntype: decisions\ntimestamp: sometime last week\nsummary: Hand-written memory\npriority: high\ncustom_note: keep me\nreview:\n  by: ada\n  done: false\n---\n\nBody.\n';
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', note, 'HEAD']);
    memOk(dir, box.env, ['edit', '0123', '--summary', 'Hand-written memory, edited']);
    memOk(dir, box.env, ['resolve', '0123']);
    const after = git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']);
    expect(after).toContain('priority: high');
    expect(after).toContain('custom_note: keep me');
    expect(after).toMatch(/review:\n {2}by: ada\n {2}done: false/);
    expect(after).toContain('timestamp: sometime last week');
    expect(after).toContain('summary: Hand-written memory, edited');
    expect(after).toContain('status: resolved');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeClones, mem, memOk, sandbox } from './helpers.ts';

describe('export and import', () => {
  it('round-trips losslessly into another clone, one notes commit per namespace', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    const env = { ...box.env, GIT_MEM_NOW: '2026-03-04T05:06:07.089Z' };
    memOk(a!, env, ['capture', 'decisions', 'Keep ids stable: across "export", import', '-m', 'Body\nwith lines.', '--tags', 'x,y', '--spec', 's1', '--phase', 'p1', '--status', 'resolved']);
    memOk(a!, env, ['capture', 'learnings', 'Second', '--relates-to', 'decisions:abc1234:0123456789']);
    memOk(a!, env, ['edit', memOk(a!, env, ['capture', 'patterns', 'Third']), '--summary', 'Third, edited']);
    const exported = memOk(a!, box.env, ['export']);
    expect(exported.split('\n')).toHaveLength(3);
    const file = path.join(box.root, 'mem.jsonl');
    fs.writeFileSync(file, exported + '\n');
    expect(memOk(b!, box.env, ['import', file])).toBe('imported 3 memories');
    const strip = (s: string) => JSON.parse(s).sort((x: { key: string }, y: { key: string }) => (x.key < y.key ? -1 : 1));
    expect(strip(memOk(b!, box.env, ['list', '--json']))).toEqual(strip(memOk(a!, box.env, ['list', '--json'])));
    for (const ns of ['decisions', 'learnings', 'patterns']) expect(git(b!, box.env, ['rev-list', '--count', `refs/notes/mem/${ns}`]).trim()).toBe('1');
    // Importing again changes nothing.
    expect(memOk(b!, box.env, ['import', file])).toBe('imported 0 memories, 3 already present');
    expect(memOk(a!, box.env, ['export', '--format', 'md'])).toContain('summary: "Keep ids stable: across \\"export\\", import"');
  });

  it('gives a line without a key a new id, and rejects a bad file whole, naming the line', () => {
    const box = sandbox();
    const { clones: [a] } = makeClones(box, ['a']);
    const out = memOk(a!, box.env, ['import', '-'], '{"namespace":"research","summary":"From another tool","body":"token ghp_' + 'aB3dE5gH7j'.repeat(4) + '"}\n');
    expect(out).toBe('imported 1 memory');
    const [m] = JSON.parse(memOk(a!, box.env, ['list', '--json']));
    expect(m.key).toMatch(/^[0-9a-f]{16}$/);
    expect(m.body).toContain('[REDACTED:github_token]');
    const before = git(a!, box.env, ['for-each-ref', 'refs/notes/']);
    for (const [text, why] of [
      ['{"namespace":"research","summary":"ok"}\nnot json\n', /^git-mem: line 2: not valid JSON; nothing was imported$/],
      ['{"namespace":"research","summary":"ok"}\n\n{"namespace":"research","summary":""}\n', /^git-mem: line 3: summary is empty/],
      ['{"namespace":"research","summary":"ok","commit":"0123456789abcdef0123456789abcdef01234567"}\n', /^git-mem: line 1: no such commit/],
      ['{"namespace":"research","summary":"ok","key":"zz"}\n', /^git-mem: line 1: key 'zz' is not/],
    ] as const) {
      const r = mem(a!, box.env, ['import', '-'], { input: text });
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toMatch(why);
    }
    expect(git(a!, box.env, ['for-each-ref', 'refs/notes/'])).toBe(before);
  });
});

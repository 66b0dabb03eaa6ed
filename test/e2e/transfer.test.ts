import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeClones, mem, memOk, sandbox } from './helpers.ts';

describe('export and import', () => {
  it('round-trips losslessly into another clone, one notes commit per namespace', () => {
    const box = sandbox();
    const { clones: [a, b] } = makeClones(box, ['a', 'b']);
    const env = { ...box.env, GIT_MEM_NOW: '2026-03-04T05:06:07.089Z' };
    const first = memOk(a!, env, ['capture', 'decisions', 'Keep ids stable: across "export", import', '-m', 'Body\nwith lines.', '--tags', 'x,y', '--spec', 's1', '--phase', 'p1', '--status', 'resolved']);
    memOk(a!, env, ['capture', 'learnings', 'Second', '--relates-to', first]);
    memOk(a!, env, ['edit', memOk(a!, env, ['capture', 'patterns', 'Third']), '--summary', 'Third, edited']);
    const exported = memOk(a!, box.env, ['export']);
    expect(exported.split('\n')).toHaveLength(3);
    const file = path.join(box.root, 'mem.jsonl');
    fs.writeFileSync(file, exported + '\n');
    expect(memOk(b!, box.env, ['import', file])).toBe('imported 3 memories');
    // Everything but provenance, which names each clone's own notes commit.
    const strip = (s: string) =>
      JSON.parse(s)
        .map(({ provenance: _, ...m }: { provenance: unknown; key: string }) => m)
        .sort((x: { key: string }, y: { key: string }) => (x.key < y.key ? -1 : 1));
    expect(strip(memOk(b!, box.env, ['list', '--json']))).toEqual(strip(memOk(a!, box.env, ['list', '--json'])));
    for (const ns of ['decisions', 'learnings', 'patterns']) expect(git(b!, box.env, ['rev-list', '--count', `refs/notes/mem/${ns}`]).trim()).toBe('1');
    // Importing again changes nothing.
    expect(memOk(b!, box.env, ['import', file])).toBe('imported 0 memories, 3 already present');
    expect(memOk(a!, box.env, ['export', '--format', 'md'])).toContain('summary: "Keep ids stable: across \\"export\\", import"');
  });

  it('leaves a key the notes already hold as it is: on another commit since, or forgotten', () => {
    const box = sandbox();
    const { clones: [a] } = makeClones(box, ['a']);
    // No commit named: each import puts its lines on HEAD, which moves in between.
    const file = ['{"namespace":"decisions","summary":"Imported once","key":"00000000000000ab"}', '{"namespace":"decisions","summary":"Forgotten here","key":"00000000000000cd"}', ''].join('\n');
    expect(memOk(a!, box.env, ['import', '-'], file)).toBe('imported 2 memories');
    memOk(a!, box.env, ['forget', '00000000000000cd']);
    git(a!, box.env, ['commit', '-q', '--allow-empty', '-m', 'HEAD moves on']);
    const before = git(a!, box.env, ['for-each-ref', 'refs/notes/']);
    expect(memOk(a!, box.env, ['import', '-'], file)).toBe('imported 0 memories, 2 already present');
    expect(git(a!, box.env, ['for-each-ref', 'refs/notes/'])).toBe(before);
    expect(JSON.parse(memOk(a!, box.env, ['list', '--json'])).map((m: { summary: string }) => m.summary)).toEqual(['Imported once']);
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

describe('import on a terminal', () => {
  it('draws its progress on stderr, erased before the result line', () => {
    const box = sandbox();
    const { clones: [a] } = makeClones(box, ['a']);
    if (spawnSync('script', ['-qec', 'true', '/dev/null'], { encoding: 'utf8' }).status !== 0) return; // no script(1) here
    const file = path.join(box.root, 'three.jsonl');
    fs.writeFileSync(file, ['One', 'Two', 'Three'].map((summary) => JSON.stringify({ namespace: 'learnings', summary })).join('\n') + '\n');
    // Under script(1) stdout and stderr are one terminal, read here as stdout.
    const r = spawnSync('script', ['-qec', `git mem import ${file}`, '/dev/null'], { cwd: a, env: box.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/\rimport \[#{30}\] 100% 3\/3 memories\r\x1b\[K(?:\r?\n)?imported 3 memories/);
  });
});

describe('import writes every namespace or none', () => {
  it('a binary note in the second namespace fails the import before the first namespace is written', () => {
    const box = sandbox();
    const { clones: [a] } = makeClones(box, ['a']);
    // Another tool's binary note where the learning must go: git-mem never rewrites one.
    const blob = git(a!, box.env, ['hash-object', '-w', '--stdin'], 'bin\u0000ary\n').trim();
    git(a!, box.env, ['notes', '--ref=refs/notes/mem/learnings', 'add', '-C', blob, 'HEAD']);
    const before = git(a!, box.env, ['for-each-ref', 'refs/notes/']);
    const file = path.join(box.root, 'two.jsonl');
    fs.writeFileSync(file, '{"namespace":"decisions","summary":"Written first, if namespaces were written one by one"}\n{"namespace":"learnings","summary":"Bound for the binary note"}\n');
    const r = mem(a!, box.env, ['import', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('binary content');
    expect(git(a!, box.env, ['for-each-ref', 'refs/notes/'])).toBe(before);
    expect(git(a!, box.env, ['for-each-ref', 'refs/notes/mem/decisions'])).toBe('');
  });
});

describe('order of imported memories (issue 31)', () => {
  it('keeps the file order of lines without a time: listed newest (last line) first, exported in the file order', () => {
    const box = sandbox();
    const { clones: [a] } = makeClones(box, ['a']);
    const env = { ...box.env, GIT_MEM_NOW: '2026-03-04T05:06:07Z' };
    // Summaries whose keys (from their content) fall in no particular order.
    const summaries = Array.from({ length: 30 }, (_, i) => `Untimed line ${i} about ${['zeta', 'alpha', 'mu', 'beta'][i % 4]}`);
    const file = summaries.map((summary) => JSON.stringify({ namespace: 'decisions', summary })).join('\n') + '\n';
    expect(memOk(a!, env, ['import', '-'], file)).toBe('imported 30 memories');
    const listed = JSON.parse(memOk(a!, env, ['list', '--json']));
    expect(listed.map((m: { summary: string }) => m.summary)).toEqual([...summaries].reverse());
    // The last line has the import's time; each earlier line a millisecond before the next.
    expect(listed[0].created).toBe('2026-03-04T05:06:07Z');
    expect(listed[29].created).toBe('2026-03-04T05:06:06.971Z');
    expect(JSON.parse(memOk(a!, env, ['list', '--limit', '5', '--json'])).map((m: { summary: string }) => m.summary)).toEqual(summaries.slice(25).reverse());
    const exported = memOk(a!, env, ['export']).split('\n').map((l) => JSON.parse(l).summary);
    expect(exported).toEqual(summaries);
    // The same file again adds nothing: a line's key does not depend on the time it was given.
    expect(memOk(a!, { ...box.env, GIT_MEM_NOW: '2026-05-01T00:00:00Z' }, ['import', '-'], file)).toBe('imported 0 memories, 30 already present');
  });

  it('lists memories sharing a creation time by key, with or without --limit, whatever their keys first digits', () => {
    const box = sandbox();
    const { clones: [a] } = makeClones(box, ['a']);
    const created = '2026-01-01T00:00:00Z';
    // Keys that differ in their first 8 digits, and keys that share them and differ after.
    const keys = ['ffffffff00000001', '0000000000000002', '7fffffff00000000', 'aaaaaaaa00000003', 'aaaaaaaa00000001', 'aaaaaaaa0000000f', '12345678', '1234567800000000', '8000000000000000', '00000000ffffffff'];
    for (let i = 0; i < 70; i++) keys.push(((i * 2654435761) >>> 0).toString(16).padStart(8, '0') + i.toString(16).padStart(8, '0'));
    const lines = keys.map((key, i) => JSON.stringify({ namespace: 'decisions', summary: `Tied ${i}`, key, created }));
    // One newer memory: it comes first whatever its key.
    lines.push(JSON.stringify({ namespace: 'decisions', summary: 'Newer', key: 'ffffffffffffffff', created: '2026-01-01T00:00:01Z' }));
    expect(memOk(a!, box.env, ['import', '-'], lines.join('\n') + '\n')).toBe(`imported ${keys.length + 1} memories`);
    const byKey = ['ffffffffffffffff', ...[...keys].sort()];
    const listedKeys = (args: string[]) => JSON.parse(memOk(a!, box.env, ['list', ...args, '--json'])).map((m: { key: string }) => m.key);
    expect(listedKeys([])).toEqual(byKey);
    for (const limit of [1, 2, 5, 20, 70]) expect(listedKeys(['--limit', String(limit)])).toEqual(byKey.slice(0, limit));
    expect(listedKeys(['--namespace', 'decisions', '--status', 'active', '--limit', '7'])).toEqual(byKey.slice(0, 7));
  });
});

describe("Claude Code's memory", () => {
  const CLAUDE_MD = [
    '# Project guide',
    '',
    '## Build',
    '- We decided to use pnpm instead of npm because the workspace needs strict hoisting.',
    '- Run it.',
    '',
    '## Conventions',
    '- Always run the linter before committing; CI rejects unformatted code.',
    '',
    '## Gotchas',
    '- The fixtures database must be reset between suites, otherwise ids collide.',
    '- The CI token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB is in the vault.',
    '',
  ].join('\n');

  it('imports CLAUDE.md and the auto memory with --from claude: dry run first, namespaces guessed, secrets redacted, never twice', () => {
    const box = sandbox();
    const { clones: [repo] } = makeClones(box, ['a']);
    fs.writeFileSync(path.join(repo!, 'CLAUDE.md'), CLAUDE_MD);
    const project = fs.realpathSync(repo!).replace(/[^A-Za-z0-9]/g, '-');
    const auto = path.join(box.env.HOME!, '.claude', 'projects', project, 'memory');
    fs.mkdirSync(auto, { recursive: true });
    fs.writeFileSync(path.join(auto, 'MEMORY.md'), '- Blocked by the vendor sandbox being down until Friday.\n');
    memOk(repo!, box.env, ['capture', 'patterns', 'Always run the linter before committing; CI rejects unformatted code.']);
    const refs = () => git(repo!, box.env, ['for-each-ref', 'refs/notes/']);
    const before = refs();

    const dry = JSON.parse(memOk(repo!, box.env, ['import', '--from', 'claude', '--dry-run', '--json']));
    expect(refs()).toBe(before);
    expect(dry.files).toHaveLength(2);
    expect(dry.duplicates).toBe(1); // the linter rule is already a memory
    const proposed = Object.fromEntries(dry.memories.map((m: { summary: string; namespace: string }) => [m.summary, m.namespace]));
    expect(proposed).toEqual({
      'We decided to use pnpm instead of npm because the workspace needs strict hoisting.': 'decisions',
      'The fixtures database must be reset between suites, otherwise ids collide.': 'learnings',
      'The CI token [REDACTED:github_token] is in the vault.': 'learnings',
      'Blocked by the vendor sandbox being down until Friday.': 'blockers',
    });
    expect(memOk(repo!, box.env, ['import', '--from', 'claude'])).toContain('imported 4 memories from 2 files; 1 already here');
    expect(git(repo!, box.env, ['log', '-p', 'refs/notes/mem/learnings'])).not.toContain('ghp_1234567890');
    expect(memOk(repo!, box.env, ['import', '--from', 'claude'])).toBe('imported 0 memories from 2 files; 5 already here');
    const bad = mem(repo!, box.env, ['import', 'x.jsonl', '--from', 'claude']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe('git-mem: give a file or --from claude, not both');
  });

  it('exports the active decisions, patterns and blockers as a CLAUDE.md section', () => {
    const box = sandbox();
    const { clones: [repo] } = makeClones(box, ['a']);
    const decision = memOk(repo!, box.env, ['capture', 'decisions', 'Use pnpm workspaces', '-m', 'Strict hoisting catches undeclared deps.\nMore detail.']);
    memOk(repo!, box.env, ['capture', 'blockers', 'Vendor sandbox down until Friday']);
    memOk(repo!, box.env, ['resolve', memOk(repo!, box.env, ['capture', 'blockers', 'Old blocker, resolved'])]);
    memOk(repo!, box.env, ['capture', 'learnings', 'A learning is not for CLAUDE.md']);
    const md = memOk(repo!, box.env, ['export', '--format', 'claude-md']);
    expect(md).toContain('## Project memory (git-mem)');
    expect(md).toContain(`### Decisions\n\n- Use pnpm workspaces: Strict hoisting catches undeclared deps. (\`${decision}\`)`);
    expect(md).toContain('### Active blockers\n\n- Vendor sandbox down until Friday (`');
    expect(md).not.toContain('Old blocker');
    expect(md).not.toContain('A learning');
    expect(md).not.toContain('### Patterns');
  });
});

/** git mem blame and git mem log: memories found through the code, against real repositories. */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

function commit(dir: string, env: NodeJS.ProcessEnv, file: string, text: string, message: string): string {
  fs.writeFileSync(path.join(dir, file), text);
  git(dir, env, ['add', file]);
  git(dir, env, ['commit', '-qm', message]);
  return git(dir, env, ['rev-parse', 'HEAD']).trim();
}

describe('git mem blame', () => {
  it('names the memories behind lines, with the lines each explains; a line whose commit has none gives none', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    const first = commit(dir, box.env, 'store.ts', 'one\ntwo\nthree\n', 'Add the store');
    memOk(dir, box.env, ['capture', 'decisions', 'The store keeps three lines']);
    commit(dir, box.env, 'store.ts', 'one\nTWO\nthree\nfour\n', 'Shout line two');
    const shout = memOk(dir, box.env, ['capture', 'learnings', 'Line two is shouted on purpose']).split('\n').pop()!;
    commit(dir, box.env, 'store.ts', 'one\nTWO\nthree\nfour\nfive\n', 'Add line five');

    const all = JSON.parse(memOk(dir, box.env, ['blame', 'store.ts', '--json']));
    expect(all.commits).toBe(3);
    // Both were captured within the same second: newest first cannot tell them apart.
    const bySummary = [...all.memories].sort((a: { summary: string }, b: { summary: string }) => a.summary.localeCompare(b.summary));
    expect(bySummary.map((m: { summary: string; lines: number[][] }) => [m.summary, m.lines])).toEqual([
      ['Line two is shouted on purpose', [[2, 2], [4, 4]]],
      ['The store keeps three lines', [[1, 1], [3, 3]]],
    ]);
    expect(bySummary[1].blame_commits).toEqual([first]);

    const two = memOk(dir, box.env, ['blame', 'store.ts:2']);
    expect(two).toContain(shout);
    expect(two).toMatch(/ line 2$/m); // one line: not "lines 2"
    expect(two).not.toContain('three lines');
    // Line 5's commit has no memory.
    expect(JSON.parse(memOk(dir, box.env, ['blame', 'store.ts:5,5', '--json'])).memories).toEqual([]);
    const bad = mem(dir, box.env, ['blame', 'missing.ts']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^git-mem: cannot blame missing.ts/);
  });
});

describe('git mem log', () => {
  it("digests a branch's memories in commit order, as text, markdown and JSON", () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    memOk(dir, box.env, ['capture', 'decisions', 'On main, not on the branch']);
    git(dir, box.env, ['checkout', '-qb', 'feature']);
    commit(dir, box.env, 'a.txt', 'a\n', 'Add a');
    memOk(dir, box.env, ['capture', 'decisions', 'Why a', '-m', 'Because a is first.\nAnd simple.']);
    commit(dir, box.env, 'b.txt', 'b\n', 'Add b, with no memory');
    commit(dir, box.env, 'c.txt', 'c\n', 'Add c');
    memOk(dir, box.env, ['capture', 'learnings', 'c taught us something']);

    const text = memOk(dir, box.env, ['log']);
    expect(text).toMatch(/^main\.\.HEAD: 3 commits, 2 memories/);
    expect(text.indexOf('Why a')).toBeLessThan(text.indexOf('c taught us'));
    expect(text).not.toContain('On main');

    const md = memOk(dir, box.env, ['log', '--format', 'md']);
    expect(md).toContain('### Memories in main..HEAD');
    expect(md).toMatch(/#### `[0-9a-f]{7}` Add a\n\n- \*\*decisions\*\*: Why a\n {2}> Because a is first\.\n {2}> And simple\./);
    expect(md).not.toContain('Add b');

    const json = JSON.parse(memOk(dir, box.env, ['log', 'main~0..feature', '--json']));
    expect(json.commits.map((c: { subject: string; memories: unknown[] }) => [c.subject, c.memories.length])).toEqual([
      ['Add a', 1],
      ['Add b, with no memory', 0],
      ['Add c', 1],
    ]);
    const bad = mem(dir, box.env, ['log', 'nope..HEAD']);
    expect(bad.code).toBe(2);
    git(dir, box.env, ['checkout', '-q', 'main']);
    expect(mem(dir, box.env, ['log']).stderr).toMatch(/name a range/);
  });
});

describe('staleness', () => {
  interface Listed {
    summary: string;
    stale: { commits: number; lines: number; deleted: string[] } | null;
  }
  const stale = (dir: string, env: NodeJS.ProcessEnv) => (JSON.parse(memOk(dir, env, ['list', '--json'])) as Listed[]).map((m) => [m.summary, m.stale]);

  it('flags a memory once its files change after its commit, not when other files do, and says when they are deleted', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    commit(dir, box.env, 'parser.ts', 'a\nb\n', 'Add the parser');
    memOk(dir, box.env, ['capture', 'decisions', 'The parser is hand-written']);
    commit(dir, box.env, 'other.ts', 'x\n', 'Unrelated work');
    expect(stale(dir, box.env)).toEqual([['The parser is hand-written', null]]);
    commit(dir, box.env, 'parser.ts', 'a\nB\nc\n', 'Change the parser');
    expect(stale(dir, box.env)).toEqual([['The parser is hand-written', { commits: 1, lines: 3, deleted: [] }]]);
    expect(memOk(dir, box.env, ['list'])).toContain('[stale: 1 commit, 3 lines since]');
    const recalled = JSON.parse(memOk(dir, box.env, ['recall', 'parser', '--mode', 'lexical', '--json']));
    expect(recalled[0].stale).toEqual({ commits: 1, lines: 3, deleted: [] });
    git(dir, box.env, ['rm', '-q', 'parser.ts']);
    git(dir, box.env, ['commit', '-qm', 'Remove the parser']);
    expect(stale(dir, box.env)).toEqual([['The parser is hand-written', { commits: 2, lines: 2, deleted: ['parser.ts'] }]]);
    expect(memOk(dir, box.env, ['list'])).toContain('[stale: parser.ts deleted since]');
  });

  it('tells the agent in the injected context: SessionStart and a recall on a prompt', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    commit(dir, box.env, 'retry.ts', 'a\n', 'Add the retry loop');
    memOk(dir, box.env, ['capture', 'blockers', 'The retry loop spins when the upload server is down']);
    commit(dir, box.env, 'retry.ts', 'a\nb\n', 'Back off in the retry loop');
    const hook = (event: string, extra: object) => {
      const input = JSON.stringify({ session_id: `s-${event}`, transcript_path: '/nonexistent', cwd: dir, hook_event_name: event, ...extra });
      const r = mem(dir, box.env, ['hook', event], { input });
      expect(r.code).toBe(0);
      return JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    };
    expect(hook('SessionStart', { source: 'startup' })).toMatch(/<memory [^>]*stale="1 commit, 1 line since"><summary>The retry loop spins/);
    expect(hook('UserPromptSubmit', { prompt: 'why did we have the retry loop blocker with the upload server?' })).toMatch(/stale="1 commit, 1 line since"/);
  });
});

describe('reachability', () => {
  it("ranks HEAD's history first, keeps only it with --branch, and marks memories off it", () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 1);
    git(dir, box.env, ['checkout', '-qb', 'spike']);
    commit(dir, box.env, 'spike.txt', 'spike\n', 'Spike');
    memOk(dir, box.env, ['capture', 'decisions', 'Serve the public api on port 8080']);
    git(dir, box.env, ['checkout', '-q', 'main']);
    commit(dir, box.env, 'main.txt', 'main\n', 'Main work');
    memOk(dir, box.env, ['capture', 'decisions', 'Serve the public api on port 8080']);
    const hits = JSON.parse(memOk(dir, box.env, ['recall', 'public api port', '--mode', 'lexical', '--json']));
    expect(hits.map((h: { reach: string }) => h.reach)).toEqual(['head', 'branch']);
    expect(hits[0].commit).toBe(git(dir, box.env, ['rev-parse', 'HEAD']).trim());
    const onBranch = JSON.parse(memOk(dir, box.env, ['recall', 'public api port', '--mode', 'lexical', '--branch', '--json']));
    expect(onBranch.map((h: { reach: string }) => h.reach)).toEqual(['head']);
    expect(memOk(dir, box.env, ['recall', 'public api port', '--mode', 'lexical'])).toContain('[unmerged]');
    git(dir, box.env, ['branch', '-qD', 'spike']);
    expect(memOk(dir, box.env, ['list'])).toContain('[on no branch]');
    expect(JSON.parse(memOk(dir, box.env, ['list', '--json'])).map((m: { reach: string }) => m.reach).sort()).toEqual(['head', 'unreachable']);
  });
});

describe('recall --at', () => {
  it('answers with what the notes held at a tag: before a capture, after it, and after a forget', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    let clock = 1_767_225_600; // 2026-01-01
    const at = () => {
      clock += 60;
      return { ...box.env, GIT_COMMITTER_DATE: `${clock} +0000`, GIT_AUTHOR_DATE: `${clock} +0000` };
    };
    const step = (tag: string) => {
      fs.writeFileSync(path.join(dir, `${tag}.txt`), `${tag}\n`);
      git(dir, box.env, ['add', '.']);
      git(dir, at(), ['commit', '-qm', tag]);
      git(dir, box.env, ['tag', tag]);
    };
    step('v1');
    const id = memOk(dir, at(), ['capture', 'decisions', 'Cache the parsed notes in memory']).split('\n').pop()!;
    step('v2');
    memOk(dir, at(), ['forget', id]);
    step('v3');
    const found = (rev: string) => JSON.parse(memOk(dir, box.env, ['recall', 'cache parsed notes', '--at', rev, '--json'])).map((h: { summary: string }) => h.summary);
    expect(found('v1')).toEqual([]);
    expect(found('v2')).toEqual(['Cache the parsed notes in memory']);
    expect(found('v3')).toEqual([]);
    expect(JSON.parse(memOk(dir, box.env, ['recall', 'cache parsed notes', '--mode', 'lexical', '--json']))).toEqual([]);
    expect(mem(dir, box.env, ['recall', 'x', '--at', 'not-a-rev-or-date']).code).toBe(2);
  });
});

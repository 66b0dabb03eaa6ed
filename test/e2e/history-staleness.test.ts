/**
 * Staleness along a real history (issue 38): measured where the memory lives,
 * counted exactly past the old window of 300 commits, and the same whether
 * carried over from an earlier HEAD or measured afresh. Through the binary,
 * against real repositories.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, memOk, sandbox } from './helpers.ts';

interface Listed {
  summary: string;
  stale: { commits: number; atLeast?: boolean; lines?: number; deleted: string[]; moved?: Array<{ from: string; to: string }> } | null;
}

function commitFiles(dir: string, env: NodeJS.ProcessEnv, files: Record<string, string | null>, message: string): void {
  for (const [file, text] of Object.entries(files)) {
    const p = path.join(dir, file);
    if (text === null) fs.rmSync(p);
    else {
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, text);
    }
  }
  git(dir, env, ['add', '-A']);
  git(dir, env, ['commit', '-qm', message]);
}

const listed = (dir: string, env: NodeJS.ProcessEnv) => new Map((JSON.parse(memOk(dir, env, ['list', '--json'])) as Listed[]).map((m) => [m.summary, m.stale]));

/** What a clone that never measured anything says: the cache of results thrown away. */
function measuredAfresh(dir: string, env: NodeJS.ProcessEnv): Map<string, Listed['stale']> {
  for (const f of ['staleness.json', 'anchors.tab', 'window.json', 'commit-files.tab']) fs.rmSync(path.join(dir, '.git', 'mem', f), { force: true });
  return listed(dir, env);
}

/** `count` commits on main, each changing `file` (one line appended), in one fast-import. */
function manyCommits(dir: string, env: NodeJS.ProcessEnv, file: string, count: number): void {
  const base = fs.readFileSync(path.join(dir, file), 'utf8');
  const chunks: string[] = [];
  let text = base;
  for (let i = 1; i <= count; i++) {
    text += `line ${i}\n`;
    const message = `step ${i}`;
    chunks.push(`commit refs/heads/main\ncommitter T <t@example.com> ${1_800_000_000 + i} +0000\ndata ${message.length}\n${message}\n`);
    if (i === 1) chunks.push('from refs/heads/main^0\n');
    chunks.push(`M 644 inline ${file}\ndata ${Buffer.byteLength(text)}\n${text}\n`);
  }
  git(dir, env, ['fast-import', '--quiet'], chunks.join(''));
  git(dir, env, ['reset', '-q', '--hard', 'main']);
}

describe('staleness along the history', () => {
  it('never calls a file deleted that does not exist yet where HEAD is: a memory newer than HEAD is measured on its branch', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    commitFiles(dir, box.env, { 'README.md': 'app\n' }, 'Start');
    const old = git(dir, box.env, ['rev-parse', 'HEAD']).trim();
    git(dir, box.env, ['tag', 'v1']);
    commitFiles(dir, box.env, { 'src/new.ts': 'export const x = 1;\n' }, 'Add new.ts');
    memOk(dir, box.env, ['capture', 'decisions', 'new.ts exports one constant', '--paths', 'src/new.ts']);
    git(dir, box.env, ['checkout', '-q', '--detach', old]);
    expect(listed(dir, box.env).get('new.ts exports one constant')).toBeNull();
    expect(memOk(dir, box.env, ['list'])).not.toMatch(/deleted/);
    // On a tag only (no branch holds it): nothing to measure against, so nothing said (null in JSON).
    git(dir, box.env, ['checkout', '-q', '-b', 'side', 'v1']);
    commitFiles(dir, box.env, { 'src/other.ts': 'y\n' }, 'Side work');
    memOk(dir, box.env, ['capture', 'learnings', 'other.ts is a stub', '--paths', 'src/other.ts']);
    git(dir, box.env, ['tag', 'side-tag']);
    git(dir, box.env, ['checkout', '-q', 'main']);
    git(dir, box.env, ['branch', '-D', 'side']);
    commitFiles(dir, box.env, { 'src/other.ts': 'changed on main\n' }, 'Main has its own other.ts');
    expect(listed(dir, box.env).get('other.ts is a stub')).toBeNull();
    expect(memOk(dir, box.env, ['list'])).not.toMatch(/stale/);
  });

  it('counts the commits since exactly past the old window of 300, and says "at least" only beyond 2,000', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    commitFiles(dir, box.env, { 'src/busy.ts': 'start\n' }, 'Start');
    memOk(dir, box.env, ['capture', 'patterns', 'busy.ts appends lines', '--paths', 'src/busy.ts']);
    manyCommits(dir, box.env, 'src/busy.ts', 450);
    const stale = listed(dir, box.env).get('busy.ts appends lines')!;
    expect(stale).toEqual({ commits: 450, lines: 450, deleted: [] });
    expect(memOk(dir, box.env, ['list'])).toContain('[stale: 450 commits, 450 lines since]');
  });

  it('sees a file moved long ago (before the newest 2,000 commits) as moved, not deleted', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    const util = Array.from({ length: 12 }, (_, i) => `def helper_${i}(): return ${i}`).join('\n') + '\n';
    commitFiles(dir, box.env, { 'src/util.py': util, 'src/busy.txt': 'start\n', 'src/gone.py': 'x = 1\n' }, 'Start');
    memOk(dir, box.env, ['capture', 'patterns', 'Helpers return plain values', '--paths', 'src/util.py']);
    memOk(dir, box.env, ['capture', 'patterns', 'gone.py holds x', '--paths', 'src/gone.py']);
    commitFiles(dir, box.env, { 'src/util.py': null, 'lib/util.py': util.replace('return 3', 'return 33'), 'src/gone.py': null }, 'Move util.py, drop gone.py');
    manyCommits(dir, box.env, 'src/busy.txt', 2001);
    const now = listed(dir, box.env);
    expect(now.get('Helpers return plain values')).toMatchObject({ deleted: [], moved: [{ from: 'src/util.py', to: 'lib/util.py' }], atLeast: true });
    expect(now.get('gone.py holds x')).toMatchObject({ deleted: ['src/gone.py'] });
  });

  it('carries results over as HEAD moves and branches switch, and they equal what is measured afresh', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    commitFiles(dir, box.env, { 'src/a.ts': 'a1\na2\na3\n', 'src/b.ts': 'b1\n', 'src/c.ts': 'c1\n' }, 'Start');
    memOk(dir, box.env, ['capture', 'decisions', 'a.ts holds three lines', '--paths', 'src/a.ts']);
    memOk(dir, box.env, ['capture', 'decisions', 'b.ts and c.ts go together', '--paths', 'src/b.ts,src/c.ts']);
    memOk(dir, box.env, ['capture', 'learnings', 'a.ts line two is the key', '--paths', 'src/a.ts:2']);
    memOk(dir, box.env, ['capture', 'patterns', 'c.ts is small', '--paths', 'src/c.ts']);
    const steps: Array<Record<string, string | null>> = [
      { 'src/a.ts': 'a1\na2\na3\na4\n' },
      { 'src/other.ts': 'o\n' },
      { 'src/b.ts': 'b1\nb2\n' },
      { 'src/a.ts': 'a1\nA2\na3\na4\n' },
      { 'src/c.ts': null, 'src/d.ts': 'c1\n' },
      { 'src/a.ts': 'a1\na2\na3\n' },
    ];
    let i = 0;
    for (const files of steps) {
      commitFiles(dir, box.env, files, `Step ${++i}`);
      const carried = listed(dir, box.env);
      expect(measuredAfresh(dir, box.env), `after step ${i}`).toEqual(carried);
    }
    // The rename of c.ts is seen as a move, and changing a.ts back makes it fresh again (its line count is 0).
    const now = listed(dir, box.env);
    expect(now.get('c.ts is small')).toMatchObject({ deleted: [], moved: [{ from: 'src/c.ts', to: 'src/d.ts' }] });
    expect(now.get('a.ts holds three lines')).toBeNull();

    // A branch that changed a.ts its own way, then back to main: each place gives its own answer, carried or not.
    git(dir, box.env, ['checkout', '-q', '-b', 'topic', 'HEAD~3']);
    commitFiles(dir, box.env, { 'src/a.ts': 'x\n' }, 'Rewrite a.ts on topic');
    const onTopic = listed(dir, box.env);
    // Lines as git counts them between the memory's commit and here.
    const start = git(dir, box.env, ['rev-list', '--max-parents=0', 'HEAD']).trim();
    const [added, removed] = git(dir, box.env, ['diff', '--numstat', start, 'HEAD', '--', 'src/a.ts']).split('\t').map(Number);
    expect(onTopic.get('a.ts holds three lines')).toMatchObject({ lines: added! + removed! });
    git(dir, box.env, ['checkout', '-q', 'main']);
    expect(listed(dir, box.env)).toEqual(now);
    git(dir, box.env, ['checkout', '-q', 'topic']);
    expect(listed(dir, box.env)).toEqual(onTopic);
    expect(measuredAfresh(dir, box.env)).toEqual(onTopic);
  });

  it('an old checkout near ones seen before takes its window from the commits they listed, git diffing only the others: as measured afresh', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 0);
    commitFiles(dir, box.env, { 'src/busy.ts': 'start\n', 'src/a.ts': 'a\n' }, 'Start');
    memOk(dir, box.env, ['capture', 'patterns', 'busy.ts appends lines', '--paths', 'src/busy.ts']);
    memOk(dir, box.env, ['capture', 'decisions', 'a.ts is one line', '--paths', 'src/a.ts']);
    manyCommits(dir, box.env, 'src/busy.ts', 150);
    git(dir, box.env, ['tag', 'late', 'HEAD~10']);
    git(dir, box.env, ['tag', 'early', 'HEAD~50']);
    // A side branch forked before `early`, committed between the two tags: its own commits were never listed.
    git(dir, box.env, ['checkout', '-q', '-b', 'side', 'HEAD~70']);
    const at = (t: number) => ({ ...box.env, GIT_COMMITTER_DATE: `${1_800_000_000 + t} +0000`, GIT_AUTHOR_DATE: `${1_800_000_000 + t} +0000` });
    commitFiles(dir, at(90), { 'src/a.ts': 'a\nb\n' }, 'Side: a.ts grows');
    commitFiles(dir, at(91), { 'src/busy.ts': 'start\nside\n' }, 'Side: busy.ts changes');
    // Seen at `late` first: `early` and `side` lie within its window's time, so their windows are put together from it.
    for (const place of ['early', 'side']) {
      git(dir, box.env, ['checkout', '-q', '--detach', 'late']);
      listed(dir, box.env);
      git(dir, box.env, ['checkout', '-q', '--detach', place]);
      const fromKept = listed(dir, box.env);
      expect(measuredAfresh(dir, box.env), `at ${place}`).toEqual(fromKept);
    }
    git(dir, box.env, ['checkout', '-q', '--detach', 'side']);
    expect(listed(dir, box.env).get('a.ts is one line')).toMatchObject({ commits: 1, lines: 1 });
  });
});

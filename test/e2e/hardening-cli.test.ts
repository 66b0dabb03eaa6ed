/**
 * The command line on hostile or careless input: escape sequences in memory
 * text, a remote named like an option, locks and temp files left by killed
 * processes, a closed pipe, a cache file replaced by a directory, values that
 * start with a dash, a missing model; and a crash loop of kill -9.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, git, makeClones, makeRepo, mem, memOk, sandbox, timeBound } from './helpers.ts';

const ESC = '\u001b';

describe('terminal escapes in memory text', () => {
  it('are shown, not sent, by list, show and recall; --json keeps them exact; hook context drops them', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const summary = `Title ${ESC}]0;pwned\u0007 and ${ESC}[2J cleared\rspoof`;
    const note = `---\nid: 00000000000000aa\ntype: decisions\ntimestamp: 2026-01-01T00:00:00Z\nsummary: ${JSON.stringify(summary)}\n---\n\nbody ${ESC}[31mred\n`;
    git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-m', note, 'HEAD']);
    for (const args of [['list'], ['show', '00000000'], ['recall', 'title', '--mode', 'lexical'], ['recall', 'title', '--mode', 'lexical', '--level', 'full'], ['hydrate', '00000000']]) {
      const out = memOk(dir, box.env, args);
      expect(out, args.join(' ')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(out, args.join(' ')).toContain('^[]0;pwned^G');
    }
    expect(JSON.parse(memOk(dir, box.env, ['show', '00000000', '--json'])).summary).toBe(summary);
    const r = mem(dir, box.env, ['hook', 'SessionStart'], { input: JSON.stringify({ session_id: 's', cwd: dir, hook_event_name: 'SessionStart', source: 'startup', transcript_path: '' }) });
    const context = JSON.parse(r.stdout).hookSpecificOutput.additionalContext as string;
    expect(context).toContain('Title ]0;pwned and [2J clearedspoof');
    expect(context).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
  });

  it('are shown, not sent, by log, import --from claude, related and consolidate; log markdown stays exact in a pipe', () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_RECALL_MODE: 'lexical' };
    const dir = makeRepo(box, 'repo', 0);
    git(dir, env, ['commit', '-q', '--allow-empty', '-m', `Subject ${ESC}[2J cleared`]);
    // Three memories close enough in words to be linked and consolidated, each with a sequence of its own.
    for (const summary of [`Retry storage uploads with exponential backoff on 503 ${ESC}]0;one\u0007`, `Storage uploads need exponential backoff retries ${ESC}]0;two\u0007`, `Exponential backoff for storage uploads avoids 503 errors ${ESC}]0;three\u0007`]) {
      memOk(dir, env, ['capture', 'learnings', summary, '-m', `Because the API throttles ${ESC}[5m bursts`]);
    }
    const shown = (args: string[], expected: RegExp) => {
      const out = memOk(dir, env, args);
      expect(out, args.join(' ')).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      expect(out, args.join(' ')).toMatch(expected);
    };
    shown(['log', 'HEAD'], /Subject \^\[\[2J cleared[\s\S]*\^\[\]0;one\^G/);
    // Markdown is a document: exact in a pipe (test/e2e/hardening-terminal.test.ts shows it on a terminal).
    expect(memOk(dir, env, ['log', 'HEAD', '--format', 'md'])).toContain(`> Because the API throttles ${ESC}[5m bursts`);
    const id = (JSON.parse(memOk(dir, env, ['list', '--json'])) as Array<{ id: string; summary: string }>).find((m) => m.summary.includes(']0;one'))!.id;
    // related prints the other two, the ones linked to it.
    shown(['related', id], /\^\[\]0;two\^G[\s\S]*\^\[\]0;three\^G|\^\[\]0;three\^G[\s\S]*\^\[\]0;two\^G/);
    // The heading names the consolidated memory by its summary (its hub's), whichever of the three that is.
    shown(['consolidate', '--dry-run'], /^would consolidate 3 memories into \S+ {2}.*\^\[\]0;(one|two|three)\^G$/m);
    fs.writeFileSync(path.join(dir, 'CLAUDE.md'), `# Gotchas\n- The fixtures database must be reset between suites ${ESC}[8m hidden\n`);
    shown(['import', '--from', 'claude', '--dry-run'], /^would import .*\^\[\[8m hidden$/m);
    shown(['import', '--from', 'claude'], /^imported .*\^\[\[8m hidden/m);
  });
});

describe('option injection', () => {
  it('a remote named like an option is never passed to git as one', () => {
    const box = sandbox();
    const { clones } = makeClones(box, ['a']);
    const dir = clones[0]!;
    const evil = path.join(box.root, 'evil.sh');
    const ran = path.join(box.root, 'ran');
    fs.writeFileSync(evil, `#!/bin/sh\ntouch ${ran}\nexec git-upload-pack "$@"\n`, { mode: 0o755 });
    git(dir, box.env, ['config', `remote.--upload-pack=${evil}.url`, path.join(box.root, 'remote.git')]);
    git(dir, box.env, ['config', 'branch.main.remote', `--upload-pack=${evil}`]);
    mem(dir, box.env, ['pull']);
    mem(dir, box.env, ['sync']);
    const named = mem(dir, box.env, ['pull', '--', `--upload-pack=${evil}`]);
    expect(named.code).toBe(2);
    expect(fs.existsSync(ran)).toBe(false);
    // The real remote still works.
    git(dir, box.env, ['config', 'branch.main.remote', 'origin']);
    expect(mem(dir, box.env, ['pull']).code).toBe(0);
  });
});

describe('what killed processes leave behind', () => {
  it('a lock whose owner is gone is taken at once', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    memOk(dir, box.env, ['capture', 'decisions', 'First']);
    memOk(dir, box.env, ['list']);
    // A process that no longer runs (its pid exited), holding every lock git-mem takes.
    const dead = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    const memDir = path.join(dir, '.git', 'mem');
    for (const name of ['index.sqlite.lock']) fs.writeFileSync(path.join(memDir, name), `${dead} ${os.hostname()}`);
    memOk(dir, box.env, ['capture', 'decisions', 'Second']);
    const started = performance.now();
    expect(memOk(dir, box.env, ['list'])).toContain('Second');
    // Below the 5 s lock wait it must not have spent, whatever the machine's load.
    expect(performance.now() - started).toBeLessThan(Math.min(timeBound(1000), 4000));
    const hook = spawnSync('git', ['mem', 'hook', 'UserPromptSubmit'], { cwd: dir, env: box.env, input: JSON.stringify({ session_id: 'x', cwd: dir, hook_event_name: 'UserPromptSubmit', prompt: 'remind me why did we pick First', transcript_path: '' }) });
    expect(hook.status).toBe(0);
  });

  it('terms.idx replaced by a directory is rebuilt, and temp files of dead writers are removed', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    memOk(dir, box.env, ['capture', 'decisions', 'Rebuilt from the notes']);
    const memDir = path.join(dir, '.git', 'mem');
    fs.rmSync(path.join(memDir, 'terms.idx'), { force: true });
    fs.mkdirSync(path.join(memDir, 'terms.idx', 'sub'), { recursive: true });
    fs.rmSync(path.join(memDir, 'index.sqlite'), { force: true });
    fs.writeFileSync(path.join(memDir, 'index.sqlite.999999.abc123.tmp'), 'left by a killed writer');
    const r = mem(dir, box.env, ['list']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('Rebuilt from the notes');
    expect(mem(dir, box.env, ['recall', 'rebuilt', '--mode', 'lexical']).stdout).toContain('Rebuilt');
    expect(fs.statSync(path.join(memDir, 'terms.idx')).isFile()).toBe(true);
    expect(fs.readdirSync(memDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});

describe('pipes, dashes and the model notice', () => {
  it('stops quietly when the reader goes away', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const lines = Array.from({ length: 400 }, (_, i) => JSON.stringify({ namespace: 'decisions', summary: `Memory ${i}` })).join('\n');
    memOk(dir, box.env, ['import', '-'], lines);
    for (const cmd of ['git mem export | head -1', 'git mem list --json | head -c 10']) {
      const r = spawnSync('bash', ['-c', `${cmd} >/dev/null; echo "\${PIPESTATUS[0]}"`], { cwd: dir, env: box.env, encoding: 'utf8' });
      expect(r.stderr, cmd).toBe('');
      expect(['0', '141'], cmd).toContain(r.stdout.trim());
    }
  });

  it('takes values that start with a dash: a -m body, and a summary after --', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    const id = memOk(dir, box.env, ['capture', 'decisions', 'Dashes', '-m', '- first point\n- second']).split('\n').pop()!;
    expect(JSON.parse(memOk(dir, box.env, ['show', id, '--json'])).body).toBe('- first point\n- second');
    memOk(dir, box.env, ['capture', 'decisions', '--tags', 'x', '--', '-1 is not a flag here']);
    expect(memOk(dir, box.env, ['list'])).toContain('-1 is not a flag here');
    expect(mem(dir, box.env, ['capture', 'decisions', 'x', '--no-such-flag']).code).toBe(2);
  });

  it('says the model is missing once per repository, and not at all with mem.recall.mode lexical', () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_MODEL_DOWNLOAD: 'false', XDG_CACHE_HOME: path.join(box.root, 'cache') };
    const dir = makeRepo(box);
    memOk(dir, env, ['capture', 'decisions', 'Recall without a model']);
    const first = mem(dir, env, ['recall', 'model']);
    expect(first.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(first.stderr).toMatch(/lexical/);
    expect(mem(dir, env, ['recall', 'model']).stderr).toBe('');
    expect(mem(dir, env, ['recall', 'model', '--mode', 'semantic']).stderr).not.toBe('');
    const other = makeRepo(box, 'other');
    memOk(other, env, ['capture', 'decisions', 'Recall without a model']);
    git(other, env, ['config', 'mem.recall.mode', 'lexical']);
    expect(mem(other, env, ['recall', 'model']).stderr).toBe('');
  });
});

describe('crash loop', () => {
  it('kill -9 at random moments of capture, import and index: git fsck clean, no lock slows the next command, index = notes', async () => {
    const box = sandbox();
    const dir = makeRepo(box);
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    const batch = path.join(box.root, 'batch.jsonl');
    fs.writeFileSync(batch, Array.from({ length: 300 }, (_, i) => JSON.stringify({ namespace: 'decisions', summary: `Imported ${i}` })).join('\n'));
    for (let round = 0; round < 50; round++) {
      const args = [['capture', 'decisions', `Round ${round} decision`], ['import', batch], ['index', '--rebuild']][round % 3]!;
      const child = spawn(BIN, args, { cwd: dir, env: box.env, stdio: 'ignore' });
      const closed = new Promise((r) => child.on('close', r));
      await new Promise((r) => setTimeout(r, random() * 60));
      child.kill('SIGKILL');
      await closed;
      if (round % 10 !== 9) continue;
      const started = performance.now();
      const listed = JSON.parse(memOk(dir, box.env, ['list', '--json'])) as unknown[];
      expect(performance.now() - started, `round ${round}`).toBeLessThan(Math.min(timeBound(1000), 4000));
      const fsck = spawnSync('git', ['fsck', '--no-progress'], { cwd: dir, env: box.env, encoding: 'utf8' });
      expect(fsck.status, fsck.stderr).toBe(0);
      const inNotes = git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'list']).trim()
        ? (git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD']).match(/^summary: /gm) ?? []).length
        : 0;
      expect(listed.length, `round ${round}`).toBe(inNotes);
    }
  });
});

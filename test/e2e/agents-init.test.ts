/**
 * Setting up the other agent clients and answering them, without the clients themselves
 * (test:agents runs the real ones): git mem init --copilot, --codex, --agents and --remove, what
 * git mem hook prints for each client, and doctor's checks.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { commitFile, git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

/** Every file under `dir` (not .git) with its content. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  (function walk(d: string) {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '.git') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
    }
  })(dir);
  return out;
}

/** A sandbox whose PATH holds no client (vitest puts node_modules/.bin, where the pinned ones are, on PATH). */
function boxed() {
  const b = sandbox();
  b.env.PATH = (b.env.PATH ?? '').split(':').filter((d) => !d.includes('node_modules')).join(':');
  return b;
}

/** A stand-in for a client's program on PATH (for --agents, which looks for them). */
function onPath(box: { root: string }, name: string): void {
  const file = path.join(box.root, 'bin', name);
  fs.writeFileSync(file, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
}

describe('git mem init for Copilot CLI and Codex CLI', () => {
  it('adds its entries beside others, changes nothing the second time, and --remove restores the files exactly', () => {
    const box = boxed();
    const repo = makeRepo(box);
    // Others' settings already there.
    fs.mkdirSync(path.join(repo, '.codex'));
    fs.writeFileSync(path.join(repo, '.codex', 'config.toml'), '# mine\n[mcp_servers.other]\ncommand = "other"\n');
    fs.writeFileSync(path.join(repo, '.mcp.json'), `${JSON.stringify({ mcpServers: { other: { command: 'other' } } }, null, 2)}\n`);
    const before = tree(repo);

    const first = JSON.parse(memOk(repo, box.env, ['init', '--copilot', '--json']));
    expect(first).toMatchObject({ agent: 'copilot', events: ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd'] });
    expect(first.files.map((f: { changed: boolean }) => f.changed)).toEqual([true, true]);
    const codex = mem(repo, box.env, ['init', '--codex', '--json']);
    expect(codex.code).toBe(0);
    // codex is not on this PATH: one line says how to trust the hooks.
    expect(codex.stderr).toMatch(/^git-mem: codex is not on PATH, so the hooks are not marked trusted: .*\/hooks\n$/);

    const hooks = JSON.parse(fs.readFileSync(path.join(repo, '.github', 'hooks', 'git-mem.json'), 'utf8'));
    expect(hooks.version).toBe(1);
    expect(hooks.hooks.UserPromptSubmit).toEqual([{ type: 'command', bash: 'git-mem hook --agent copilot UserPromptSubmit', timeoutSec: 30 }]);
    expect(JSON.parse(fs.readFileSync(path.join(repo, '.mcp.json'), 'utf8')).mcpServers).toEqual({ other: { command: 'other' }, 'git-mem': { command: 'git-mem', args: ['mcp'] } });
    const codexHooks = JSON.parse(fs.readFileSync(path.join(repo, '.codex', 'hooks.json'), 'utf8'));
    expect(Object.keys(codexHooks.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PreCompact', 'Stop']);
    expect(codexHooks.hooks.PreToolUse[0]).toEqual({ matcher: 'Bash|apply_patch', hooks: [{ type: 'command', command: 'git-mem hook --agent codex PreToolUse', timeout: 10 }] });
    expect(fs.readFileSync(path.join(repo, '.codex', 'config.toml'), 'utf8')).toMatch(/^# mine\n\[mcp_servers\.other\]\ncommand = "other"\n\n# git-mem: .*\n\[mcp_servers\.gitmem\]\ncommand = "git-mem"\nargs = \["mcp"\]\n$/);

    const installed = tree(repo);
    const again = JSON.parse(memOk(repo, box.env, ['init', '--copilot', '--json']));
    expect(again.files.map((f: { changed: boolean }) => f.changed)).toEqual([false, false]);
    memOk(repo, box.env, ['init', '--codex']);
    expect(tree(repo)).toEqual(installed);

    memOk(repo, box.env, ['init', '--copilot', '--remove']);
    memOk(repo, box.env, ['init', '--codex', '--remove']);
    expect(tree(repo)).toEqual(before);
    expect(fs.existsSync(path.join(repo, '.github'))).toBe(false);
  });

  it('--agents sets up the clients found on PATH, and --agents --remove takes out every one', () => {
    const box = boxed();
    const repo = makeRepo(box);
    onPath(box, 'copilot');
    onPath(box, 'claude');
    const out = memOk(repo, box.env, ['init', '--agents']);
    expect(out).toContain('.claude/settings.json');
    expect(out).toContain('installed Copilot CLI hooks');
    expect(out).not.toContain('Codex');
    expect(fs.existsSync(path.join(repo, '.codex'))).toBe(false);
    memOk(repo, box.env, ['init', '--agents', '--remove']);
    expect(tree(repo)).toEqual({ 'file0.txt': 'content 0\n' });
  });

  it('--agents with no client on PATH says so and exits 1', () => {
    const box = boxed();
    const repo = makeRepo(box);
    const r = mem(repo, { ...box.env, PATH: `${path.join(box.root, 'bin')}:/usr/bin:/bin` }, ['init', '--agents']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/none of claude, copilot, codex, gemini, opencode is on PATH/);
  });

  it('refuses --scope with --codex or --copilot: they read the project', () => {
    const box = boxed();
    const repo = makeRepo(box);
    const r = mem(repo, box.env, ['init', '--codex', '--scope', 'user']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--scope applies to --claude, --gemini and --opencode');
    expect(fs.existsSync(path.join(repo, '.codex'))).toBe(false);
  });
});

describe('git mem hook for each client', () => {
  const session = (extra: Record<string, unknown>) => ({ session_id: `s-${Math.random()}`, ...extra });

  it('answers Copilot with a top-level additionalContext, from its own hooks or from Claude Code\'s', () => {
    const box = boxed();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index']);
    const own = mem(repo, { ...box.env, COPILOT_CLI: '1' }, ['hook', '--agent', 'copilot', 'sessionStart'], { input: JSON.stringify({ sessionId: 'c1', cwd: repo, source: 'new' }) });
    expect(Object.keys(JSON.parse(own.stdout))).toEqual(['additionalContext']);
    expect(JSON.parse(own.stdout).additionalContext).toContain('Chose sql.js');
    // Claude Code's hook run by Copilot (COPILOT_CLI=1): Copilot's format.
    const claudeFile = mem(repo, { ...box.env, COPILOT_CLI: '1' }, ['hook', 'UserPromptSubmit'], { input: JSON.stringify(session({ cwd: repo, prompt: 'Why did we pick sql.js for the index?' })) });
    expect(Object.keys(JSON.parse(claudeFile.stdout))).toEqual(['additionalContext']);
    expect(JSON.parse(claudeFile.stdout).additionalContext).toContain('<recalled_memories>');
    // Once git-mem's own Copilot hooks are installed, that copy stays quiet: they answer.
    memOk(repo, box.env, ['init', '--copilot']);
    const quiet = mem(repo, { ...box.env, COPILOT_CLI: '1', COPILOT_PROJECT_DIR: repo }, ['hook', 'UserPromptSubmit'], { input: JSON.stringify(session({ cwd: repo, prompt: 'Why did we pick sql.js for the index?' })) });
    expect(quiet).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it("gives Codex a file's memories before apply_patch and before a shell command reads it, with known keys only", () => {
    const box = boxed();
    const repo = makeRepo(box);
    fs.mkdirSync(path.join(repo, 'src'));
    commitFile(repo, box.env, 'src/upload_retry.ts', 'export const retries = 3;\n', 'Add upload retry');
    memOk(repo, box.env, ['capture', 'learnings', 'S3 returns 503 under load; back off before retrying']);
    git(repo, box.env, ['commit', '-q', '--allow-empty', '-m', 'later']);
    const patch = '*** Begin Patch\n*** Update File: src/upload_retry.ts\n@@\n-export const retries = 3;\n+export const retries = 5;\n*** End Patch';
    const edit = mem(repo, box.env, ['hook', '--agent', 'codex', 'PreToolUse'], { input: JSON.stringify(session({ cwd: repo, tool_name: 'apply_patch', tool_input: { command: patch }, tool_use_id: 'c1' })) });
    const reply = JSON.parse(edit.stdout);
    expect(Object.keys(reply)).toEqual(['hookSpecificOutput']);
    expect(reply.hookSpecificOutput.hookEventName).toBe('PreToolUse');
    expect(reply.hookSpecificOutput.additionalContext).toContain('<related_memories file="src/upload_retry.ts" lines="1">');
    expect(reply.hookSpecificOutput.additionalContext).toContain('S3 returns 503 under load');

    const read = mem(repo, box.env, ['hook', '--agent', 'codex', 'PreToolUse'], { input: JSON.stringify(session({ cwd: repo, tool_name: 'Bash', tool_input: { command: "sed -n '1,20p' src/upload_retry.ts" }, tool_use_id: 'c2' })) });
    expect(JSON.parse(read.stdout).hookSpecificOutput.additionalContext).toContain('S3 returns 503 under load');
    // A command that reads no file of the project: nothing.
    const other = mem(repo, box.env, ['hook', '--agent', 'codex', 'PreToolUse'], { input: JSON.stringify(session({ cwd: repo, tool_name: 'Bash', tool_input: { command: 'npm test' } })) });
    expect(other).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('captures at Codex Stop from its rollout transcript, once', () => {
    const box = boxed();
    const repo = makeRepo(box);
    const rollout = path.join(box.root, 'rollout.jsonl');
    const line = (role: string, text: string) => JSON.stringify({ type: 'response_item', payload: { type: 'message', role, id: `m-${Math.random()}`, content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }] } });
    fs.writeFileSync(
      rollout,
      [
        JSON.stringify({ type: 'session_meta', payload: { id: 's' } }),
        line('user', '<environment_context>\n  <cwd>/x</cwd>\n</environment_context>'),
        line('user', 'Make the uploads robust'),
        line('assistant', 'Plan first.\n\n▶ decisions ─── Retry uploads with exponential backoff\nJitter avoids a thundering herd.\n───'),
        JSON.stringify({ type: 'response_item', payload: { type: 'function_call', name: 'exec_command', arguments: '{}' } }),
        line('assistant', 'Done.'),
        '',
      ].join('\n'),
    );
    const input = JSON.stringify({ session_id: 's', turn_id: 't1', cwd: repo, transcript_path: rollout, hook_event_name: 'Stop', last_assistant_message: 'Done.' });
    const first = mem(repo, box.env, ['hook', '--agent', 'codex', 'Stop'], { input });
    expect(Object.keys(JSON.parse(first.stdout))).toEqual(['systemMessage']);
    expect(JSON.parse(first.stdout).systemMessage).toMatch(/^git-mem: captured decisions:\w+:\w+ Retry uploads with exponential backoff$/);
    expect(mem(repo, box.env, ['hook', '--agent', 'codex', 'Stop'], { input }).stdout).toBe('');
    expect(JSON.parse(memOk(repo, box.env, ['list', '--json'])).map((m: { summary: string; source: string }) => [m.summary, m.source])).toEqual([['Retry uploads with exponential backoff', 'hook:Stop']]);
  });

  it('refuses an unknown agent with one line, exit 0', () => {
    const box = boxed();
    const repo = makeRepo(box);
    const r = mem(repo, box.env, ['hook', '--agent', 'cursor', 'SessionStart'], { input: '{}' });
    expect(r).toMatchObject({ code: 0, stdout: '' });
    expect(r.stderr).toBe("git-mem hook: unknown agent 'cursor'; expected claude, copilot, codex, gemini, opencode\n");
  });
});

describe('git mem doctor for each client', () => {
  it('checks the Copilot and Codex hooks it finds, and says what is missing', () => {
    const box = boxed();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['init', '--copilot']);
    mem(repo, box.env, ['init', '--codex']);
    const report = JSON.parse(mem(repo, box.env, ['doctor', '--json']).stdout) as { checks: Array<{ id: string; status: string; message: string }> };
    const byId = (id: string) => report.checks.find((c) => c.id === id);
    expect(byId('copilot-hooks')).toMatchObject({ status: 'ok' });
    expect(byId('codex-hooks')).toMatchObject({ status: 'ok' });
    expect(byId('codex-hooks')!.message).toContain('codex is not on PATH');

    const file = path.join(repo, '.codex', 'hooks.json');
    const hooks = JSON.parse(fs.readFileSync(file, 'utf8'));
    delete hooks.hooks.Stop;
    fs.writeFileSync(file, JSON.stringify(hooks));
    const after = JSON.parse(mem(repo, box.env, ['doctor', '--json']).stdout) as typeof report;
    expect(after.checks.find((c) => c.id === 'codex-hooks')).toMatchObject({ status: 'warn', message: expect.stringContaining('missing events: Stop') });
  });
});

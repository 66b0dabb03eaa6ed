/**
 * `git mem init --gemini` / `--opencode`, their removal, doctor, and the hooks as Gemini CLI and
 * the OpenCode plugin call them (their input, git-mem's reply), against real repositories and the
 * compiled binary. The real clients run in test/e2e/agents/ (npm run test:agents-gemini-opencode).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, makeRepo, mem, memOk, sandbox } from './helpers.ts';

function hook(cwd: string, env: NodeJS.ProcessEnv, agent: string, event: string, payload: unknown): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('git', ['mem', 'hook', '--agent', agent, event], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
    child.stdin.on('error', () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}

interface Check {
  id: string;
  status: string;
  message: string;
}
const checks = (cwd: string, env: NodeJS.ProcessEnv, id: string): Check[] => (JSON.parse(mem(cwd, env, ['doctor', '--json']).stdout) as { checks: Check[] }).checks.filter((c) => c.id === id);

describe('git mem init --gemini', () => {
  it('merges hooks and the MCP server into .gemini/settings.json, once, and --remove restores the file', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const file = path.join(repo, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    const theirs = { theme: 'dark', mcpServers: { other: { command: 'other-server' } }, hooks: { BeforeAgent: [{ hooks: [{ type: 'command', command: 'their-hook' }] }] } };
    fs.writeFileSync(file, JSON.stringify(theirs));
    expect(checks(repo, box.env, 'gemini-hooks')).toEqual([expect.objectContaining({ status: 'info' })]);

    const out = memOk(repo, box.env, ['init', '--gemini']);
    expect(out).toContain(`installed ${file}`);
    const once = fs.readFileSync(file, 'utf8');
    const settings = JSON.parse(once);
    expect(settings.theme).toBe('dark');
    expect(settings.mcpServers).toEqual({ other: { command: 'other-server' }, gitmem: { command: 'git', args: ['mem', 'mcp'] } });
    expect(Object.keys(settings.hooks)).toEqual(['BeforeAgent', 'SessionStart', 'AfterTool', 'PreCompress', 'AfterAgent', 'SessionEnd']);
    expect(settings.hooks.BeforeAgent[0].hooks[0].command).toBe('their-hook');
    expect(settings.hooks.BeforeAgent[1].hooks[0]).toEqual({ name: 'git-mem', type: 'command', command: 'git-mem hook --agent gemini BeforeAgent', timeout: 30000 });
    expect(settings.hooks.AfterTool[0].matcher).toBe('read_file|write_file|replace');
    expect(checks(repo, box.env, 'gemini-hooks')).toEqual([expect.objectContaining({ status: 'ok' })]);
    // The project's hooks run git-mem from PATH: doctor says when it is not there.
    const noPath = spawnSync(BIN, ['doctor', '--json'], { cwd: repo, env: { ...box.env, PATH: (box.env.PATH ?? '').split(':').slice(1).join(':') }, encoding: 'utf8' });
    const gemini = (JSON.parse(noPath.stdout) as { checks: Check[] }).checks.filter((c) => c.id === 'gemini-hooks');
    expect(gemini).toEqual([expect.objectContaining({ status: 'warn', message: expect.stringContaining('git-mem is not on PATH') })]);

    // Twice: nothing changes.
    expect(memOk(repo, box.env, ['init', '--gemini'])).toContain('unchanged');
    expect(fs.readFileSync(file, 'utf8')).toBe(once);

    const removed = JSON.parse(memOk(repo, box.env, ['init', '--gemini', '--remove', '--json']));
    // One client named: its result alone (as --claude prints it); several or --agents: a list.
    expect(removed).toEqual(expect.objectContaining({ client: 'gemini', removed: true, files: [expect.objectContaining({ changed: true })] }));
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual(theirs);
    expect(checks(repo, box.env, 'gemini-hooks')).toEqual([expect.objectContaining({ status: 'info' })]);
    // A file git-mem alone wrote goes with its entries.
    fs.rmSync(file);
    memOk(repo, box.env, ['init', '--gemini']);
    memOk(repo, box.env, ['init', '--gemini', '--remove']);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('leaves an MCP server named gitmem that is not git-mem, and says so; refuses --scope local', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const file = path.join(repo, '.gemini', 'settings.json');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { gitmem: { command: 'something-else' } } }));
    const r = mem(repo, box.env, ['init', '--gemini']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('already has an MCP server named gitmem');
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers.gitmem).toEqual({ command: 'something-else' });
    memOk(repo, box.env, ['init', '--gemini', '--remove']);
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual({ mcpServers: { gitmem: { command: 'something-else' } } });
    const local = mem(repo, box.env, ['init', '--gemini', '--scope', 'local']);
    expect(local.code).not.toBe(0);
    expect(local.stderr).toContain('--scope local is for Claude Code only');
  });
});

describe('git mem init --opencode', () => {
  it('writes the plugin and the MCP entry beside what opencode.json holds; --remove takes out exactly those', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const config = path.join(repo, 'opencode.json');
    const plugin = path.join(repo, '.opencode', 'plugins', 'git-mem.js');
    fs.writeFileSync(config, JSON.stringify({ model: 'x/y', mcp: { other: { type: 'local', command: ['other'] } } }));
    expect(checks(repo, box.env, 'opencode')).toEqual([expect.objectContaining({ status: 'info' })]);

    memOk(repo, box.env, ['init', '--opencode']);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toEqual({ model: 'x/y', mcp: { other: { type: 'local', command: ['other'] }, gitmem: { type: 'local', command: ['git', 'mem', 'mcp'] } } });
    const source = fs.readFileSync(plugin, 'utf8');
    expect(source).toContain("const GIT_MEM = \"git-mem\";");
    expect(source).toMatch(/export const GitMem = async/);
    expect(checks(repo, box.env, 'opencode')).toEqual([expect.objectContaining({ status: 'ok' })]);
    expect(memOk(repo, box.env, ['init', '--opencode'])).toMatch(/unchanged: .*git-mem\.js/);

    // A plugin edited by hand: doctor says so.
    fs.writeFileSync(plugin, `${source}\n// edited\n`);
    expect(checks(repo, box.env, 'opencode')).toEqual([expect.objectContaining({ status: 'warn' })]);

    memOk(repo, box.env, ['init', '--opencode', '--remove']);
    expect(fs.existsSync(plugin)).toBe(false);
    expect(fs.existsSync(path.join(repo, '.opencode'))).toBe(false);
    expect(JSON.parse(fs.readFileSync(config, 'utf8'))).toEqual({ model: 'x/y', mcp: { other: { type: 'local', command: ['other'] } } });
  });

  it('leaves a plugin of the same name that is not git-mem', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const plugin = path.join(repo, '.opencode', 'plugins', 'git-mem.js');
    fs.mkdirSync(path.dirname(plugin), { recursive: true });
    fs.writeFileSync(plugin, 'export const Mine = async () => ({});\n');
    const r = mem(repo, box.env, ['init', '--opencode']);
    expect(r.stderr).toContain('is not git-mem');
    memOk(repo, box.env, ['init', '--opencode', '--remove']);
    expect(fs.readFileSync(plugin, 'utf8')).toBe('export const Mine = async () => ({});\n');
    expect(fs.existsSync(path.join(repo, 'opencode.json'))).toBe(false);
  });
});

describe('hooks as Gemini CLI and the OpenCode plugin call them', () => {
  it('Gemini: the prompt without the context Gemini prepends, its reply format, no capture on an automatic PreCompress', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index']);
    const transcript = path.join(box.root, 'session-1.jsonl');
    const lines = [
      { sessionId: 's1', kind: 'main' },
      { id: 'u1', type: 'user', content: [{ text: '<hook_context>old context</hook_context>\n\nFix it' }] },
      { id: 'g1', type: 'gemini', content: '[decision] Keep the index out of the work tree' },
    ];
    fs.writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const common = { session_id: 's1', transcript_path: transcript, cwd: repo };

    // SessionStart's context is prepended to the first prompt as <hook_context>: it asks nothing.
    const prompt = await hook(repo, box.env, 'gemini', 'BeforeAgent', { ...common, hook_event_name: 'BeforeAgent', prompt: '<hook_context>Why did we pick sql.js? remember</hook_context>\n\nWrite a function' });
    expect(prompt.stdout).toBe('');
    const asked = await hook(repo, box.env, 'gemini', 'BeforeAgent', { ...common, hook_event_name: 'BeforeAgent', prompt: 'Why did we pick sql.js for the index?' });
    const reply = JSON.parse(asked.stdout);
    expect(Object.keys(reply)).toEqual(['hookSpecificOutput']);
    expect(reply.hookSpecificOutput.hookEventName).toBe('BeforeAgent');
    expect(reply.hookSpecificOutput.additionalContext).toContain('Chose sql.js over better-sqlite3');

    // PreCompress before every model call captures nothing; one the user asked for reads the session.
    const auto = await hook(repo, box.env, 'gemini', 'PreCompress', { ...common, hook_event_name: 'PreCompress', trigger: 'auto' });
    expect(auto).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(memOk(repo, box.env, ['list', '--json'])).not.toContain('Keep the index out of the work tree');
    await hook(repo, box.env, 'gemini', 'PreCompress', { ...common, hook_event_name: 'PreCompress', trigger: 'manual' });
    expect(memOk(repo, box.env, ['list', '--json'])).toContain('Keep the index out of the work tree');

    const bad = await hook(repo, box.env, 'gemini', 'AfterTool', { ...common, tool_name: 'read_file', tool_input: 'not an object' });
    expect(bad.code).toBe(0);
    expect(bad.stderr).toMatch(/^git-mem hook PostToolUse: 'tool_input' must be an object/);
  });

  it('Gemini: the turn read from its transcript at AfterAgent, the message written again under one id counted once', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const transcript = path.join(box.root, 'session-2.jsonl');
    const block = '▶ decisions ─── Retry uploads with exponential backoff\nJitter avoids a thundering herd.\n───';
    const lines = [
      { sessionId: 's2', kind: 'main' },
      { $set: { messages: [{ id: 'm0', type: 'user', content: [{ text: '<session_context>setup</session_context>' }] }] } },
      { id: 'u1', type: 'user', content: [{ text: 'Earlier prompt' }] },
      { id: 'g0', type: 'gemini', content: '[decision] An earlier turn, already captured or not, is not this turn' },
      { id: 'u2', type: 'user', content: [{ text: 'Make uploads robust' }] },
      { id: 'g1', type: 'gemini', content: `Plan first.\n\n${block}` },
      { id: 'g1', type: 'gemini', content: `Plan first.\n\n${block}`, toolCalls: [{ name: 'read_file' }] },
      { id: 'u3', type: 'user', content: [{ functionResponse: { name: 'read_file', response: { output: '[decision] text in a file is no one\'s words' } } }] },
      { id: 'g2', type: 'gemini', content: 'Done.' },
    ];
    fs.writeFileSync(transcript, `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`);
    const r = await hook(repo, box.env, 'gemini', 'AfterAgent', { session_id: 's2', transcript_path: transcript, cwd: repo, hook_event_name: 'AfterAgent', prompt: 'Make uploads robust', prompt_response: 'Done.' });
    expect(JSON.parse(r.stdout).systemMessage).toMatch(/^git-mem: captured decisions:\w+:\w+ Retry uploads with exponential backoff$/);
    const all = JSON.parse(memOk(repo, box.env, ['list', '--json'])) as Array<{ summary: string }>;
    expect(all.map((m) => m.summary)).toEqual(['Retry uploads with exponential backoff']);
  });

  it('OpenCode: its reply format, file memories after read, the turn the plugin sends at idle', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'learnings', 'file0 holds the seed content', '--paths', 'file0.txt']);
    const read = await hook(repo, box.env, 'opencode', 'PostToolUse', { session_id: 'o1', cwd: repo, tool: 'read', file_path: path.join(repo, 'file0.txt'), call_id: 'c1' });
    expect(Object.keys(JSON.parse(read.stdout))).toEqual(['additionalContext']);
    expect(JSON.parse(read.stdout).additionalContext).toContain('file0 holds the seed content');
    const stop = await hook(repo, box.env, 'opencode', 'Stop', { session_id: 'o1', cwd: repo, messages: ['Looked.', '[decision] Seed files stay small'] });
    expect(JSON.parse(stop.stdout).systemMessage).toContain('Seed files stay small');
    const bad = await hook(repo, box.env, 'opencode', 'Stop', { session_id: 'o1', cwd: repo, messages: 'not a list' });
    expect(bad.stderr).toMatch(/^git-mem hook Stop: 'messages' must be an array of strings/);
    const unknown = await hook(repo, box.env, 'nope', 'Stop', {});
    expect(unknown).toEqual({ code: 0, stdout: '', stderr: expect.stringMatching(/^git-mem hook: unknown agent 'nope'; expected claude, .*gemini, opencode\n$/) });
  });
});

import { describe, expect, it } from 'vitest';
import { codexEntry } from '../../src/agents/codex/transcript.ts';
import { commandReads, patchFiles } from '../../src/agents/codex/tool-paths.ts';
import { mergeCodexConfig } from '../../src/agents/codex/install.ts';
import { copilotEvent, parseCopilotInput, renderCopilotReply } from '../../src/agents/copilot/hooks.ts';
import { copilotEntry } from '../../src/agents/copilot/transcript.ts';
import { mergeCopilotHooks } from '../../src/agents/copilot/install.ts';
import { mergeMcpServer } from '../../src/agents/hook-command.ts';

describe('codex tool paths', () => {
  it('reads the files of an apply_patch, with the text each hunk replaces', () => {
    const patch = ['*** Begin Patch', '*** Update File: src/a.ts', '@@ function f', ' const a = 1;', '-const b = 2;', '+const b = 3;', '*** Add File: src/new.ts', '+x', '*** Delete File: old.ts', '*** End Patch'].join('\n');
    expect(patchFiles(patch)).toEqual([
      { path: 'src/a.ts', needles: ['const a = 1;\nconst b = 2;'] },
      { path: 'src/new.ts', needles: [] },
    ]);
  });

  it('reads the files a shell command reads, not patterns, options or scripts', () => {
    expect(commandReads('cat src/a.ts')).toEqual(['src/a.ts']);
    expect(commandReads("sed -n '1,40p' src/b.ts")).toEqual(['src/b.ts']);
    expect(commandReads('rg -n "retry loop" src/c.ts src/d.ts')).toEqual(['src/c.ts', 'src/d.ts']);
    expect(commandReads('head -n 20 README.md && nl -ba x.py | sed -n 1,5p')).toEqual(['README.md', 'x.py']);
    expect(commandReads("bash -lc 'cat \"a b.txt\"'")).toEqual(['a b.txt']);
    expect(commandReads('npm test && ls src')).toEqual([]);
    expect(commandReads('grep -e foo -- f.txt')).toEqual(['f.txt']);
  });
});

describe('transcripts', () => {
  const line = (v: unknown) => JSON.stringify(v);
  it('codex: typed prompts, replies, inserted context and compaction summaries', () => {
    const message = (role: string, text: string, type = role === 'assistant' ? 'output_text' : 'input_text') => line({ type: 'response_item', payload: { type: 'message', id: 'm1', role, content: [{ type, text }] } });
    expect(codexEntry(message('user', 'Use tabs'))).toMatchObject({ kind: 'prompt', text: 'Use tabs' });
    expect(codexEntry(message('user', '<environment_context>\n<cwd>/x</cwd>'))).toMatchObject({ kind: 'meta' });
    expect(codexEntry(message('developer', 'hook context'))).toMatchObject({ kind: 'meta' });
    expect(codexEntry(message('assistant', '[decision] Tabs'))).toMatchObject({ kind: 'reply', text: '[decision] Tabs', messageId: 'm1' });
    expect(codexEntry(line({ type: 'compacted', payload: { message: 'summary' } }))).toMatchObject({ kind: 'compact-summary', text: 'summary' });
    expect(codexEntry(line({ type: 'event_msg', payload: { type: 'user_message', message: 'x' } }))).toBeNull();
    expect(codexEntry('{"type":"response_item", broken')).toBeNull();
  });

  it('copilot: user and assistant messages of events.jsonl', () => {
    expect(copilotEntry(line({ type: 'user.message', data: { content: 'hello', messageId: 'u' } }))).toMatchObject({ kind: 'prompt', text: 'hello' });
    expect(copilotEntry(line({ type: 'assistant.message', data: { content: 'Done.', messageId: 'a', toolRequests: [] } }))).toMatchObject({ kind: 'reply', text: 'Done.' });
    expect(copilotEntry(line({ type: 'hook.start', data: {} }))).toBeNull();
  });
});

describe('copilot hooks', () => {
  it('maps its camelCase names and reads both payload shapes', () => {
    expect(copilotEvent('userPromptSubmitted')).toBe('UserPromptSubmit');
    expect(copilotEvent('agentStop')).toBe('Stop');
    expect(copilotEvent('PreToolUse')).toBe('PreToolUse');
    const { transcript: _t, ...camel } = parseCopilotInput('PreToolUse', { sessionId: 's', cwd: '/r', toolName: 'edit', toolArgs: JSON.stringify({ path: '/r/a.txt', old_str: 'two', new_str: 'TWO' }) });
    expect(camel).toMatchObject({ agent: 'copilot', sessionId: 's', files: [{ path: '/r/a.txt', edited: true, needles: ['two'] }] });
    const { transcript: _u, ...snake } = parseCopilotInput('PreToolUse', { session_id: 's', hook_event_name: 'PreToolUse', tool_name: 'Read', tool_input: { path: '/r/a.txt' } });
    expect(snake).toMatchObject({ agent: 'copilot', files: [{ path: '/r/a.txt', edited: false }] });
  });

  it('answers with a top-level additionalContext only', () => {
    expect(renderCopilotReply({ additionalContext: 'ctx', systemMessage: 'hi' })).toBe('{"additionalContext":"ctx"}');
    expect(renderCopilotReply({ systemMessage: 'hi' })).toBeNull();
  });
});

describe('installing into other tools\' files', () => {
  it('codex config.toml: adds the table once, keeps the rest, removes exactly it', () => {
    const user = '# mine\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "x"\n';
    const once = mergeCodexConfig(user, false);
    expect(mergeCodexConfig(once, false)).toBe(once);
    expect(once).toContain('[mcp_servers.gitmem]\ncommand = "git-mem"\nargs = ["mcp"]\n');
    expect(mergeCodexConfig(once, true)).toBe(user);
    expect(mergeCodexConfig(mergeCodexConfig('', false), true)).toBe('');
  });

  it('copilot hooks and .mcp.json: other entries stay, git-mem\'s go', () => {
    const other = { version: 1, hooks: { sessionStart: [{ type: 'command', bash: 'echo hi' }] } };
    const added = mergeCopilotHooks(other, (e) => `git-mem hook --agent copilot ${e}`, false);
    expect((added.hooks as Record<string, unknown[]>).sessionStart).toHaveLength(1);
    expect(mergeCopilotHooks(added, (e) => `git-mem hook --agent copilot ${e}`, false)).toEqual(added);
    expect(mergeCopilotHooks(added, () => '', true)).toEqual(other);
    const mcp = { mcpServers: { other: { command: 'x' } } };
    expect(mergeMcpServer(mergeMcpServer(mcp, 'git-mem', false), 'git-mem', true)).toEqual(mcp);
    expect(mergeMcpServer({ mcpServers: { 'git-mem': { command: 'something-else' } } }, 'git-mem', true)).toEqual({ mcpServers: { 'git-mem': { command: 'something-else' } } });
  });
});

/**
 * The Claude Code plugin in plugin/: the real client validates it, loads it with --plugin-dir,
 * runs its hooks, offers its MCP server's tools, and hands a tool's result back to the model.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memOk } from '../helpers.ts';
import { lastMessage, requestText, toolUse } from './fake-api.ts';
import { attachments, blocks, checked, claude, claudeBin, claudeOk, world } from './harness.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const PLUGIN = path.join(ROOT, 'plugin');
const RECALL = 'mcp__plugin_git-mem_git-mem__recall';
const PLUGIN_ARGS = ['--plugin-dir', PLUGIN, '--allowedTools', 'mcp__plugin_git-mem_git-mem'];
/** MCP tools are deferred behind tool search by default; this offers them directly. */
const DIRECT_TOOLS = { ENABLE_TOOL_SEARCH: 'false' };

describe('the git-mem plugin with the real client', () => {
  it('passes claude plugin validate, as a plugin and as a marketplace', () => {
    for (const dir of [PLUGIN, ROOT]) {
      const r = spawnSync(claudeBin(), ['plugin', 'validate', dir], { encoding: 'utf8', env: { ...process.env, DISABLE_AUTOUPDATER: '1' } });
      expect(r.status, `${r.stdout}\n${r.stderr}`).toBe(0);
      expect(r.stdout).toContain('Validation passed');
    }
  });

  it('injects the SessionStart context, offers the recall tool, and returns its result to the model', async () => {
    const w = await world({ scopes: [] }); // the plugin alone, no hooks in settings
    memOk(w.repo, w.box.env, ['capture', 'blockers', 'Staging database is read-only until Monday']);
    memOk(w.repo, w.box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index', '-m', 'No native modules to build on user machines.']);
    memOk(w.repo, w.box.env, ['capture', 'learnings', 'Webhook retries need idempotency keys']);

    w.api.script([toolUse(RECALL, { query: 'why sql.js for the index' })], 'Because it needs no native modules.');
    const run = await claudeOk(w, 'Why do we use sql.js?', { args: PLUGIN_ARGS, env: DIRECT_TOOLS });
    const entries = checked(w, run);
    expect(w.api.main).toHaveLength(2);

    const first = w.api.main[0]!.body;
    expect(requestText(first)).toContain('SessionStart hook additional context: <memory_context');
    expect(requestText(first)).toContain('Staging database is read-only until Monday');
    expect((first.tools ?? []).map((t) => t.name)).toContain(RECALL);

    const result = lastMessage(w.api.main[1]!.body);
    const resultText = JSON.stringify(result?.content);
    expect(resultText).toContain('tool_result');
    expect(resultText).toContain('Chose sql.js over better-sqlite3 for the index');
    expect(resultText).not.toContain('Webhook retries');
    expect(attachments(entries, 'hook_success').some((a) => a.hookEvent === 'SessionStart')).toBe(true);
  });

  it('says in one line how to install git-mem when it is not on PATH, and the session goes on', async () => {
    const w = await world({ scopes: [] });
    // PATH without the sandbox's bin directory, where git-mem is.
    const bin = path.join(w.box.root, 'bin');
    const pathWithout = (w.env.PATH ?? '').split(':').filter((d) => d !== bin && !fs.existsSync(path.join(d, 'git-mem'))).join(':');
    w.api.script('Hello.');
    const run = await claude(w, 'Say hello', { args: PLUGIN_ARGS, env: { ...DIRECT_TOOLS, PATH: pathWithout } });
    expect(run.code, run.stderr).toBe(0);
    expect(run.json.result).toBe('Hello.');
    const entries = checked(w, run);
    const messages = attachments(entries, 'hook_system_message').map((a) => String(a.content));
    expect(messages.join('\n')).toContain('git-mem is not on PATH');
    expect(blocks(requestText(w.api.main[0]!.body), 'memory_context')).toEqual([]);
  });
});

/**
 * Real Gemini CLI sessions (`gemini -p`, the pinned @google/gemini-cli) with git-mem's hooks and
 * MCP server, against the fake Gemini API (see harness.ts). Each run is 7-12 s: one run checks
 * several things.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, type GeminiBody, requestText as rawText, text, textAfterFunctionResponse as rawAfter } from './fake-gemini-api.ts';
import { blocks, CAPTURE_BLOCK, CAPTURED, gemini, geminiWorld, gitMemProblems, memories, seedMemories, systemMessages } from './harness.ts';

/**
 * Gemini CLI writes a hook's context into the request with its angle brackets escaped (inside
 * `<hook_context>`, so that no context can close the tag): read back as written.
 */
const asWritten = (t: string): string => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&');
const requestText = (body: GeminiBody): string => asWritten(rawText(body));
const textAfterFunctionResponse = (body: GeminiBody, name: string): string => asWritten(rawAfter(body, name));

describe('Gemini CLI sessions', () => {
  it('with hooks installed twice (project and user): session-start context, recall on a question, file memories after read_file, the MCP recall tool, a capture block captured once, each given once', async () => {
    const w = await geminiWorld(['project', 'user']);
    const file = seedMemories(w);
    const before = memories(w).length;
    const declared = (i: number) => (w.api.main[i]?.body.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));

    w.api.script(
      [call('read_file', { file_path: file })],
      [call('mcp_gitmem_recall', { query: 'feature branches issue number', mode: 'lexical' })],
      [text(`Because of native modules.\n\n${CAPTURE_BLOCK}`)],
    );
    const run = await gemini(w, 'Why did we pick sql.js for the index?');
    expect(run.code, run.stderr).toBe(0);
    expect(gitMemProblems(run.stderr)).toEqual([]);
    expect(run.json.response).toContain('Because of native modules.');
    expect(w.api.main).toHaveLength(3);

    // The first request: the session-start context and the recalled memory, each once although every hook ran twice.
    const first = requestText(w.api.main[0]!.body);
    const [context, ...moreContexts] = blocks(first, 'memory_context');
    expect(moreContexts).toEqual([]);
    expect(context).toContain('CI runners lack git-daemon');
    const [recalled, ...moreRecalled] = blocks(first, 'recalled_memories');
    expect(moreRecalled).toEqual([]);
    expect(recalled).toContain('Chose sql.js over better-sqlite3 for the index');
    expect(recalled).not.toContain('Webhook retries');

    // After read_file: the file's memories, appended to the tool's result, once.
    const afterRead = textAfterFunctionResponse(w.api.main[1]!.body, 'read_file');
    const [related, ...moreRelated] = blocks(afterRead, 'related_memories');
    expect(moreRelated).toEqual([]);
    expect(related).toContain('S3 returns 503 under load');
    expect(related).not.toContain('CI runners');

    // The MCP server is offered and its recall tool answers.
    expect(declared(0)).toContain('mcp_gitmem_recall');
    expect(textAfterFunctionResponse(w.api.main[2]!.body, 'mcp_gitmem_recall')).toContain('Name feature branches after the issue number');

    // The reply's capture block: captured once at AfterAgent (two copies of the hook ran; PreCompress, before every call, captured nothing).
    const all = memories(w);
    expect(all).toHaveLength(before + 1);
    const captured = all.filter((m) => m.summary === CAPTURED);
    expect(captured).toHaveLength(1);
    expect(captured[0]!.source).toBe('hook:Stop');
    expect(captured[0]!.body).toBe('Jitter avoids a thundering herd.');
    // Told to the person once.
    expect(systemMessages(run.stderr)).toEqual([expect.stringMatching(/^git-mem: captured decisions:\w+:\w+ Retry uploads with exponential backoff$/)]);
  });

  it('a new session: context again, nothing captured twice, no recall for a prompt without a question, the settings as installed', async () => {
    const w = await geminiWorld(['project']);
    const settings = path.join(w.repo, '.gemini', 'settings.json');
    seedMemories(w);
    w.api.script(`Recap.\n\n${CAPTURE_BLOCK}`);
    const first = await gemini(w, 'Write a factorial function');
    expect(first.code, first.stderr).toBe(0);
    w.api.script(`Again.\n\n${CAPTURE_BLOCK}`);
    const second = await gemini(w, 'Write it again');
    expect(second.code, second.stderr).toBe(0);
    expect(gitMemProblems(first.stderr + second.stderr)).toEqual([]);
    for (const request of [w.api.main[0]!, w.api.main[1]!]) {
      const t = requestText(request.body);
      expect(blocks(t, 'memory_context')).toHaveLength(1);
      expect(t).not.toContain('<recalled_memories');
    }
    expect(memories(w).filter((m) => m.summary === CAPTURED)).toHaveLength(1);
    expect(systemMessages(second.stderr)).toEqual([expect.stringMatching(/^git-mem: not captured \(already stored as decisions:\w+:\w+\): Retry uploads/)]);

    const installed = JSON.parse(fs.readFileSync(settings, 'utf8')) as { hooks: Record<string, unknown>; mcpServers: Record<string, unknown> };
    expect(Object.keys(installed.hooks).sort()).toEqual(['AfterAgent', 'AfterTool', 'BeforeAgent', 'PreCompress', 'SessionEnd', 'SessionStart']);
    expect(installed.mcpServers.gitmem).toEqual({ command: 'git', args: ['mem', 'mcp'] });
  });
});

/**
 * Real OpenCode sessions (`opencode run`, the pinned opencode-ai) with git-mem's plugin and MCP
 * server, against the fake chat-completions API (see harness.ts). Each run is about 10 s: one run
 * checks several things.
 */
import { describe, expect, it } from 'vitest';
import { call, requestText, systemText, text, toolResult } from './fake-chat-completions-api.ts';
import { blocks, CAPTURE_BLOCK, CAPTURED, gitMemProblems, memories, opencode, opencodeWorld, seedMemories } from './harness.ts';

/** Waits for the detached turn capture the plugin starts when the session goes idle. */
async function eventually<T>(read: () => T, done: (value: T) => boolean, ms = 15_000): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const value = read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('OpenCode sessions', () => {
  it('with the plugin installed twice (project and user): session-start context, recall on a question, file memories after read, the MCP recall tool, a capture block captured once, each given once', async () => {
    const w = await opencodeWorld(['project', 'user']);
    const file = seedMemories(w);
    const before = memories(w).length;

    w.api.script([call('read', { filePath: file })], [call('gitmem_recall', { query: 'feature branches issue number', mode: 'lexical' })], [text(`Because of native modules.\n\n${CAPTURE_BLOCK}`)]);
    const run = await opencode(w, 'Why did we pick sql.js for the index?');
    expect(run.code, run.stderr).toBe(0);
    expect(gitMemProblems(run.stderr)).toEqual([]);
    expect(w.api.main).toHaveLength(3);

    // The first request: the session-start context in the system prompt, the recalled memory beside the prompt, each once.
    const first = w.api.main[0]!.body;
    const [context, ...moreContexts] = blocks(requestText(first), 'memory_context');
    expect(moreContexts).toEqual([]);
    expect(systemText(first)).toContain('CI runners lack git-daemon');
    expect(context).toContain('CI runners lack git-daemon');
    const [recalled, ...moreRecalled] = blocks(requestText(first), 'recalled_memories');
    expect(moreRecalled).toEqual([]);
    expect(recalled).toContain('Chose sql.js over better-sqlite3 for the index');
    expect(recalled).not.toContain('Webhook retries');

    // After read: the file's memories in the tool's output, once.
    const afterRead = toolResult(w.api.main[1]!.body, w.api.main[0]!.callIds[0]!);
    const [related, ...moreRelated] = blocks(afterRead, 'related_memories');
    expect(moreRelated).toEqual([]);
    expect(related).toContain('S3 returns 503 under load');
    expect(blocks(requestText(w.api.main[2]!.body), 'related_memories')).toHaveLength(1);

    // The MCP server's recall tool answers.
    expect((w.api.main[0]!.body.tools ?? []).map((t) => t.function.name)).toContain('gitmem_recall');
    expect(toolResult(w.api.main[2]!.body, w.api.main[1]!.callIds[0]!)).toContain('Name feature branches after the issue number');

    // The reply's capture block: captured once when the session went idle (two plugins ran).
    const all = await eventually(
      () => memories(w),
      (m) => m.length > before,
    );
    await new Promise((r) => setTimeout(r, 1500)); // a second capture, were there one, has had time to land
    const captured = memories(w).filter((m) => m.summary === CAPTURED);
    expect(captured).toHaveLength(1);
    expect(all.length).toBe(before + 1);
    expect(captured[0]!.source).toBe('hook:Stop');
    expect(captured[0]!.body).toBe('Jitter avoids a thundering herd.');
  });

  it('a prompt without a question gets the session context but no recall, and a git-mem that fails leaves the session unharmed', async () => {
    const w = await opencodeWorld(['project']);
    seedMemories(w);
    w.api.script('Here it is.');
    const run = await opencode(w, 'Write a factorial function');
    expect(run.code, run.stderr).toBe(0);
    expect(gitMemProblems(run.stderr)).toEqual([]);
    const t = requestText(w.api.main[0]!.body);
    expect(blocks(t, 'memory_context')).toHaveLength(1);
    expect(t).not.toContain('<recalled_memories');

    // git-mem missing from PATH: the plugin says so on stderr, the session goes on.
    w.api.script('Still fine.');
    const broken = await opencode({ ...w, env: { ...w.env, PATH: (w.env.PATH ?? '').split(':').slice(1).join(':') } }, 'Why did we pick sql.js?');
    expect(broken.code, broken.stderr).toBe(0);
    expect(broken.stdout).toContain('Still fine.');
    expect(requestText(w.api.main[1]!.body)).not.toContain('<memory_context');
    expect(gitMemProblems(broken.stderr).length).toBeGreaterThan(0);
  });
});

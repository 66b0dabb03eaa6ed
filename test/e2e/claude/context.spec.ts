/**
 * What git-mem's hooks bring into the model's requests: SessionStart memory context,
 * recall on a trigger phrase, memories about a file after Read or Edit.
 * Real `claude -p` sessions against the fake model API (see harness.ts).
 */
import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { git, memOk } from '../helpers.ts';
import { edit, read, requestText, text } from './fake-api.ts';
import { attachments, blocks, checked, claudeOk, commitFile, hookRuns, summaries, textAfterToolResult, toolIds, world } from './harness.ts';

describe('Claude Code sessions: memory reaching the model', () => {
  it('puts the SessionStart memory context in the first request', async () => {
    const w = await world();
    memOk(w.repo, w.box.env, ['capture', 'blockers', 'CI runners lack git-daemon']);
    memOk(w.repo, w.box.env, ['capture', 'decisions', 'Use <sql.js> & FTS4 for the index']);
    memOk(w.repo, w.box.env, ['capture', 'progress', 'Half of the sync tests are ported']);
    memOk(w.repo, w.box.env, ['capture', 'learnings', 'Loopback ports must be fresh per test']);
    memOk(w.repo, w.box.env, ['resolve', memOk(w.repo, w.box.env, ['capture', 'blockers', 'Flaky DNS in the old CI image'])]);
    const before = summaries(w);
    w.api.script('Hello.');
    const run = await claudeOk(w, 'Say hello');
    const entries = checked(w, run);
    expect(run.json.result).toBe('Hello.');

    expect(w.api.main).toHaveLength(1);
    const first = requestText(w.api.main[0]!.body);
    expect(first).toContain('SessionStart hook additional context: <memory_context project="repo"');
    const [context, ...more] = blocks(first, 'memory_context');
    expect(more).toEqual([]);
    expect(context).toContain('CI runners lack git-daemon');
    expect(context).toContain('Use &lt;sql.js&gt; &amp; FTS4 for the index');
    expect(context).toContain('Half of the sync tests are ported');
    expect(context).toContain('Loopback ports must be fresh per test');
    expect(context).not.toContain('Flaky DNS'); // a resolved blocker
    expect(context).toContain('author="Test User"');
    expect(first).toContain('Say hello');

    const [started] = hookRuns(entries, 'SessionStart');
    expect(started?.command).toMatch(/git-mem hook SessionStart$/);
    expect(attachments(entries, 'hook_success').find((a) => a.hookName === 'SessionStart:startup')).toBeTruthy();
    expect(summaries(w)).toEqual(before); // nothing in "Say hello" / "Hello." to capture
  });

  it('brings the right memory into the request of a prompt that asks to recall', async () => {
    const w = await world();
    memOk(w.repo, w.box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index', '-m', 'No native modules to build on user machines.']);
    memOk(w.repo, w.box.env, ['capture', 'learnings', 'Webhook retries need idempotency keys']);
    memOk(w.repo, w.box.env, ['capture', 'patterns', 'Name branches after the issue number']);

    w.api.script('Here it is.');
    checked(w, await claudeOk(w, 'Write a factorial function'));
    expect(requestText(w.api.main[0]!.body)).not.toContain('<recalled_memories>');

    w.api.script('Because of native modules.');
    const run = await claudeOk(w, 'Why did we pick sql.js for the index?');
    checked(w, run);
    const request = requestText(w.api.main[1]!.body);
    expect(request).toContain('UserPromptSubmit hook additional context: <recalled_memories>');
    const [recalled, ...more] = blocks(request, 'recalled_memories');
    expect(more).toEqual([]);
    expect(recalled).toContain('Chose sql.js over better-sqlite3 for the index');
    expect(recalled).not.toContain('Webhook retries');
    expect(recalled).not.toContain('Name branches');
  });

  it('brings memories about a file into the request after a Read or an Edit, once per session', async () => {
    const w = await world();
    const file = commitFile(w, 'src/upload_retry.ts', 'export const retries = 3;\n', 'Add upload retry');
    memOk(w.repo, w.box.env, ['capture', 'learnings', 'S3 returns 503 under load; back off before retrying']);
    git(w.repo, w.box.env, ['commit', '-q', '--allow-empty', '-m', 'later']);
    memOk(w.repo, w.box.env, ['capture', 'patterns', 'Upload retry uses exponential backoff with jitter']);
    memOk(w.repo, w.box.env, ['capture', 'decisions', 'Unrelated: indent with tabs']);

    w.api.script([read(file)], [text('Reading it again.'), read(file)], [edit(file, 'retries = 3', 'retries = 5')], 'Raised the retries.');
    const run = await claudeOk(w, 'Raise the upload retries to 5');
    const entries = checked(w, run);
    expect(fs.readFileSync(file, 'utf8')).toBe('export const retries = 5;\n');
    expect(w.api.main).toHaveLength(4);

    const afterRead = textAfterToolResult(w.api.main[1]!.body, toolIds(w, 0)[0]!);
    expect(afterRead).toContain(`PreToolUse:Read hook additional context: <related_memories file="${file}">`);
    const [related] = blocks(afterRead, 'related_memories');
    expect(related).toContain('S3 returns 503 under load'); // attached to the commit that added the file
    expect(related).toContain('Upload retry uses exponential backoff'); // matches the path
    expect(related).not.toContain('Unrelated');
    // The second Read and the Edit bring nothing new in this session.
    expect(textAfterToolResult(w.api.main[2]!.body, toolIds(w, 1)[0]!)).not.toContain('<related_memories');
    expect(textAfterToolResult(w.api.main[3]!.body, toolIds(w, 2)[0]!)).not.toContain('<related_memories');
    expect(blocks(requestText(w.api.main[3]!.body), 'related_memories')).toHaveLength(1);
    expect(hookRuns(entries, 'PreToolUse').length).toBeGreaterThanOrEqual(1);

    // A new session gets them again, here before an Edit: the transcript shows PreToolUse brought them.
    w.api.script([edit(file, 'retries = 5', 'retries = 6')], 'Done.');
    const second = checked(w, await claudeOk(w, 'Make it 6'));
    const fromPre = attachments(second, 'hook_additional_context').filter((a) => a.hookEvent === 'PreToolUse');
    expect(JSON.stringify(fromPre)).toContain('S3 returns 503 under load');
    const afterEdit = textAfterToolResult(w.api.main[5]!.body, toolIds(w, 4)[0]!);
    expect(afterEdit).toContain(`PreToolUse:Edit hook additional context: <related_memories file="${file}" lines="1">`);
    expect(afterEdit).toContain('S3 returns 503 under load');
  });
});

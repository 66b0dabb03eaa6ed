/**
 * Sessions keep working when git-mem's state is broken (index, embedding model), and
 * the check for hook errors used by every spec is itself checked.
 * Real `claude -p` sessions against the fake model API (see harness.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, memOk } from '../helpers.ts';
import { bash, read, requestText } from './fake-api.ts';
import { attachments, blocks, checked, claude, claudeOk, commitFile, hookProblems, summaries, textAfterToolResult, toolIds, transcript, world } from './harness.ts';

describe('Claude Code sessions: robustness', () => {
  it('keeps a working session with a broken index, before and during the session', async () => {
    const w = await world();
    memOk(w.repo, w.box.env, ['capture', 'decisions', 'Keep the corrupt index test around', '-m', 'It guards the rebuild path.']);
    memOk(w.repo, w.box.env, ['list']);
    const index = path.join(w.repo, '.git', 'mem', 'index.sqlite');
    const terms = path.join(w.repo, '.git', 'mem', 'terms.idx');
    // Both caches: with the term index intact, the hooks would not even open index.sqlite.
    fs.writeFileSync(index, 'garbage, not an SQLite database\n'.repeat(100));
    fs.writeFileSync(terms, 'garbage, not a term index\n'.repeat(100));

    const file = commitFile(w, 'index-notes.md', '# notes\n');
    w.api.script([read(file)], 'Fine.\n\n▶ learnings ─── A corrupt index is rebuilt from the notes\nThe notes are the truth.\n───');
    const t1 = await claudeOk(w, 'Why did we keep the corrupt index test?');
    const entries = checked(w, t1);
    // The first hook to open the index found it unreadable and rebuilt it (a notice on stderr is not a hook error).
    const started = attachments(entries, 'hook_success').find((a) => a.hookName === 'SessionStart:startup');
    expect(String(started?.stderr)).toMatch(/unreadable.*rebuilding it from the notes/);
    expect(t1.json.result).toContain('Fine.');
    const first = requestText(w.api.main[0]!.body);
    expect(blocks(first, 'memory_context')[0]).toContain('Keep the corrupt index test around');
    expect(blocks(first, 'recalled_memories')[0]).toContain('Keep the corrupt index test around');
    expect(summaries(w)).toEqual(['A corrupt index is rebuilt from the notes', 'Keep the corrupt index test around']);
    expect(fs.readFileSync(index).subarray(0, 15).toString()).toBe('SQLite format 3');

    // Broken again between two turns.
    fs.writeFileSync(index, Buffer.alloc(4096, 0xff));
    fs.writeFileSync(terms, Buffer.alloc(4096, 0xff));
    w.api.script([read(file)], '[decision] Rebuild the index on any read error');
    checked(w, await claudeOk(w, 'Remind me what we decided about the index', { resume: t1.json.session_id }));
    expect(blocks(requestText(w.api.main[2]!.body), 'recalled_memories')[0]).toContain('Keep the corrupt index test around');
    expect(summaries(w)).toContain('Rebuild the index on any read error');
  });

  it.each([
    { name: 'not yet fetched (default settings, empty cache)', make: (): string | null => null },
    { name: 'missing at mem.modelPath and GIT_MEM_MODEL_PATH', make: (root: string): string | null => path.join(root, 'no-such-model') },
    {
      name: 'broken at mem.modelPath and GIT_MEM_MODEL_PATH',
      make: (root: string): string | null => {
        const dir = path.join(root, 'broken-model');
        fs.mkdirSync(path.join(dir, 'onnx'), { recursive: true });
        fs.writeFileSync(path.join(dir, 'config.json'), '{ not json');
        fs.writeFileSync(path.join(dir, 'tokenizer.json'), 'garbage');
        fs.writeFileSync(path.join(dir, 'tokenizer_config.json'), '{}');
        fs.writeFileSync(path.join(dir, 'onnx', 'model_quantized.onnx'), Buffer.alloc(1024, 7));
        return dir;
      },
    },
  ])('keeps a working session with an embedding model $name', async ({ make }) => {
    const w = await world();
    const model = make(w.box.root);
    const env: NodeJS.ProcessEnv = model ? { GIT_MEM_MODEL_PATH: model } : {};
    if (model) git(w.repo, w.box.env, ['config', 'mem.modelPath', model]);
    memOk(w.repo, w.box.env, ['capture', 'decisions', 'Rank memories with BM25 when no model is there']);
    memOk(w.repo, w.box.env, ['capture', 'learnings', 'Ranking falls back to lexical search offline']);
    const file = commitFile(w, 'src/ranking.ts', 'export {}\n');
    w.api.script([read(file)], 'Lexical works.\n\n[decision] Semantic search stays optional');
    const run = await claudeOk(w, 'Why did we rank memories with BM25?', { env });
    checked(w, run);
    const first = requestText(w.api.main[0]!.body);
    expect(blocks(first, 'memory_context')[0]).toContain('Rank memories with BM25');
    expect(blocks(first, 'recalled_memories')[0]).toContain('Rank memories with BM25 when no model is there');
    expect(textAfterToolResult(w.api.main[1]!.body, toolIds(w, 0)[0]!)).toContain('<related_memories');
    expect(summaries(w)).toEqual(['Rank memories with BM25 when no model is there', 'Ranking falls back to lexical search offline', 'Semantic search stays optional']);
    // Hooks never fetch the model (the download would happen in the middle of a turn).
    expect(w.api.others.filter((o) => o.url.includes('/models/'))).toEqual([]);
  });

  it('self-check: the transcript shows a failing hook, so "no hook error" above means something', async () => {
    const w = await world({ scopes: [] });
    fs.mkdirSync(path.join(w.repo, '.claude'));
    const failing = [{ hooks: [{ type: 'command', command: 'echo boom >&2; exit 1' }] }];
    fs.writeFileSync(path.join(w.repo, '.claude', 'settings.json'), JSON.stringify({ hooks: { UserPromptSubmit: failing, Stop: failing } }));
    w.api.script('Hi.');
    const run = await claude(w, 'hello');
    expect(run.json.result).toBe('Hi.');
    const problems = hookProblems(transcript(w, run.json.session_id));
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.join('\n')).toContain('boom');
  });

  // Claude Code sends a failed Bash command to PostToolUseFailure (with `error`, no `tool_response`).
  it('a failed Bash command that explains itself brings a capture suggestion', async () => {
    const w = await world();
    w.api.script([bash("echo 'The registry rejected the publish because the token in .npmrc has expired; publishing is blocked until it is renewed.' >&2; exit 1")], 'The install is blocked.');
    const run = await claudeOk(w, 'Install the dependencies');
    checked(w, run);
    expect(textAfterToolResult(w.api.main[1]!.body, toolIds(w, 0)[0]!)).toContain('<capture_suggestion>');
  });
});

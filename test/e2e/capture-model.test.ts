/**
 * The capture model through the binary: a UserPromptSubmit hook on plain
 * statements worth keeping (suggested, in their namespace), on the hard
 * negatives of tools/capture-model/data/GUIDELINES.md (nothing suggested,
 * nothing captured), and on explicit markers (captured at once, unless
 * mem.autoCapture is false).
 */
import { describe, expect, it } from 'vitest';
import { git, makeRepo, memHook, memOk, sandbox } from './helpers.ts';

function payload(cwd: string, prompt: string) {
  return { session_id: `s-${Math.random()}`, transcript_path: '/nonexistent', cwd, hook_event_name: 'UserPromptSubmit', prompt };
}

/** The hook's suggestions (namespace of each suggested command) and what it captured. */
async function submit(cwd: string, env: NodeJS.ProcessEnv, prompt: string): Promise<{ suggested: string[]; captured: string | undefined }> {
  const r = await memHook(cwd, env, 'UserPromptSubmit', payload(cwd, prompt));
  expect(r.code, r.stderr).toBe(0);
  if (!r.stdout.trim()) return { suggested: [], captured: undefined };
  const out = JSON.parse(r.stdout) as { systemMessage?: string; hookSpecificOutput?: { additionalContext?: string } };
  const context = out.hookSpecificOutput?.additionalContext ?? '';
  const suggested = [...context.matchAll(/<capture_suggestion[^>]*>[^<]*git mem capture (\w+) /g)].map((m) => m[1]!);
  return { suggested, captured: out.systemMessage };
}

function memories(cwd: string, env: NodeJS.ProcessEnv): Array<{ namespace: string; summary: string }> {
  return JSON.parse(memOk(cwd, env, ['list', '--json'])) as Array<{ namespace: string; summary: string }>;
}

describe('the capture model through the binary', () => {
  it('suggests plain statements worth keeping, each in its namespace, and captures none of them unasked', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const cases: Array<[string, string]> = [
      ['We decided to use FastAPI because it has native async support and pydantic validation.', 'decisions'],
      ['Changes reverted as we cannot legally change the license.', 'decisions'],
      ['The root cause was that the cache evicted entries while the writer still held them, because the lock was released too early.', 'learnings'],
      ['Blocked on the staging database credentials, which are not in the vault yet.', 'blockers'],
      ['Going forward, every migration must be tested on staging before it is merged.', 'patterns'],
    ];
    for (const [text, namespace] of cases) {
      const { suggested, captured } = await submit(repo, box.env, text);
      if (captured) expect(memories(repo, box.env).map((m) => m.namespace), text).toContain(namespace);
      else expect(suggested, text).toEqual([namespace]);
    }
  });

  it('leaves the hard negatives: questions, proposals, negations, quotes, instructions, thanks, logs, code, struck text, chatter', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const negatives: Record<string, string> = {
      question: 'Should we switch the session cache to Redis before the launch?',
      proposal: 'Maybe we should drop Python 3.8 support at some point, what do you think?',
      hypothetical: 'If we decided to move to Postgres, would the migrations still run on SQLite in tests?',
      instruction: 'Please rename the function to getUser and update the tests.',
      thanks: 'Thanks a lot, that works great!',
      log: "Access to fetch at 'https://api.example.com/v1' from origin 'http://localhost:3000' has been blocked by CORS policy",
      stack: '2026-01-02 10:00:01 ERROR worker blocked by lock timeout, retrying in 5s',
      code: '```ts\nconst decided = true; // we decided to use this\n```',
      quote: '> We decided to drop Python 3.7 support because it is end of life.',
      struck: '~~Blocked by the missing staging credentials.~~',
      chatter: 'Looking into it, will push a fix later today.',
    };
    for (const [kind, text] of Object.entries(negatives)) {
      const { suggested, captured } = await submit(repo, box.env, text);
      expect(suggested, kind).toEqual([]);
      expect(captured, kind).toBeUndefined();
    }
    expect(memories(repo, box.env)).toEqual([]);
  });

  it('captures explicit markers at once, and mem.autoCapture false turns that off', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const { captured } = await submit(repo, box.env, '[decision] Keep the index in the git common dir, since worktrees share it');
    expect(captured).toMatch(/captured/);
    expect(memories(repo, box.env)).toMatchObject([{ namespace: 'decisions', summary: 'Keep the index in the git common dir, since worktrees share it' }]);
    git(repo, box.env, ['config', 'mem.autoCapture', 'false']);
    const off = await submit(repo, box.env, '[blocker] CI has no git-daemon, so the sync tests cannot run there');
    expect(off.captured ?? '').not.toMatch(/captured/);
    expect(memories(repo, box.env)).toHaveLength(1);
  });
});

/** A small Python project as a new user would have it, and reading what a hook's context lists (issue 28 tests). */
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { git, makeRepo, type RunResult, sandbox } from './helpers.ts';

export function context(r: RunResult): string {
  expect(r.code, r.stderr).toBe(0);
  if (!r.stdout.trim()) return '';
  return (JSON.parse(r.stdout) as { hookSpecificOutput?: { additionalContext?: string } }).hookSpecificOutput?.additionalContext ?? '';
}

export function payload(repo: string, event: string, extra: Record<string, unknown> = {}) {
  return { session_id: 'sess-1', transcript_path: path.join(repo, '..', 'missing.jsonl'), cwd: repo, hook_event_name: event, ...extra };
}

/** Summaries in the order a context lists them. */
export const summaries = (text: string) => [...text.matchAll(/<summary>([^<]*)<\/summary>/g)].map((m) => m[1]!);

/** A small Python project as a new user would have it: a few commits, a dozen memories on them. */
export function pythonProject() {
  const box = sandbox();
  const repo = makeRepo(box, 'repo', 0);
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    fs.writeFileSync(path.join(repo, file), text);
  };
  const commit = (message: string) => {
    git(repo, box.env, ['add', '.']);
    git(repo, box.env, ['commit', '-qm', message]);
  };
  return { box, repo, write, commit };
}

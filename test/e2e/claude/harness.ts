/**
 * Running the real Claude Code client (`claude -p`, pinned as a dev dependency)
 * offline against the fake Messages API, in scratch repositories with a scratch
 * HOME and git-mem's hooks installed by the compiled binary's `git mem init --claude`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect, onTestFinished } from 'vitest';
import { git, makeRepo, memOk, type Sandbox, sandbox } from '../helpers.ts';
import { claudeBin } from './client.ts';
import { FakeAnthropic, type MessagesBody, requestText } from './fake-api.ts';

export { claudeBin };

export interface World {
  box: Sandbox;
  repo: string;
  api: FakeAnthropic;
  /** The environment `claude` runs with (and so do its hooks). */
  env: NodeJS.ProcessEnv;
}

export type Scope = 'project' | 'local' | 'user';

/** A sandbox, a repository with `commits` commits, a fake API, and git-mem's hooks installed in `scopes`. */
export async function world(options: { commits?: number; scopes?: Scope[] } = {}): Promise<World> {
  const box = sandbox();
  const repo = makeRepo(box, 'repo', options.commits ?? 1);
  const api = await new FakeAnthropic().start();
  onTestFinished(() => api.close());
  // Should anything try to fetch the embedding model, it asks the fake (and shows up in api.others), never the internet.
  box.env.GIT_MEM_MODEL_URL = `${api.url}/models/all-MiniLM-L6-v2`;
  box.env.XDG_CACHE_HOME = path.join(box.root, '.cache');
  for (const scope of options.scopes ?? ['project']) memOk(repo, box.env, ['init', '--claude', '--scope', scope]);
  const env: NodeJS.ProcessEnv = {
    ...box.env,
    ANTHROPIC_BASE_URL: api.url,
    ANTHROPIC_API_KEY: 'test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
  };
  return { box, repo, api, env };
}

/** What `claude -p --output-format json` prints at the end. */
export interface ClaudeResult {
  type: string;
  subtype: string;
  is_error: boolean;
  result: string;
  session_id: string;
  duration_ms: number;
  duration_api_ms: number;
  num_turns: number;
  [key: string]: unknown;
}

export interface ClaudeRun {
  code: number;
  stdout: string;
  stderr: string;
  /** Wall time of the whole `claude` process. */
  ms: number;
  json: ClaudeResult;
}

export interface ClaudeOptions {
  resume?: string;
  /** Extra arguments, e.g. ['--plugin-dir', dir]. */
  args?: string[];
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

/** One `claude -p` run in the world's repository; resolves when the process exits. */
export function claude(w: World, prompt: string, options: ClaudeOptions = {}): Promise<ClaudeRun> {
  const args = ['-p', '--output-format', 'json', '--allowedTools', 'Read,Edit,Write,Bash', ...(options.resume ? ['--resume', options.resume] : []), ...(options.args ?? []), '--', prompt];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(claudeBin(), args, { cwd: w.repo, env: { ...w.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const ms = performance.now() - started;
      let json: ClaudeResult;
      try {
        json = JSON.parse(stdout.trim().split('\n').at(-1) ?? '') as ClaudeResult;
      } catch {
        return reject(new Error(`claude ${args.join(' ')} exited ${code} without a JSON result.\nstdout: ${stdout.slice(0, 2000)}\nstderr: ${stderr.slice(0, 2000)}\nother requests: ${JSON.stringify(w.api.others)}`));
      }
      resolve({ code: code ?? -1, stdout, stderr, ms, json });
    });
  });
}

/** A run that must have succeeded: exit 0, a success result, nothing on stderr. */
export async function claudeOk(w: World, prompt: string, options: ClaudeOptions = {}): Promise<ClaudeRun> {
  const run = await claude(w, prompt, options);
  if (run.code !== 0 || run.json.is_error || run.json.subtype !== 'success' || run.stderr.trim()) {
    throw new Error(`claude failed (exit ${run.code}, ${run.json.subtype}): ${run.json.result}\nstderr: ${run.stderr}`);
  }
  return run;
}

// ------------------------------------------------------------------ transcript

export type Entry = Record<string, unknown> & { type?: string; subtype?: string; attachment?: Record<string, unknown> };

/** The session's transcript, ~/.claude/projects/<project>/<session_id>.jsonl, parsed line by line. */
export function transcript(w: World, sessionId: string): Entry[] {
  const projects = path.join(w.box.env.HOME!, '.claude', 'projects');
  const dir = fs.readdirSync(projects).find((d) => fs.existsSync(path.join(projects, d, `${sessionId}.jsonl`)));
  if (!dir) throw new Error(`no transcript for session ${sessionId} under ${projects}`);
  return fs
    .readFileSync(path.join(projects, dir, `${sessionId}.jsonl`), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Entry);
}

export const attachments = (entries: Entry[], type: string) => entries.filter((e) => e.type === 'attachment' && e.attachment?.type === type).map((e) => e.attachment!);

/** Attachment types that report a hook that ran fine. */
const HOOK_OK = new Set(['hook_success', 'hook_additional_context', 'hook_system_message']);

/** Everything in a transcript that reports a hook problem: error attachments, failed exits, Stop-hook errors, "hook error" text. */
export function hookProblems(entries: Entry[]): string[] {
  const problems: string[] = [];
  for (const e of entries) {
    const a = e.attachment;
    if (e.type === 'attachment' && typeof a?.type === 'string' && a.type.startsWith('hook_') && !HOOK_OK.has(a.type)) problems.push(`${a.type}: ${JSON.stringify(a).slice(0, 400)}`);
    if (a?.type === 'hook_success' && a.exitCode !== 0) problems.push(`hook exit ${String(a.exitCode)}: ${JSON.stringify(a).slice(0, 400)}`);
    if (e.type === 'system' && e.subtype === 'stop_hook_summary') {
      const errors = e.hookErrors as unknown[] | undefined;
      if (errors?.length) problems.push(`stop hook errors: ${JSON.stringify(errors).slice(0, 400)}`);
      if (e.preventedContinuation) problems.push('a Stop hook prevented continuation');
    }
    // Request snapshots hold the system prompt and tool descriptions: not where the client reports hooks.
    if (e.type?.startsWith('api-request') || a?.type === 'prompt_snapshot') continue;
    const raw = JSON.stringify(e);
    if (/hook error|Failed with non-blocking status|Hook JSON output validation failed|Hook cancelled/i.test(raw)) problems.push(`text: ${raw.slice(0, 400)}`);
  }
  return problems;
}

/** Hooks the client ran for one event, with their durations, from the transcript (hook_success and stop_hook_summary). */
export function hookRuns(entries: Entry[], event: string): Array<{ command: string; durationMs: number }> {
  if (event === 'Stop') {
    return entries.filter((e) => e.type === 'system' && e.subtype === 'stop_hook_summary').flatMap((e) => e.hookInfos as Array<{ command: string; durationMs: number }>);
  }
  return attachments(entries, 'hook_success')
    .filter((a) => a.hookEvent === event)
    .map((a) => ({ command: String(a.command), durationMs: Number(a.durationMs) }));
}

// ------------------------------------------------------------------ requests and notes

/** Text of the part of a request from the message holding the tool_result for `toolUseId` on. */
export function textAfterToolResult(body: MessagesBody, toolUseId: string): string {
  const messages = body.messages ?? [];
  const i = messages.findIndex((m) => Array.isArray(m.content) && m.content.some((b) => b.type === 'tool_result' && b.tool_use_id === toolUseId));
  if (i < 0) throw new Error(`no tool_result for ${toolUseId}`);
  return requestText({ messages: messages.slice(i) });
}

/** Every `<tag …>…</tag>` block in `text`. */
export function blocks(text: string, tag: string): string[] {
  return [...text.matchAll(new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`, 'g'))].map((m) => m[0]);
}

export interface StoredMemory {
  id: string;
  namespace: string;
  summary: string;
  body: string;
  source: string | null;
  commit: string;
}

export function memories(w: World): StoredMemory[] {
  return JSON.parse(memOk(w.repo, w.box.env, ['list', '--json', '--limit', '1000'])) as StoredMemory[];
}

export function summaries(w: World): string[] {
  return memories(w)
    .map((m) => m.summary)
    .sort();
}

/** Every revision of every note under refs/notes/ (the whole history, not only the tips). */
export function allNotesHistory(w: World): string {
  const refs = git(w.repo, w.box.env, ['for-each-ref', '--format=%(refname)', 'refs/notes/']).split('\n').filter(Boolean);
  return refs.length ? git(w.repo, w.box.env, ['log', '-p', '--format=%H %s', ...refs]) : '';
}

/** A commit that adds `file` (relative to the repository) with `content`. */
export function commitFile(w: World, file: string, content: string, message = `Add ${file}`): string {
  const abs = path.join(w.repo, file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  git(w.repo, w.box.env, ['add', file]);
  git(w.repo, w.box.env, ['commit', '-qm', message]);
  return abs;
}

// ------------------------------------------------------------------ assertions shared by the specs

/** The transcript of a finished run, after checking that it exited cleanly and that no hook reported a problem. */
export function checked(w: World, run: ClaudeRun): Entry[] {
  expect(run.code, run.stderr).toBe(0);
  expect(run.stderr).toBe('');
  const entries = transcript(w, run.json.session_id);
  expect(hookProblems(entries)).toEqual([]);
  if (w.api.others.length) console.warn(`requests the fake API answered with a stub: ${JSON.stringify(w.api.others)}`);
  return entries;
}

/** Ids of the tool_use blocks the fake sent in its reply to main-loop request `i`. */
export function toolIds(w: World, i: number): string[] {
  return (w.api.main[i]?.reply ?? []).flatMap((b) => (b.type === 'tool_use' && b.id ? [b.id] : []));
}

/** The systemMessage lines hooks showed the user (git-mem's "captured …" lines). */
export const capturedMessages = (entries: Entry[]): string[] => attachments(entries, 'hook_system_message').map((a) => String(a.content));

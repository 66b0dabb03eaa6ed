/**
 * Running the real Gemini CLI (`gemini -p`) and OpenCode (`opencode run`), pinned as dev
 * dependencies, offline against fake model APIs on 127.0.0.1, in scratch repositories with a
 * scratch HOME and git-mem installed by the compiled binary's `git mem init --gemini` / `--opencode`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { git, makeRepo, memOk, type Sandbox, sandbox } from '../helpers.ts';
import { FakeChatCompletions } from './fake-chat-completions-api.ts';
import { FakeGemini } from './fake-gemini-api.ts';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const geminiBin = (): string => process.env.GEMINI_BIN ?? path.join(ROOT, 'node_modules', '@google', 'gemini-cli', 'bundle', 'gemini.js');
export const opencodeBin = (): string => process.env.OPENCODE_BIN ?? path.join(ROOT, 'node_modules', 'opencode-ai', 'bin', 'opencode.exe');

export type Scope = 'project' | 'user';

interface Base {
  box: Sandbox;
  repo: string;
  /** The environment the client runs with (and so do its hooks). */
  env: NodeJS.ProcessEnv;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

function scratch(): Base & { setEnv: (extra: NodeJS.ProcessEnv) => void } {
  const box = sandbox();
  const repo = makeRepo(box, 'repo', 1);
  box.env.XDG_CACHE_HOME = path.join(box.root, '.cache');
  const env: NodeJS.ProcessEnv = { ...box.env };
  return { box, repo, env, setEnv: (extra) => Object.assign(env, extra) };
}

function run(bin: string[], cwd: string, env: NodeJS.ProcessEnv, timeoutMs: number): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(bin[0]!, bin.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** What git-mem's hooks told the person, as Gemini CLI shows it on stderr ("Hook system message: …"). */
export function systemMessages(stderr: string): string[] {
  return stderr.split('\n').flatMap((l) => (l.startsWith('Hook system message: ') ? [l.slice('Hook system message: '.length)] : []));
}

/** git-mem's own complaints in a client's stderr: a hook or the plugin that failed. */
export function gitMemProblems(stderr: string): string[] {
  return stderr.split('\n').filter((l) => /git-mem/i.test(l) && !l.startsWith('Hook system message: git-mem: ') && !/^\s+- git-mem$/.test(l));
}

// ------------------------------------------------------------------ Gemini CLI

export interface GeminiWorld extends Base {
  api: FakeGemini;
}

/** A sandbox, a repository, the fake Gemini API, and git-mem installed for Gemini CLI in `scopes`. */
export async function geminiWorld(scopes: Scope[] = ['project']): Promise<GeminiWorld> {
  const w = scratch();
  const api = await new FakeGemini().start();
  onTestFinished(() => api.close());
  w.box.env.GIT_MEM_MODEL_URL = `${api.url}/models/all-MiniLM-L6-v2`;
  // Gemini CLI reads the API key only when the user's settings choose it.
  fs.mkdirSync(path.join(w.box.env.HOME!, '.gemini'), { recursive: true });
  fs.writeFileSync(path.join(w.box.env.HOME!, '.gemini', 'settings.json'), `${JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }, null, 2)}\n`);
  for (const scope of scopes) memOk(w.repo, w.box.env, ['init', '--gemini', '--scope', scope]);
  w.setEnv({ ...w.box.env, GEMINI_API_KEY: 'test', GOOGLE_GEMINI_BASE_URL: api.url, GEMINI_CLI_TRUST_WORKSPACE: 'true', NO_BROWSER: '1' });
  return { box: w.box, repo: w.repo, env: w.env, api };
}

export interface GeminiRun extends Run {
  json: { session_id?: string; response?: string; error?: unknown };
}

/** One `gemini -p … --output-format json --yolo` run in the world's repository. */
export async function gemini(w: GeminiWorld, prompt: string, args: string[] = []): Promise<GeminiRun> {
  const r = await run([process.execPath, geminiBin(), '-p', prompt, '--output-format', 'json', '--yolo', ...args], w.repo, w.env, 60_000);
  let json: GeminiRun['json'] = {};
  try {
    json = JSON.parse(r.stdout.slice(r.stdout.indexOf('{'))) as GeminiRun['json'];
  } catch {
    throw new Error(`gemini exited ${r.code} without a JSON result.\nstdout: ${r.stdout.slice(0, 2000)}\nstderr: ${r.stderr.slice(0, 2000)}`);
  }
  return { ...r, json };
}

// ------------------------------------------------------------------ OpenCode

export interface OpencodeWorld extends Base {
  api: FakeChatCompletions;
}

/** A sandbox, a repository, the fake chat-completions API as OpenCode's only provider, and git-mem installed for OpenCode in `scopes`. */
export async function opencodeWorld(scopes: Scope[] = ['project']): Promise<OpencodeWorld> {
  const w = scratch();
  const api = await new FakeChatCompletions().start();
  onTestFinished(() => api.close());
  w.box.env.GIT_MEM_MODEL_URL = `${api.url}/models/all-MiniLM-L6-v2`;
  for (const scope of scopes) memOk(w.repo, w.box.env, ['init', '--opencode', '--scope', scope]);
  // The provider and model go beside what git-mem wrote in the project's opencode.json.
  const configFile = path.join(w.repo, 'opencode.json');
  const config = fs.existsSync(configFile) ? (JSON.parse(fs.readFileSync(configFile, 'utf8')) as Record<string, unknown>) : {};
  config.provider = { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${api.url}/v1`, apiKey: 'test' }, models: { 'fake-model': { name: 'Fake model', tool_call: true } } } };
  config.model = 'fake/fake-model';
  config.small_model = 'fake/fake-model';
  config.autoupdate = false;
  config.share = 'disabled';
  config.permission = { edit: 'allow', bash: 'allow', webfetch: 'deny' };
  fs.writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  w.setEnv({
    ...w.box.env,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    XDG_DATA_HOME: path.join(w.box.root, '.local', 'share'),
    XDG_CONFIG_HOME: path.join(w.box.root, '.config'),
    XDG_STATE_HOME: path.join(w.box.root, '.local', 'state'),
  });
  return { box: w.box, repo: w.repo, env: w.env, api };
}

/** One `opencode run --format json` in the world's repository. */
export function opencode(w: OpencodeWorld, prompt: string, args: string[] = []): Promise<Run> {
  return run([opencodeBin(), 'run', '--format', 'json', ...args, prompt], w.repo, w.env, 90_000);
}

// ------------------------------------------------------------------ memories

export interface StoredMemory {
  id: string;
  namespace: string;
  summary: string;
  body: string;
  source: string | null;
}

export function memories(w: Base): StoredMemory[] {
  return JSON.parse(memOk(w.repo, w.box.env, ['list', '--json', '--limit', '1000'])) as StoredMemory[];
}

/** A commit that adds `file` (relative to the repository) with `content`; its absolute path. */
export function commitFile(w: Base, file: string, content: string, message = `Add ${file}`): string {
  const abs = path.join(w.repo, file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  git(w.repo, w.box.env, ['add', file]);
  git(w.repo, w.box.env, ['commit', '-qm', message]);
  return abs;
}

/** Every `<tag …>…</tag>` block in `text`. */
export function blocks(text: string, tag: string): string[] {
  return [...text.matchAll(new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`, 'g'))].map((m) => m[0]);
}

/**
 * The memories the session-start, prompt and file tests share: a blocker for the session's start,
 * a decision a recall question asks about, a learning on the commit that adds a file, a pattern
 * for the MCP recall tool. Returns the file's absolute path.
 */
export function seedMemories(w: Base): string {
  memOk(w.repo, w.box.env, ['capture', 'blockers', 'CI runners lack git-daemon']);
  memOk(w.repo, w.box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index', '-m', 'No native modules to build on user machines.']);
  const file = commitFile(w, 'src/upload_retry.ts', 'export const retries = 3;\n', 'Add upload retry');
  memOk(w.repo, w.box.env, ['capture', 'learnings', 'S3 returns 503 under load; back off before retrying']);
  git(w.repo, w.box.env, ['commit', '-q', '--allow-empty', '-m', 'later']);
  memOk(w.repo, w.box.env, ['capture', 'patterns', 'Name feature branches after the issue number']);
  memOk(w.repo, w.box.env, ['capture', 'learnings', 'Webhook retries need idempotency keys']);
  return file;
}

/** A capture block in a reply, and the summary it gives. */
export const CAPTURE_BLOCK = '▶ decisions ─── Retry uploads with exponential backoff\nJitter avoids a thundering herd.\n───';
export const CAPTURED = 'Retry uploads with exponential backoff';

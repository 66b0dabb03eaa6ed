/**
 * Running the real Gemini CLI (`gemini -p`) and OpenCode (`opencode run`), pinned as dev
 * dependencies, offline against fake model APIs on 127.0.0.1, in scratch repositories with a
 * scratch HOME and git-mem installed by the compiled binary's `git mem init --gemini` / `--opencode`.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { git, makeRepo, memOk, type Sandbox, sandbox } from '../../helpers.ts';
import { FakeChatCompletions } from './fake-chat-completions-api.ts';
import { FakeGemini } from './fake-gemini-api.ts';

const ROOT = path.resolve(import.meta.dirname, '../../../..');
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
  return stderr.split('\n').filter((l) => /git-mem (?:plugin|hook)\b|^git-mem:|hook.*(?:fail|error|timed out)/i.test(l) && !l.startsWith('Hook system message: git-mem: '));
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

/**
 * OpenCode installs its plugin package (@opencode-ai/plugin, about 60 MB, from the npm registry) into
 * every config directory holding plugins, and the provider package into its cache, at a session's
 * start (about 50 s), and creates its database at its first start (about 20 s). Done once per machine here (global-setup.ts primes it), then hard-linked into
 * each test's directories.
 */
export const OPENCODE_DEPS = path.join(os.tmpdir(), 'git-mem-test-opencode-deps');
const DEPS_FILES = ['package.json', 'package-lock.json', 'bun.lock', '.gitignore', 'node_modules'];

/** Whether the primed dependencies are there. */
export const opencodeDepsReady = (): boolean => fs.existsSync(path.join(OPENCODE_DEPS, 'config', 'node_modules', '@opencode-ai', 'plugin', 'package.json')) && fs.existsSync(path.join(OPENCODE_DEPS, 'data', 'opencode.db'));

/** A copy of the primed database (created and migrated at a first start: about 20 s) in a data directory. */
function copyDatabase(dataHome: string): void {
  const dir = path.join(dataHome, 'opencode');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of fs.readdirSync(path.join(OPENCODE_DEPS, 'data'))) fs.copyFileSync(path.join(OPENCODE_DEPS, 'data', name), path.join(dir, name));
}

/** Copies (hard links) the primed plugin dependencies into an OpenCode config directory. */
function linkDeps(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const name of DEPS_FILES) {
    const from = path.join(OPENCODE_DEPS, 'config', name);
    if (fs.existsSync(from) && !fs.existsSync(path.join(dir, name))) execFileSync('cp', ['-al', from, path.join(dir, name)]);
  }
}

/** Runs OpenCode once in a scratch repository with a plugin, keeping what it installed. */
export async function primeOpencodeDeps(): Promise<void> {
  if (opencodeDepsReady()) return;
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-opencode-prime-'));
  const api = await new FakeChatCompletions().start();
  try {
    const repo = path.join(root, 'repo');
    fs.mkdirSync(path.join(repo, '.opencode', 'plugins'), { recursive: true });
    execFileSync('git', ['init', '-q', repo]);
    fs.writeFileSync(path.join(repo, '.opencode', 'plugins', 'noop.js'), 'export const Noop = async () => ({});\n');
    fs.writeFileSync(path.join(repo, 'opencode.json'), JSON.stringify(providerConfig(api.url)));
    const cache = path.join(root, 'cache');
    const r = await run([opencodeBin(), 'run', '--format', 'json', 'hi'], repo, { PATH: process.env.PATH, HOME: root, XDG_CACHE_HOME: cache, XDG_CONFIG_HOME: path.join(root, '.config'), XDG_DATA_HOME: path.join(root, '.data'), OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1' }, 300_000);
    if (!fs.existsSync(path.join(repo, '.opencode', 'node_modules', '@opencode-ai', 'plugin'))) throw new Error(`OpenCode did not install its plugin package (exit ${r.code}): ${r.stderr.slice(0, 1000)}`);
    const staging = `${OPENCODE_DEPS}.${process.pid}`;
    fs.mkdirSync(path.join(staging, 'config'), { recursive: true });
    for (const name of DEPS_FILES) if (fs.existsSync(path.join(repo, '.opencode', name))) fs.renameSync(path.join(repo, '.opencode', name), path.join(staging, 'config', name));
    fs.renameSync(cache, path.join(staging, 'cache'));
    fs.mkdirSync(path.join(staging, 'data'));
    const db = path.join(root, '.data', 'opencode');
    for (const name of fs.readdirSync(db).filter((n) => n.startsWith('opencode.db'))) fs.renameSync(path.join(db, name), path.join(staging, 'data', name));
    fs.rmSync(OPENCODE_DEPS, { recursive: true, force: true });
    fs.renameSync(staging, OPENCODE_DEPS);
  } finally {
    await api.close();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

/** The provider entry for the fake, and the model OpenCode uses. */
function providerConfig(url: string): Record<string, unknown> {
  return {
    provider: { fake: { npm: '@ai-sdk/openai-compatible', name: 'Fake', options: { baseURL: `${url}/v1`, apiKey: 'test' }, models: { 'fake-model': { name: 'Fake model', tool_call: true } } } },
    model: 'fake/fake-model',
    small_model: 'fake/fake-model',
    autoupdate: false,
    share: 'disabled',
  };
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
  Object.assign(config, providerConfig(api.url));
  config.permission = { edit: 'allow', bash: 'allow', webfetch: 'deny' };
  fs.writeFileSync(configFile, `${JSON.stringify(config, null, 2)}\n`);
  const configHome = path.join(w.box.root, '.config');
  linkDeps(path.join(w.repo, '.opencode'));
  if (scopes.includes('user')) linkDeps(path.join(configHome, 'opencode'));
  copyDatabase(path.join(w.box.root, '.local', 'share'));
  w.setEnv({
    ...w.box.env,
    OPENCODE_DISABLE_MODELS_FETCH: '1',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_LSP_DOWNLOAD: '1',
    OPENCODE_DISABLE_DEFAULT_PLUGINS: '1',
    XDG_DATA_HOME: path.join(w.box.root, '.local', 'share'),
    XDG_CONFIG_HOME: configHome,
    XDG_CACHE_HOME: path.join(OPENCODE_DEPS, 'cache'),
    XDG_STATE_HOME: path.join(w.box.root, '.local', 'state'),
  });
  return { box: w.box, repo: w.repo, env: w.env, api };
}

/** One `opencode run --format json` in the world's repository. */
export async function opencode(w: OpencodeWorld, prompt: string, args: string[] = []): Promise<Run> {
  const log = process.env.OPENCODE_TEST_LOG;
  const r = await run([opencodeBin(), 'run', '--format', 'json', ...(log ? ['--print-logs', '--log-level', 'INFO'] : []), ...args, prompt], w.repo, w.env, 90_000);
  if (log) fs.appendFileSync(log, `=== ${prompt} ${r.ms} ms\n${r.stderr}\n`);
  return r;
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

/**
 * Running the real Codex CLI (`codex exec`) and Copilot CLI (`copilot -p`), pinned as dev
 * dependencies, offline against the fake OpenAI APIs (fake-openai.ts), in scratch repositories
 * with a scratch HOME and git-mem set up by the compiled binary's `git mem init --codex` or
 * `--copilot`.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { onTestFinished } from 'vitest';
import { git, makeRepo, memOk, type Sandbox, sandbox } from '../helpers.ts';
import { type Client, clientBin } from './clients.ts';
import { FakeOpenAI } from './fake-openai.ts';

export { type Client, clientBin };

export interface World {
  client: Client;
  box: Sandbox;
  repo: string;
  api: FakeOpenAI;
  env: NodeJS.ProcessEnv;
}

/** A sandbox, a repository, the fake API, the client configured for it, and git-mem installed `installs` times. */
export async function world(client: Client, options: { installs?: number } = {}): Promise<World> {
  const box = sandbox();
  const repo = makeRepo(box, 'repo', 1);
  const api = await new FakeOpenAI().start();
  onTestFinished(() => api.close());
  box.env.GIT_MEM_MODEL_URL = `${api.url}/models/all-MiniLM-L6-v2`;
  box.env.XDG_CACHE_HOME = path.join(box.root, '.cache');
  // The client on the sandbox's PATH: git mem init --codex asks it to trust the hooks.
  fs.symlinkSync(clientBin(client), path.join(box.root, 'bin', client));
  let env: NodeJS.ProcessEnv;
  if (client === 'codex') {
    const codexHome = path.join(box.root, '.codex');
    fs.mkdirSync(codexHome, { recursive: true });
    // A provider for the fake, and the project trusted (Codex ignores a project's .codex/ otherwise).
    fs.writeFileSync(
      path.join(codexHome, 'config.toml'),
      [
        'model = "gpt-5.5"',
        'model_provider = "fake"',
        'check_for_update_on_startup = false',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${api.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_API_KEY"',
        'request_max_retries = 0',
        'stream_max_retries = 0',
        `[projects."${repo}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    );
    box.env.CODEX_HOME = codexHome;
    env = { ...box.env, FAKE_API_KEY: 'test' };
  } else {
    env = { ...box.env, COPILOT_OFFLINE: 'true', COPILOT_PROVIDER_BASE_URL: `${api.url}/v1`, COPILOT_PROVIDER_API_KEY: 'test', COPILOT_MODEL: api.model };
  }
  for (let i = 0; i < (options.installs ?? 1); i++) memOk(repo, box.env, ['init', `--${client}`]);
  return { client, box, repo, api, env };
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** One non-interactive session of the world's client on `prompt`; resolves when the process exits. */
export function session(w: World, prompt: string, options: { timeoutMs?: number; args?: string[] } = {}): Promise<Run> {
  const args =
    w.client === 'codex'
      ? ['exec', '--json', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox', ...(options.args ?? []), prompt]
      : ['-p', prompt, '--allow-all-tools', '--trust-folder', '--output-format', 'json', ...(options.args ?? [])];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(clientBin(w.client), args, { cwd: w.repo, env: w.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? -1, stdout, stderr, ms: performance.now() - started });
    });
  });
}

/** A session that must have ended well: exit 0 and the fake's scripted replies all used. */
export async function sessionOk(w: World, prompt: string, options: { args?: string[] } = {}): Promise<Run> {
  const run = await session(w, prompt, options);
  if (run.code !== 0) throw new Error(`${w.client} exited ${run.code}\nstdout: ${run.stdout.slice(-3000)}\nstderr: ${run.stderr.slice(-3000)}\nother requests: ${JSON.stringify(w.api.others)}`);
  return run;
}

export interface StoredMemory {
  id: string;
  namespace: string;
  summary: string;
  body: string;
  source: string | null;
}

export function memories(w: World): StoredMemory[] {
  return JSON.parse(memOk(w.repo, w.box.env, ['list', '--json', '--limit', '1000'])) as StoredMemory[];
}

/** Every `<tag …>…</tag>` block in `text`. */
export function blocks(text: string, tag: string): string[] {
  return [...text.matchAll(new RegExp(`<${tag}[\\s>][\\s\\S]*?</${tag}>`, 'g'))].map((m) => m[0]);
}

/** A commit that adds `file` with `content`; its absolute path. */
export function commitFile(w: World, file: string, content: string): string {
  const abs = path.join(w.repo, file);
  fs.mkdirSync(path.dirname(abs), { recursive: true });
  fs.writeFileSync(abs, content);
  git(w.repo, w.box.env, ['add', file]);
  git(w.repo, w.box.env, ['commit', '-qm', `Add ${file}`]);
  return abs;
}

/** Running `git mem ui` from the built binary, and Debian's Chromium (never a downloaded browser) driven by playwright-core. */
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAVE_CHROMIUM = fs.existsSync(CHROMIUM);
export const NO_CHROMIUM = `${CHROMIUM} is absent: browser tests skipped (apt-get install -y chromium; .ci/run installs it)`;

/** Flags that keep Chromium off the network and out of the person's profile. */
export const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface UiProcess {
  url: string;
  base: string;
  port: number;
  token: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `git mem ui --no-open` in `cwd`; resolves with the URL it prints. */
export function startUi(bin: string, cwd: string, env: NodeJS.ProcessEnv, args: string[] = []): Promise<UiProcess> {
  const child = spawn(bin, ['ui', '--no-open', ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0]!;
      if (!out.includes('\n')) return;
      const u = new URL(line.trim());
      resolve({
        url: line.trim(),
        base: `${u.protocol}//${u.host}/`,
        port: Number(u.port),
        token: u.searchParams.get('token') ?? '',
        child,
        stop: () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.once('exit', (code) => reject(new Error(`git mem ui exited ${code}: ${stderr}`)));
  });
}

export interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A plain HTTP request with whatever headers (Host included), as a script or another site would send. */
export function request(port: number, options: { method?: string; path?: string; headers?: Record<string, string>; body?: string }): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path ?? '/', headers: options.headers ?? {}, setHost: !options.headers?.Host }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A fresh Chromium profile in a temporary folder, at 1280×800. */
export async function launchChromium(): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const { chromium } = await import('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: CHROMIUM_ARGS, viewport: { width: 1280, height: 800 } });
  return {
    context,
    close: async () => {
      await context.close();
      fs.rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Where screenshots are kept (not committed): test-results/ui/. */
export function shotsDir(): string {
  const dir = path.resolve(import.meta.dirname, '../../test-results/ui');
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** helpers.ts's sandbox, kept for a whole suite (the server outlives one test): removed by `remove()`. */
export function suiteSandbox(bin: string): { root: string; env: NodeJS.ProcessEnv; remove(): void } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-ui-test-'));
  const binDir = path.join(root, 'bin');
  fs.mkdirSync(binDir);
  fs.symlinkSync(bin, path.join(binDir, 'git-mem'));
  const gitconfig = path.join(root, 'gitconfig');
  fs.writeFileSync(gitconfig, '[user]\n\tname = Test User\n\temail = test@example.com\n[init]\n\tdefaultBranch = main\n[gc]\n\tauto = 0\n');
  const env: NodeJS.ProcessEnv = { PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: root, GIT_CONFIG_GLOBAL: gitconfig, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1', TMPDIR: os.tmpdir() };
  return { root, env, remove: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** Checks that the pinned Claude Code client is installed and runs, before any session starts. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { claudeBin } from './client.ts';

export default function setup(): void {
  const bin = claudeBin();
  if (!fs.existsSync(bin)) throw new Error(`Claude Code is not installed at ${bin}: run npm ci (it is a devDependency), or set CLAUDE_BIN`);
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-claude-version-'));
  try {
    const version = execFileSync(bin, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, DISABLE_AUTOUPDATER: '1' }, timeout: 30_000 }).trim();
    if (!/^\d+\.\d+\.\d+/.test(version)) throw new Error(`${bin} --version printed ${JSON.stringify(version)}: not a working Claude Code binary`);
    console.log(`Claude Code ${version} (${bin})`);
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  process.env.CLAUDE_BIN = bin;
}

/** Checks that the pinned Gemini CLI and OpenCode clients are installed and run, before any session starts. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { geminiBin, opencodeBin, primeOpencodeDeps } from './harness.ts';

export default async function setup(): Promise<void> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-agents-version-'));
  try {
    for (const [name, command] of [
      ['Gemini CLI', [process.execPath, geminiBin()]],
      ['OpenCode', [opencodeBin()]],
    ] as const) {
      if (!fs.existsSync(command.at(-1)!)) throw new Error(`${name} is not installed at ${command.at(-1)}: run npm ci (it is a devDependency)`);
      const version = execFileSync(command[0], [...command.slice(1), '--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config'), XDG_DATA_HOME: path.join(home, '.data') }, timeout: 60_000 }).trim();
      if (!/\d+\.\d+\.\d+/.test(version)) throw new Error(`${command.join(' ')} --version printed ${JSON.stringify(version)}`);
      console.log(`${name} ${version}`);
    }
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
  // OpenCode's plugin package, installed once (from the npm registry) instead of at every session's start.
  await primeOpencodeDeps();
}

/** Checks that the pinned Codex and Copilot clients are installed and run, before any session starts. */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Client, clientBin } from './clients.ts';

export default function setup(): void {
  for (const client of ['codex', 'copilot'] as Client[]) {
    const bin = clientBin(client);
    if (!fs.existsSync(bin)) throw new Error(`${client} is not installed at ${bin}: run npm ci (it is a devDependency)`);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), `git-mem-${client}-version-`));
    try {
      const version = execFileSync(bin, ['--version'], { encoding: 'utf8', env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home }, timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
      if (!/\d+\.\d+\.\d+/.test(version)) throw new Error(`${bin} --version printed ${JSON.stringify(version)}`);
      console.log(`${client} ${version.split('\n')[0]} (${bin})`);
    } finally {
      fs.rmSync(home, { recursive: true, force: true });
    }
  }
}

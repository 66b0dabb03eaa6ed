/** Builds the binary once (unless GIT_MEM_BIN names one) so e2e tests drive what users run. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup(): void {
  if (process.env.GIT_MEM_BIN) return;
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  process.env.GIT_MEM_BIN = path.join(root, 'dist', 'git-mem');
}

/**
 * Escape sequences in memory text never reach a terminal, whatever prints
 * them: the markdown documents (export md and claude-md, log --format md)
 * too. Written to a file or a pipe they stay exact, as --json keeps them.
 * The terminal is a real pseudo-terminal (util-linux `script`).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, memOk, sandbox } from './helpers.ts';

const ESC = '\u001b';
const hasScript = spawnSync('script', ['--version']).status === 0;

/** What `git mem <args>` writes to a terminal (its stdout a pty), and its exit code. */
function onTerminal(cwd: string, env: NodeJS.ProcessEnv, args: string[]): { code: number; screen: string } {
  const quoted = ['git', 'mem', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const r = spawnSync('script', ['-qec', quoted, '/dev/null'], { cwd, env: { ...env, GIT_PAGER: 'cat', PAGER: 'cat', TERM: 'xterm' }, encoding: 'utf8' });
  return { code: r.status ?? -1, screen: r.stdout };
}

/** Controls other than tab and line ends (a pty turns \n into \r\n). */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

describe.skipIf(!hasScript)('terminal escapes in markdown documents', () => {
  it('are shown, not sent, by export md, export claude-md and log --format md on a terminal, and kept exact in a file or a pipe', () => {
    const box = sandbox();
    const dir = makeRepo(box, 'repo', 2);
    const summary = `Copy ${ESC}]52;c;cm0gLXJmIH4=${ESC}\\ then ${ESC}]8;;https://evil.example${ESC}\\link${ESC}]8;;${ESC}\\`;
    const body = `Body ${ESC}[2J${ESC}]0;pwned\u0007 cleared\rspoof \u009b31m`;
    memOk(dir, box.env, ['capture', 'decisions', summary, '-m', body]);
    const documents = [
      ['export', '--format', 'md'],
      ['export', '--format', 'claude-md'],
      ['log', 'HEAD~1..HEAD', '--format', 'md'],
    ];
    for (const args of documents) {
      const { code, screen } = onTerminal(dir, box.env, args);
      expect(code, args.join(' ')).toBe(0);
      expect(screen, args.join(' ')).not.toMatch(CONTROLS);
      expect(screen, args.join(' ')).toContain('Copy ^[]52;c;cm0gLXJmIH4=^[\\ then ^[]8;;https://evil.example^[\\link');
      // Exact in a pipe (stdout here is one).
      const piped = memOk(dir, box.env, args);
      expect(piped, args.join(' ')).toContain(summary);
    }
    for (const args of [documents[0]!, documents[2]!]) expect(memOk(dir, box.env, args), args.join(' ')).toContain(body);

    // -o: a file keeps the text exact; a terminal named as the file shows it.
    const file = path.join(box.root, 'out.md');
    memOk(dir, box.env, ['export', '--format', 'md', '-o', file]);
    expect(fs.readFileSync(file, 'utf8')).toContain(body);
    const { code, screen } = onTerminal(dir, box.env, ['export', '--format', 'md', '-o', '/dev/tty']);
    expect(code).toBe(0);
    expect(screen).not.toMatch(CONTROLS);
    expect(screen).toContain('Body ^[[2J^[]0;pwned^G cleared^Mspoof <U+009B>31m');
    // The note itself is untouched.
    expect(git(dir, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'show', 'HEAD'])).toContain(ESC);
  });
});

/**
 * The OpenCode plugin `git mem init --opencode` writes, loaded as OpenCode loads it (an ES module
 * whose export is called with the project's directory) and its hooks called as OpenCode calls them,
 * with the compiled git-mem, and with a git-mem that fails or hangs: the session must go on.
 * The plugin inside the real OpenCode is in test/e2e/agents/opencode.spec.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, makeRepo, memOk, sandbox } from './helpers.ts';

type Hooks = Record<string, (input: unknown, output?: unknown) => Promise<void>>;

const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

/** Loads the plugin installed in `repo`, with `gitMem` as the git-mem it finds on PATH. */
async function load(root: string, repo: string, gitMem: string): Promise<Hooks> {
  const bin = path.join(root, `plugin-bin-${Math.random().toString(36).slice(2)}`);
  fs.mkdirSync(bin);
  fs.symlinkSync(gitMem, path.join(bin, 'git-mem'));
  // The plugin spawns with OpenCode's environment: here, this process's.
  process.env.PATH = `${bin}:${PATH}`;
  const file = path.join(repo, '.opencode', 'plugins', 'git-mem.js');
  const mod = (await import(`${pathToFileURL(file).href}?${Math.random()}`)) as { GitMem: (ctx: { directory: string; worktree: string }) => Promise<Hooks> };
  return mod.GitMem({ directory: repo, worktree: repo });
}

function script(root: string, name: string, body: string): string {
  const file = path.join(root, name);
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

const message = (sessionID: string, text: string) => ({ message: { id: 'msg_1', sessionID }, parts: [{ id: 'prt_1', sessionID, messageID: 'msg_1', type: 'text', text }] });

describe('the OpenCode plugin', () => {
  it('with git-mem: context for the system prompt, a prompt and a read; the turn captured at idle', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['init', '--opencode']);
    memOk(repo, box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index']);
    memOk(repo, box.env, ['capture', 'learnings', 'file0 holds the seed content', '--paths', 'file0.txt']);
    // git-mem reads its settings and git's from this environment.
    const saved = { HOME: process.env.HOME, GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL };
    Object.assign(process.env, { HOME: box.env.HOME, GIT_CONFIG_GLOBAL: box.env.GIT_CONFIG_GLOBAL });
    try {
      const hooks = await load(box.root, repo, BIN);
      const system = { system: ['You are OpenCode.'] };
      await hooks['experimental.chat.system.transform']!({ sessionID: 's1', model: {} }, system);
      expect(system.system).toHaveLength(2);
      expect(system.system[1]).toContain('<memory_context');
      // Every later request of the session carries it too, from one SessionStart.
      const again = { system: ['You are OpenCode.'] };
      await hooks['experimental.chat.system.transform']!({ sessionID: 's1', model: {} }, again);
      expect(again.system[1]).toBe(system.system[1]);

      const plain = message('s1', 'Write a factorial function');
      await hooks['chat.message']!({ sessionID: 's1' }, plain);
      expect(plain.parts).toHaveLength(1);
      const asked = message('s1', 'Why did we pick sql.js for the index?');
      await hooks['chat.message']!({ sessionID: 's1' }, asked);
      expect(asked.parts[1]).toEqual({ id: 'prt_1-git-mem', sessionID: 's1', messageID: 'msg_1', type: 'text', synthetic: true, text: expect.stringContaining('Chose sql.js over better-sqlite3') });

      const read = { title: 'file0.txt', output: 'content 0', metadata: {} };
      await hooks['tool.execute.after']!({ tool: 'read', sessionID: 's1', callID: 'c1', args: { filePath: path.join(repo, 'file0.txt') } }, read);
      expect(read.output).toMatch(/^content 0\n\n<related_memories file=".*file0\.txt">/);
      const bash = { title: 'ls', output: 'file0.txt', metadata: {} };
      await hooks['tool.execute.after']!({ tool: 'bash', sessionID: 's1', callID: 'c2', args: { command: 'ls' } }, bash);
      expect(bash.output).toBe('file0.txt');

      // The turn's assistant text, streamed as parts, then idle: a detached Stop captures it.
      await hooks.event!({ event: { type: 'message.updated', properties: { info: { id: 'msg_2', role: 'assistant', sessionID: 's1' } } } });
      await hooks.event!({ event: { type: 'message.part.updated', properties: { part: { id: 'prt_2', sessionID: 's1', messageID: 'msg_2', type: 'text', text: 'Done.' } } } });
      await hooks.event!({ event: { type: 'message.part.updated', properties: { part: { id: 'prt_2', sessionID: 's1', messageID: 'msg_2', type: 'text', text: 'Done.\n\n[decision] Keep seed files small' } } } });
      await hooks.event!({ event: { type: 'session.idle', properties: { sessionID: 's1' } } });
      let listed = '';
      for (let i = 0; i < 60 && !listed.includes('Keep seed files small'); i++) {
        await new Promise((r) => setTimeout(r, 250));
        listed = memOk(repo, box.env, ['list', '--json']);
      }
      expect(listed).toContain('Keep seed files small');
    } finally {
      Object.assign(process.env, saved);
    }
  });

  it('with a git-mem that prints garbage, fails or hangs: no context, no exception, one line on stderr', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['init', '--opencode']);
    const lines: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }) as typeof process.stderr.write;
    try {
      const garbage = await load(box.root, repo, script(box.root, 'garbage', 'cat >/dev/null; echo "not json"'));
      const out = message('s2', 'Why did we pick sql.js?');
      await garbage['chat.message']!({ sessionID: 's2' }, out);
      expect(out.parts).toHaveLength(1);
      expect(lines.join('')).toContain('git-mem plugin: UserPromptSubmit: not a JSON reply');

      const failing = await load(box.root, repo, script(box.root, 'failing', 'cat >/dev/null; echo "boom" >&2; exit 3'));
      const system = { system: ['base'] };
      await failing['experimental.chat.system.transform']!({ sessionID: 's3' }, system);
      expect(system.system).toEqual(['base']);
      expect(lines.join('')).toContain('git-mem plugin: boom');

      // A hook that never answers: the plugin gives up after its timeout and the call resolves.
      const hanging = await load(box.root, repo, script(box.root, 'hanging', 'exec sleep 60'));
      const read = { output: 'x' };
      await hanging['tool.execute.after']!({ tool: 'read', sessionID: 's4', args: { filePath: path.join(repo, 'file0.txt') } }, read);
      expect(read.output).toBe('x');
      expect(lines.join('')).toContain('git-mem plugin: PostToolUse took longer than 10000 ms; going on without it');
    } finally {
      process.stderr.write = write;
    }
  }, 30_000);
});

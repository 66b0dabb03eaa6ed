/**
 * Codex CLI and Copilot CLI sessions with git-mem: what reaches the model (session-start context,
 * recall on a question, a file's memories before a read or an edit), what is captured (a block in
 * the reply, once), the MCP recall tool, and hooks installed twice answering once. Real clients
 * against the fake model API (harness.ts); git-mem installed by `git mem init --codex/--copilot`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, mem, memOk } from '../helpers.ts';
import { type CallItem, call, type RecordedRequest, requestText, toolNames } from './fake-openai.ts';
import { blocks, type Client, commitFile, memories, sessionOk, type World, world } from './harness.ts';

/** The client's tool call that reads `file` (Codex: a shell command; Copilot: its view tool). */
function readCall(w: World, file: string): CallItem {
  return w.client === 'codex' ? call('exec_command', { cmd: `cat ${path.relative(w.repo, file)}` }) : call('view', { path: file });
}

/** The client's tool call that replaces `from` by `to` in `file` (Codex: apply_patch; Copilot: edit). */
function editCall(w: World, file: string, from: string, to: string): CallItem {
  if (w.client === 'copilot') return call('edit', { path: file, old_str: from, new_str: to });
  const patch = ['*** Begin Patch', `*** Update File: ${path.relative(w.repo, file)}`, '@@', `-${from}`, `+${to}`, '*** End Patch'].join('\n');
  return call('apply_patch', patch, { custom: true });
}

/** The MCP recall tool's call, by the name the client offers it under. */
function recallCall(w: World, query: string) {
  return (r: RecordedRequest): CallItem[] => {
    if (w.client === 'codex') return [call('recall', { query }, { namespace: 'mcp__gitmem' })];
    const name = toolNames(r.body).find((n) => /git.?mem/i.test(n) && /recall$/.test(n));
    if (!name) throw new Error(`no git-mem recall tool offered: ${toolNames(r.body).join(', ')}`);
    return [call(name, { query })];
  };
}

const requestOf = (r: RecordedRequest | undefined) => (r ? requestText(r.body) : '');

/** The same sessions for each client: codex.spec.ts and copilot.spec.ts (two files, so the two clients run in parallel). */
export function sessionTests(client: Client): void {
  describe(`${client} sessions`, () => {
    it('puts the session-start memory context in the first request, once', async () => {
      const w = await world(client);
      memOk(w.repo, w.box.env, ['capture', 'blockers', 'CI runners lack git-daemon']);
      memOk(w.repo, w.box.env, ['capture', 'decisions', 'Use sql.js and FTS4 for the index']);
      w.api.script('Hello.');
      await sessionOk(w, 'Say hello');
      expect(w.api.main.length).toBeGreaterThanOrEqual(1);
      const first = requestOf(w.api.main[0]);
      const [context, ...more] = blocks(first, 'memory_context');
      expect(more).toEqual([]);
      expect(context).toContain('CI runners lack git-daemon');
      expect(context).toContain('Use sql.js and FTS4 for the index');
    });

    it('brings the memories a prompt asks to recall into its request', async () => {
      const w = await world(client);
      memOk(w.repo, w.box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index', '-m', 'No native modules to build.']);
      memOk(w.repo, w.box.env, ['capture', 'learnings', 'Webhook retries need idempotency keys']);
      w.api.script('Because of native modules.');
      await sessionOk(w, 'Why did we pick sql.js for the index?');
      const [recalled, ...more] = blocks(requestOf(w.api.main[0]), 'recalled_memories');
      expect(more).toEqual([]);
      expect(recalled).toContain('Chose sql.js over better-sqlite3 for the index');
      expect(recalled).not.toContain('Webhook retries');
    });

    it("brings a file's memories when the agent reads it, and before it edits it in a new session", async () => {
      const w = await world(client);
      const file = commitFile(w, 'src/upload_retry.ts', 'export const retries = 3;\n');
      memOk(w.repo, w.box.env, ['capture', 'learnings', 'S3 returns 503 under load; back off before retrying']);
      git(w.repo, w.box.env, ['commit', '-q', '--allow-empty', '-m', 'later']);
      memOk(w.repo, w.box.env, ['capture', 'decisions', 'Unrelated: indent with tabs']);

      w.api.script([readCall(w, file)], 'Read it.');
      await sessionOk(w, 'Look at the upload retries');
      const afterRead = requestOf(w.api.main[1]);
      const [related, ...more] = blocks(afterRead, 'related_memories');
      expect(more).toEqual([]);
      expect(related).toContain('S3 returns 503 under load');
      expect(related).not.toContain('Unrelated');

      w.api.script([editCall(w, file, 'export const retries = 3;', 'export const retries = 5;')], 'Raised.');
      await sessionOk(w, 'Raise the retries to 5');
      expect(fs.readFileSync(file, 'utf8')).toBe('export const retries = 5;\n');
      const afterEdit = requestOf(w.api.main.at(-1));
      expect(blocks(afterEdit, 'related_memories').join('\n')).toContain('S3 returns 503 under load');
    });

    it('captures a block the reply writes, once, and not again when it is repeated', async () => {
      const w = await world(client);
      const block = '▶ decisions ─── Retry uploads with exponential backoff\nJitter avoids a thundering herd.\n───';
      w.api.script(`Done.\n\n${block}`);
      await sessionOk(w, 'Make the uploads robust');
      let all = memories(w);
      expect(all.map((m) => m.summary)).toEqual(['Retry uploads with exponential backoff']);
      expect(all[0]!.body).toBe('Jitter avoids a thundering herd.');
      expect(all[0]!.source).toBe('hook:Stop');

      w.api.script(`As before:\n\n${block}`);
      await sessionOk(w, 'Summarise');
      all = memories(w);
      expect(all).toHaveLength(1);
    });

    it('answers the MCP recall tool', async () => {
      const w = await world(client);
      memOk(w.repo, w.box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index']);
      w.api.script(recallCall(w, 'sqlite index'), 'Found it.');
      await sessionOk(w, 'Look up the index decision with the memory tool');
      const after = requestOf(w.api.main[1]);
      expect(after).toContain('Chose sql.js over better-sqlite3 for the index');
      expect(after).toContain('<recorded_memories');
    });

    if (client === 'codex') {
      it('marks its hooks trusted in Codex at init, and --remove takes out the hooks, the MCP table and that trust', async () => {
        const w = await world(client);
        const config = path.join(w.box.root, '.codex', 'config.toml');
        const trusted = fs.readFileSync(config, 'utf8');
        expect(trusted.match(/trusted_hash = "sha256:/g)).toHaveLength(5);
        // Doctor asks codex app-server too (other checks may warn in a sandbox: only this one counts here).
        const checks = JSON.parse(mem(w.repo, w.box.env, ['doctor', '--json']).stdout).checks as Array<{ id: string; status: string; message: string }>;
        expect(checks.find((c) => c.id === 'codex-hooks')).toMatchObject({ status: 'ok', message: expect.stringContaining('trusted by Codex') });
        memOk(w.repo, w.box.env, ['init', '--codex', '--remove']);
        expect(fs.existsSync(path.join(w.repo, '.codex'))).toBe(false);
        const after = fs.readFileSync(config, 'utf8');
        expect(after).not.toContain('trusted_hash');
        expect(after).toContain('model_provider = "fake"');
      });
    }

    if (client === 'codex') {
      it('captures at PreCompact what was said before a compaction, and brings the context back after it', async () => {
        const w = await world(client);
        memOk(w.repo, w.box.env, ['capture', 'blockers', 'CI runners lack git-daemon']);
        const block = '▶ decisions ─── Retry uploads with exponential backoff\nJitter avoids a thundering herd.\n───';
        // A reply that writes the block and runs a command; the tokens it used pass the limit, so Codex compacts before the next request.
        w.api.script([{ type: 'text', text: `Plan first.\n\n${block}` }, call('exec_command', { cmd: 'ls' })], 'Done.');
        await sessionOk(w, 'Make the uploads robust', { args: ['-c', 'model_auto_compact_token_limit=5'] });
        expect(w.api.requests.some((r) => r.kind === 'side')).toBe(true); // the compaction's summary request
        const all = memories(w).filter((m) => m.namespace === 'decisions');
        expect(all.map((m) => [m.summary, m.source])).toEqual([['Retry uploads with exponential backoff', 'hook:PreCompact']]);
        // After the compaction SessionStart (source compact) gives the context again.
        const after = requestOf(w.api.main.at(-1));
        expect(after).toContain('Here is the summary produced by the other language model');
        expect(blocks(after, 'memory_context').join('\n')).toContain('CI runners lack git-daemon');
      });
    }

    if (client === 'copilot') {
      it("answers in Copilot's format from Claude Code's hooks alone (.claude/settings.json, which Copilot runs too)", async () => {
        const w = await world(client, { installs: 0 });
        memOk(w.repo, w.box.env, ['init', '--claude']);
        memOk(w.repo, w.box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index']);
        w.api.script('Because of native modules.');
        await sessionOk(w, 'Why did we pick sql.js for the index?');
        const first = requestOf(w.api.main[0]);
        expect(blocks(first, 'memory_context')).toHaveLength(1);
        expect(blocks(first, 'recalled_memories').join('\n')).toContain('Chose sql.js over better-sqlite3');
      });
    }

    it('answers once when its hooks are installed twice', async () => {
      const w = await world(client, { installs: 2 });
      memOk(w.repo, w.box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the index']);
      // Claude Code's hooks too: Copilot runs those as well.
      memOk(w.repo, w.box.env, ['init', '--claude']);
      w.api.script('Because of native modules.');
      await sessionOk(w, 'Why did we pick sql.js for the index?');
      const first = requestOf(w.api.main[0]);
      expect(blocks(first, 'memory_context')).toHaveLength(1);
      expect(blocks(first, 'recalled_memories')).toHaveLength(1);
    });
  });
}

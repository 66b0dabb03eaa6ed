/**
 * What git-mem's hooks capture from real sessions: Stop across turns, PreCompact on
 * /compact, redaction of secrets, and hooks registered twice.
 * Real `claude -p` sessions against the fake model API (see harness.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { memOk } from '../helpers.ts';
import { isCompaction, read, requestText, text } from './fake-api.ts';
import { allNotesHistory, blocks, capturedMessages, checked, claudeOk, commitFile, hookRuns, memories, summaries, textAfterToolResult, toolIds, world } from './harness.ts';

describe('Claude Code sessions: captures', () => {
  it('captures markers and high-confidence statements from replies at Stop, once each, across turns', async () => {
    const w = await world();
    const block = '▶ decisions ─── Retry uploads with exponential backoff\nJitter avoids a thundering herd.\n───';
    const statement = 'We decided to always pin the Node version in CI.';
    const til = 'TIL git fans a notes tree out once it holds more than 255 notes.';

    w.api.script(`Done.\n\n${block}`);
    const t1 = await claudeOk(w, 'Make the uploads robust');
    const id = t1.json.session_id;
    let entries = checked(w, t1);
    expect(summaries(w)).toEqual(['Retry uploads with exponential backoff']);
    expect(capturedMessages(entries)).toEqual([expect.stringMatching(/^git-mem: captured decisions:\w+:\w+ Retry uploads with exponential backoff$/)]);

    w.api.script(`Updated the workflow. ${statement}\n\n${til}`);
    const t2 = await claudeOk(w, 'Pin node in CI', { resume: id });
    expect(t2.json.session_id).toBe(id);
    entries = checked(w, t2);
    expect(summaries(w)).toEqual(['Retry uploads with exponential backoff', til, statement].sort());

    // Repeats, in the same session and in a new one, add nothing; a new marker is captured.
    w.api.script(`As before:\n\n${block}\n\n${statement}\n\n[decision] Keep the index out of the work tree`);
    entries = checked(w, await claudeOk(w, 'Summarise', { resume: id }));
    w.api.script(`Recap.\n\n${block}\n\n${til}`);
    checked(w, await claudeOk(w, 'Recap in a new session'));

    const all = memories(w);
    expect(all.map((m) => m.summary).sort()).toEqual(['Keep the index out of the work tree', 'Retry uploads with exponential backoff', til, statement].sort());
    for (const m of all) expect(m.source).toBe('hook:Stop');
    expect(all.find((m) => m.summary === 'Retry uploads with exponential backoff')!.body).toBe('Jitter avoids a thundering herd.');
    expect(all.find((m) => m.summary === til)!.namespace).toBe('learnings');
    // One "captured" line per memory over the whole session, each shown once.
    const shown = capturedMessages(entries).flatMap((m) => m.split('\n'));
    expect(shown).toHaveLength(4);
    expect(new Set(shown).size).toBe(4);

    // A compaction of the same session finds nothing new either.
    checked(w, await claudeOk(w, '/compact', { resume: id }));
    expect(memories(w)).toHaveLength(4);
  });

  it('captures at Stop a marker the reply wrote before a tool call, not only in its last message', async () => {
    const w = await world();
    const file = commitFile(w, 'src/upload.ts', 'export const retries = 3;\n');
    const block = '▶ decisions ─── Uploads retry with exponential backoff\nJitter avoids a thundering herd.\n───';
    w.api.script([text(`Plan first.\n\n${block}`), read(file)], 'Read it; nothing else to change.');
    const run = await claudeOk(w, 'Check the upload retries');
    const entries = checked(w, run);
    expect(summaries(w)).toEqual(['Uploads retry with exponential backoff']);
    expect(memories(w)[0]!.source).toBe('hook:Stop');
    expect(capturedMessages(entries)).toEqual([expect.stringMatching(/captured decisions:\S+ Uploads retry with exponential backoff$/)]);
  });

  it('does not capture a diagnosis the reply wrote before a tool call (a working note); the same words as the last message it does', async () => {
    const w = await world();
    const file = commitFile(w, 'src/import.ts', 'export const rows = (text: string) => text.split("\\n");\n');
    const diagnosis = 'The problem was that the importer skipped rows with a BOM, because the CSV reader does not strip it. The first column name never matched, so every row was dropped.';
    w.api.script([text(diagnosis), read(file)], 'Read it; nothing else to change.');
    const run = await claudeOk(w, 'Why does the import drop every row?');
    checked(w, run);
    expect(summaries(w)).toEqual([]);
    w.api.script(diagnosis);
    checked(w, await claudeOk(w, 'So what was it?', { resume: run.json.session_id }));
    expect(summaries(w)).toEqual(['The problem was that the importer skipped rows with a BOM, because the CSV reader does not strip it.']);
  });

  it('/compact: PreCompact captures from the transcript, and the compact SessionStart brings memory back', async () => {
    const w = await world();
    const config = commitFile(w, 'config/loader.ts', 'export function load() {}\n');
    // A turn taken before the hooks were installed: no Stop captured its marker; the transcript has it.
    memOk(w.repo, w.box.env, ['init', '--claude', '--remove']);
    w.api.script([text('Looking at the config loader first.\n\n▶ learnings ─── Config loader reads TOML before JSON\nThe TOML file wins when both exist.\n───'), read(config)], 'Done reading.');
    const t1 = await claudeOk(w, 'How is the config loaded?');
    const id = t1.json.session_id;
    checked(w, t1);
    expect(summaries(w)).toEqual([]);
    memOk(w.repo, w.box.env, ['init', '--claude']);

    const compact = await claudeOk(w, '/compact', { resume: id });
    const entries = checked(w, compact);
    expect(w.api.requests.filter((r) => isCompaction(r.body))).toHaveLength(1);
    const captured = memories(w);
    expect(captured.map((m) => m.summary)).toEqual(['Config loader reads TOML before JSON']);
    expect(captured[0]!.source).toBe('hook:PreCompact');
    expect(captured[0]!.body).toBe('The TOML file wins when both exist.');
    // The client ran PreCompact, compacted, then SessionStart(compact), whose context holds the new memory.
    expect(JSON.stringify(entries)).toContain('PreCompact [');
    const boundary = entries.findIndex((e) => e.type === 'system' && e.subtype === 'compact_boundary');
    expect(boundary).toBeGreaterThan(0);
    const compactStart = entries.slice(boundary).find((e) => e.attachment?.type === 'hook_success' && e.attachment.hookName === 'SessionStart:compact');
    expect(String(compactStart?.attachment?.stdout)).toContain('Config loader reads TOML before JSON');
    const injected = entries.slice(boundary).filter((e) => e.attachment?.type === 'hook_additional_context').map((e) => JSON.stringify(e.attachment?.content));
    expect(injected.some((c) => c.includes('<memory_context') && c.includes('Config loader reads TOML before JSON'))).toBe(true);

    // The next turn's request: the compaction summary, and the memory context carrying the captured memory.
    w.api.script('Next.');
    checked(w, await claudeOk(w, 'What next?', { resume: id }));
    const next = requestText(w.api.main.at(-1)!.body);
    expect(next).toContain('This session is being continued from a previous conversation');
    expect(blocks(next, 'memory_context').some((c) => c.includes('Config loader reads TOML before JSON'))).toBe(true);

    // Compacting again captures nothing twice.
    checked(w, await claudeOk(w, '/compact', { resume: id }));
    expect(summaries(w)).toEqual(['Config loader reads TOML before JSON']);
  });

  it('never writes a secret typed in a prompt to the notes', async () => {
    const w = await world();
    const key = 'AKIA' + 'Q3VZ7K2MWD5TRX4N'; // not AWS's documented EXAMPLE key, which is left as it is
    const password = 's3cretHunter2';
    w.api.script(`Noted.\n\n▶ learnings ─── Deploy credentials belong in the CI vault\nThe key ${key} and password=${password} must move there.\n───`);
    const t1 = await claudeOk(w, `[remember] the deploy uses access key ${key} and password=${password}\nWe decided to always deploy with key ${key} for now.`);
    const entries = checked(w, t1);
    expect(capturedMessages(entries).length).toBeGreaterThanOrEqual(2); // the prompt marker and the reply's block
    checked(w, await claudeOk(w, '/compact', { resume: t1.json.session_id })); // PreCompact reads the prompt again

    expect(memories(w).length).toBeGreaterThanOrEqual(2);
    const history = allNotesHistory(w);
    expect(history).toContain('[REDACTED:aws_access_key]');
    expect(history).not.toContain(key);
    expect(history).not.toContain(password);
    const index = fs.readFileSync(path.join(w.repo, '.git', 'mem', 'index.sqlite'));
    expect(index.includes(key)).toBe(false);
    expect(index.includes(password)).toBe(false);
    for (const message of capturedMessages(entries)) expect(message).not.toContain(key);
  });

  describe.each([
    { name: 'project and local settings', scopes: ['project', 'local'] as const, plugin: false },
    { name: 'settings and a plugin (--plugin-dir)', scopes: ['project'] as const, plugin: true },
  ])('hooks installed twice ($name)', ({ scopes, plugin }) => {
    it('capture each memory once', async () => {
      const w = await world({ scopes: [...scopes] });
      const args: string[] = [];
      if (plugin) {
        const dir = path.join(w.box.root, 'git-mem-plugin');
        fs.mkdirSync(path.join(dir, '.claude-plugin'), { recursive: true });
        fs.mkdirSync(path.join(dir, 'hooks'));
        fs.writeFileSync(path.join(dir, '.claude-plugin', 'plugin.json'), JSON.stringify({ name: 'git-mem', version: '0.1.0' }));
        const settings = JSON.parse(fs.readFileSync(path.join(w.repo, '.claude', 'settings.json'), 'utf8')) as { hooks: unknown };
        fs.writeFileSync(path.join(dir, 'hooks', 'hooks.json'), JSON.stringify({ description: 'git-mem', hooks: settings.hooks }));
        args.push('--plugin-dir', dir);
      }
      const file = commitFile(w, 'src/cas.ts', 'export {}\n');
      memOk(w.repo, w.box.env, ['capture', 'learnings', 'Ref updates use compare-and-swap']);
      w.api.script([text('Checking.\n\n▶ patterns ─── Hooks write notes through compare-and-swap\nSo parallel hooks never lose a write.\n───'), read(file)], 'Done.\n\n▶ learnings ─── Settings scopes merge their hooks\nEvery scope adds its own.\n───');
      const t1 = await claudeOk(w, '[decision] Ship the CLI as one binary', { args });
      const entries = checked(w, t1);
      const compacted = checked(w, await claudeOk(w, '/compact', { resume: t1.json.session_id, args }));

      expect(summaries(w)).toEqual(['Hooks write notes through compare-and-swap', 'Ref updates use compare-and-swap', 'Settings scopes merge their hooks', 'Ship the CLI as one binary']);
      const shown = capturedMessages(entries).flatMap((m) => m.split('\n'));
      expect(shown.filter((m) => m.includes('Ship the CLI as one binary'))).toHaveLength(1);
      expect(shown.filter((m) => m.includes('Settings scopes merge their hooks'))).toHaveLength(1);
      // The file's memory reaches the model once, even when two PostToolUse hooks answer.
      const after = textAfterToolResult(w.api.main[1]!.body, toolIds(w, 0)[0]!);
      expect(after.split('Ref updates use compare-and-swap')).toHaveLength(2);
      // The client runs an identical handler from several settings files once, a plugin's copy separately;
      // project settings name git-mem by PATH (teams commit them), local settings by this machine's path: two handlers.
      const copies = 2;
      // Both SessionStart copies run, but the memory context reaches the model once.
      expect(blocks(requestText(w.api.main[0]!.body), 'memory_context')).toHaveLength(1);
      expect(hookRuns(entries, 'Stop')).toHaveLength(copies);
      const report = compacted.map((e) => JSON.stringify(e)).find((l) => l.includes('<local-command-stdout>') && l.includes('PreCompact ['));
      expect(report?.match(/PreCompact \[/g)).toHaveLength(copies);
    });
  });
});

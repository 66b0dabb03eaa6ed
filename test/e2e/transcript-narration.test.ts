/**
 * Stop and PreCompact on agent turns full of narration (plans, reports of what was done, status,
 * questions, headings), through the compiled binary: the narration is neither captured nor suggested
 * (a mem.capture.with judge that keeps nothing sees every suggestion), markers in it still are, in
 * any language, a lead-in before code never becomes a capture, and a working note (a message the agent
 * called a tool after) is suggested at most. Transcripts are written here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionWriter, text, toolUse } from '../fixtures/transcripts.ts';
import { makeRepo, memHook, memOk, sandbox, timeBound } from './helpers.ts';

interface Candidate {
  summary: string;
  body: string;
  confidence: number;
}

interface Outcome {
  stored: Array<{ summary: string; body: string }>;
  /** What Stop would have suggested (the judge's candidates); [] for PreCompact. */
  suggested: Candidate[];
}

/** Runs one event at the end of a transcript in a fresh repository, with a judge that keeps nothing. */
async function run(name: string, jsonl: string, lastAssistantMessage: string, event: 'Stop' | 'PreCompact'): Promise<Outcome> {
  const box = sandbox();
  const repo = makeRepo(box);
  const transcript = path.join(box.root, `${name}.jsonl`);
  fs.writeFileSync(transcript, jsonl);
  const seen = path.join(box.root, 'seen.json');
  const judge = path.join(box.root, 'judge.sh');
  fs.writeFileSync(judge, `cat > '${seen}'\necho '{"keep":[]}'\n`);
  const env = { ...box.env, GIT_MEM_CAPTURE_WITH: `sh '${judge}'` };
  const extra = event === 'Stop' ? { stop_hook_active: false, last_assistant_message: lastAssistantMessage } : { trigger: 'auto', custom_instructions: null };
  const r = await memHook(repo, env, event, { session_id: `s-${name}`, transcript_path: transcript, cwd: repo, hook_event_name: event, permission_mode: 'default', ...extra });
  expect(r.code, r.stderr).toBe(0);
  expect(r.ms).toBeLessThan(timeBound(1000));
  const stored = JSON.parse(memOk(repo, env, ['list', '--json'])) as Outcome['stored'];
  const suggested = fs.existsSync(seen) ? (JSON.parse(fs.readFileSync(seen, 'utf8')) as { candidates: Candidate[] }).candidates : [];
  return { stored, suggested };
}

const everything = (o: Outcome) => [...o.stored, ...o.suggested].map((m) => `${m.summary}\n${m.body}`);

describe("an agent's narration is not a memory", () => {
  // 2.x layout: a turn of status chatter around one marker.
  const last = ['Summary of changes:', '- Added `retry.ts` with exponential backoff', '- Updated `client.ts` to use it', '- Removed the old `sleep` helper', '', '[decision] Exports roll out one region at a time', '', 'Would you like me to push the branch?'].join('\n');
  const session = new SessionWriter('2.1.190', 'f0e1d2c3-0000-4000-8000-000000000101')
    .prompt('Ship the export worker.')
    .reply([text('Perfect! Now let me check the deploy script:'), toolUse('toolu_n1', 'Bash', { command: 'cat deploy.sh' })])
    .toolResult('toolu_n1', '#!/bin/sh\nkubectl apply -f worker.yaml')
    .reply([text('Excellent! The worker image built successfully. The deploy script is now waiting for your confirmation to roll out to production.')])
    .reply([text("The nightly export `exp-0412` is at 9.2G which means it's nearly complete. Let's use that:\n\n## Quick Fix Command\n\n```sh\nmake export ID=exp-0412\n```"), toolUse('toolu_n2', 'Bash', { command: 'make export ID=exp-0412' })])
    .toolResult('toolu_n2', 'exported 9.2G')
    .reply([text(last)]);
  const chatter = ['waiting for your confirmation', 'nearly complete', 'exponential backoff', 'push the branch', 'Quick Fix', 'check the deploy script'];

  for (const event of ['Stop', 'PreCompact'] as const) {
    it(`${event}: status, plans, reports of what was done, headings and questions are neither captured nor suggested; the marker is captured`, async () => {
      const o = await run('narration', session.jsonl(), last, event);
      expect(o.stored.map((m) => m.summary)).toEqual(['Exports roll out one region at a time']);
      for (const t of everything(o)) for (const c of chatter) expect(t).not.toContain(c);
    });
  }

  it('a finding told with narration around it still reaches the detector whole; a lead-in before code is suggested at most and takes no later paragraph', async () => {
    const fix = 'The fix is simple - we need to call `flush` before the process exits to make sure no log lines are lost:';
    const reply = [fix, '', '```ts', 'await log.flush();', '```', '', 'The retry queue is drained by the worker on shutdown.', '', "Great! I've fixed it. [learned] The logger buffers 64 KB, so a crash loses the last lines unless they are flushed"].join('\n');
    // 1.0.x layout, with a subagent inline: its narration is not the main agent's either.
    const s = new SessionWriter('1.0.89', 'f0e1d2c3-0000-4000-8000-000000000102')
      .prompt('Why are the last log lines missing after a crash?')
      .reply([text('Let me dispatch a subagent to search the logger code:'), toolUse('toolu_n3', 'Task', { prompt: 'Find the logger buffer size' })])
      .subagentPrompt('Find the logger buffer size')
      .reply([text("Perfect! I've found it. The buffer is 64 KB."), toolUse('toolu_n4', 'Grep', { pattern: 'BUFFER' })], { sidechain: true })
      .toolResult('toolu_n4', 'logger.ts:3: const BUFFER = 64 * 1024;', true)
      .reply([text('The buffer size constant is 64 KB in logger.ts.')], { sidechain: true })
      .toolResult('toolu_n3', 'The buffer size constant is 64 KB in logger.ts.')
      .reply([text(reply)]);
    for (const event of ['Stop', 'PreCompact'] as const) {
      const o = await run('lead-in', s.jsonl(), reply, event);
      expect(o.stored.map((m) => m.summary)).toEqual(['The logger buffers 64 KB, so a crash loses the last lines unless they are flushed']);
      for (const m of [...o.stored, ...o.suggested]) {
        expect(m.summary.trimEnd().endsWith(':'), m.summary).toBe(false);
        expect(m.body.includes('flush` before') && m.body.includes('retry queue'), m.body).toBe(false);
      }
      for (const c of o.suggested.filter((x) => x.body.includes('flush` before'))) expect(c.confidence).toBeLessThan(0.95);
      for (const t of everything(o)) for (const c of ['dispatch a subagent', 'found it', 'buffer size constant']) expect(t).not.toContain(c);
    }
  });

  it('a paragraph the agent repeats in a later message of the turn is offered once', async () => {
    const finding = 'We decided to keep the index in the git common dir because worktrees share it.';
    const s = new SessionWriter('2.1.190', 'f0e1d2c3-0000-4000-8000-000000000104')
      .prompt('Where should the index live?')
      .reply([text(finding), toolUse('toolu_r1', 'Bash', { command: 'git rev-parse --git-common-dir' })])
      .toolResult('toolu_r1', '.git')
      .reply([text(`To recap:\n\n${finding}`)]);
    const o = await run('repeated', s.jsonl(), `To recap:\n\n${finding}`, 'Stop');
    expect([...o.stored, ...o.suggested].filter((m) => m.body.includes('worktrees share it'))).toHaveLength(1);
  });

  it("a diagnosis the agent wrote before acting on it (a working note) is suggested, not captured; the same words as the turn's last message are", async () => {
    const diagnosis = 'The problem was that the importer skipped rows with a BOM, because the CSV reader does not strip it. The first column name never matched, so every row was dropped.';
    const done = 'The header now reads cleanly and all 40 rows import.';
    // 2.x layout: the diagnosis, then the fix as a tool call, then the turn's last message.
    const noted = new SessionWriter('2.1.190', 'f0e1d2c3-0000-4000-8000-000000000105')
      .prompt('Why does the import drop every row?')
      .reply([text(`${diagnosis}\n\nLet me fix the reader:`), toolUse('toolu_w1', 'Edit', { file_path: 'import.ts', old_string: 'parse(text)', new_string: 'parse(stripBom(text))' })])
      .toolResult('toolu_w1', 'The file import.ts has been updated.')
      .reply([text(done)]);
    for (const event of ['Stop', 'PreCompact'] as const) {
      const o = await run('working-note', noted.jsonl(), done, event);
      expect(o.stored, event).toEqual([]);
      if (event === 'Stop') {
        const offered = o.suggested.filter((c) => c.body.includes('does not strip it'));
        expect(offered).toHaveLength(1);
        expect(offered[0]!.confidence).toBeLessThan(0.95);
      }
    }
    // 1.0.x layout, the diagnosis as the turn's conclusion: captured.
    const concluded = new SessionWriter('1.0.89', 'f0e1d2c3-0000-4000-8000-000000000106')
      .prompt('Why does the import drop every row?')
      .reply([text('Let me read the importer:'), toolUse('toolu_w2', 'Read', { file_path: 'import.ts' })])
      .toolResult('toolu_w2', 'const rows = parse(text);')
      .reply([text(diagnosis)]);
    for (const event of ['Stop', 'PreCompact'] as const) {
      const o = await run('concluded', concluded.jsonl(), diagnosis, event);
      expect(o.stored.map((m) => m.body), event).toEqual([diagnosis]);
    }
  });

  it('markers work in any language, amid narration the English rules do not read', async () => {
    const reply = ['完了しました！', '', 'TIL 日本語のファイル名はNFCに正規化してから比較する', '', "[decision] Les migrations passent d'abord en préproduction", '', '［learned］ 订单导出必须在 UTC 午夜之后运行', '', 'Готово! [blocker] Платёжный шлюз отклоняет запросы без заголовка Idempotency-Key'].join('\n');
    const s = new SessionWriter('2.1.150', 'f0e1d2c3-0000-4000-8000-000000000103').prompt('続けてください').reply([text(reply)]);
    const expected = ['TIL 日本語のファイル名はNFCに正規化してから比較する', "Les migrations passent d'abord en préproduction", '订单导出必须在 UTC 午夜之后运行', 'Платёжный шлюз отклоняет запросы без заголовка Idempotency-Key'].sort();
    for (const event of ['Stop', 'PreCompact'] as const) {
      const o = await run('languages', s.jsonl(), reply, event);
      expect(o.stored.map((m) => m.summary).sort(), event).toEqual(expected);
    }
  });
});

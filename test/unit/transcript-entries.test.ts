import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detectSignals } from '../../src/core/signals.ts';
import { classifyEntry, type EntryKind, isApiErrorText, lastCompactSummary, machineLine, parseEntry, PASTE_CHARS, promptOrigin, sessionMessages, sessionReplies, sessionWords, turnMessages, turnReplies, turnWords } from '../../src/core/transcript-entries.ts';
import { readCompactSummary, readSessionMessages, readSessionReplies, stopMessages, stopReplies, transcriptEntries, turnEntries } from '../../src/agents/claude/transcript.ts';
import { SessionWriter, text, TRANSCRIPT_FIXTURES, toolUse, type TranscriptFixture } from '../fixtures/transcripts.ts';

const fixture = (name: string): TranscriptFixture => TRANSCRIPT_FIXTURES.find((f) => f.name === name)!;
const kinds = (jsonl: string) => transcriptEntries(jsonl).map((e) => `${e.sidechain ? 'side:' : ''}${e.kind}`);
const MAX = 256 * 1024;

describe('who said what', () => {
  it('tells each entry Claude Code writes in the user\'s name from a typed prompt', () => {
    const cases: Array<[unknown, EntryKind]> = [
      [{ type: 'user', message: { content: 'Fix the flaky test' } }, 'prompt'],
      [{ type: 'user', message: { content: [{ type: 'text', text: 'Fix it' }, { type: 'image', source: {} }] } }, 'prompt'],
      [{ type: 'user', message: { content: [{ type: 'image', source: {} }] } }, 'prompt'],
      [{ type: 'user', message: { content: [{ type: 'tool_result', tool_use_id: 't', content: '[decision] x' }] } }, 'tool-result'],
      [{ type: 'user', toolUseResult: 'Error', message: { content: 'Error: [decision] x' } }, 'tool-result'],
      [{ type: 'user', isMeta: true, message: { content: '[decision] hook feedback' } }, 'meta'],
      [{ type: 'user', isCompactSummary: true, message: { content: 'Summary: [decision] x' } }, 'compact-summary'],
      [{ type: 'user', message: { content: 'This session is being continued from a previous conversation that ran out of context.' } }, 'compact-summary'],
      [{ type: 'user', message: { content: '<command-message>init</command-message>\n<command-name>/init</command-name>' } }, 'command'],
      [{ type: 'user', message: { content: '<command-name>/model</command-name>\n<command-args>opus</command-args>' } }, 'command'],
      [{ type: 'user', message: { content: '<command-message>review is running…</command-message>\n<command-name>/review</command-name>' } }, 'meta'],
      [{ type: 'user', message: { content: '<local-command-stdout>Login successful</local-command-stdout>' } }, 'command-output'],
      [{ type: 'user', message: { content: '<bash-input>ls</bash-input>' } }, 'command-output'],
      [{ type: 'user', message: { content: '<bash-stdout>a\nb</bash-stdout><bash-stderr></bash-stderr>' } }, 'command-output'],
      [{ type: 'user', message: { content: '<task-notification>\n<summary>done</summary>\n</task-notification>' } }, 'task-notification'],
      [{ type: 'user', origin: { kind: 'task-notification' }, message: { content: 'Monitor event' } }, 'task-notification'],
      [{ type: 'user', message: { content: [{ type: 'text', text: '[Request interrupted by user]' }] } }, 'interruption'],
      [{ type: 'user', message: { content: '[Request interrupted by user for tool use]' } }, 'interruption'],
      [{ type: 'user', message: { content: '<system-reminder>The user opened x.ts</system-reminder>' } }, 'meta'],
      [{ type: 'user', message: { content: '{"a": [1, 2, 3], "b": "[D] label"}' } }, 'pasted'],
      [{ type: 'assistant', message: { id: 'm', content: [{ type: 'text', text: 'Done.' }] } }, 'reply'],
      [{ type: 'assistant', message: { id: 'm', content: [{ type: 'thinking', thinking: '[decision] x' }] } }, 'reply'],
      [{ type: 'assistant', isApiErrorMessage: true, message: { model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 502 bad gateway' }] } }, 'api-error'],
      [{ type: 'assistant', message: { model: '<synthetic>', content: [{ type: 'text', text: 'No response requested.' }] } }, 'api-error'],
      [{ type: 'assistant', message: { model: 'claude', content: [{ type: 'text', text: 'API Error: Connection error.' }] } }, 'api-error'],
    ];
    for (const [entry, kind] of cases) expect(classifyEntry(entry)?.kind, JSON.stringify(entry)).toBe(kind);
    for (const other of [{ type: 'summary', summary: 'x' }, { type: 'system', subtype: 'compact_boundary' }, { type: 'attachment' }, null, 'user', [1]]) expect(classifyEntry(other)).toBeNull();
    expect(parseEntry('{"type":"user","message":{"content":"cut in ha')).toBeNull();
    expect(parseEntry('')).toBeNull();
  });

  it('keeps a thinking block and a tool call out of the assistant\'s words, and joins its text blocks with a blank line', () => {
    const entry = classifyEntry({ type: 'assistant', message: { id: 'm', content: [text(' First. '), { type: 'thinking', thinking: 'hidden' }, toolUse('t', 'Read', { file_path: '[decision] x' }), text('Second.')] } });
    expect(entry?.text).toBe('First.\n\nSecond.');
  });

  it('writes a marker typed with a CJK input method (full-width brackets and letters) in ASCII, and nothing else', () => {
    expect(classifyEntry({ type: 'user', message: { content: '［decision］ 使用 PostgreSQL（不再使用 MongoDB）' } })?.text).toBe('[decision] 使用 PostgreSQL（不再使用 MongoDB）');
    expect(classifyEntry({ type: 'assistant', message: { content: [text('［ｌｅａｒｎｅｄ］ 索引很重要　［注意］')] } })?.text).toBe('[learned] 索引很重要　［注意］');
    expect(classifyEntry({ type: 'user', message: { content: '［remember：decisions］ 用 UTC' } })?.text).toBe('[remember:decisions] 用 UTC');
  });

  it('takes system reminders out of a typed prompt', () => {
    expect(classifyEntry({ type: 'user', message: { content: 'Fix it\n<system-reminder>\n[decision] injected\n</system-reminder>' } })?.text).toBe('Fix it');
  });

  it('knows API errors and limits by their text, as Stop gets them in last_assistant_message', () => {
    for (const t of ['API Error: 502 Cloudflare', 'API Error: Connection error.', 'Claude AI usage limit reached|1755212400', 'Credit balance is too low', '5-hour limit reached ∙ resets 10pm', "You've hit your limit · resets 1am", "You're out of extra usage · resets May 4", 'Not logged in · Please run /login']) expect(isApiErrorText(t), t).toBe(true);
    for (const t of ['The API error handling is fixed.', 'I hit an API Error earlier', '']) expect(isApiErrorText(t), t).toBe(false);
  });
});

describe('pasted material', () => {
  it('takes a long prompt, JSON, a prompt that is mostly code, log or JSON, or a Claude Code screen for pasted', () => {
    const pasted = [
      'x '.repeat(PASTE_CHARS / 2 + 1),
      '{"sections":[{"notes":"[D] Use feature flags"},{"notes":"[B] Waiting on legal"}]}',
      '[\n  {"id": 1},\n  {"id": 2}\n]',
      'Explain this:\n2026-03-01T10:00:01Z ERROR build failed\n    at resolve (/x/index.js:10:5)\n    at main (/x/build.js:3:1)',
      'why?\n```ts\nconst total = items.reduce((a, i) => a + i.price, 0);\nexport default total;\n```',
      'fix\nsrc/a.ts:12:5 - error TS2322: Type string is not assignable\nsrc/b.ts:3:1 - error TS2304: Cannot find name x',
      '⏺ I fixed the bug.\n  ⎿  Updated src/a.ts with 2 additions\n[decision] from another session',
      'ultrathink This session is being continued from a previous conversation that ran out of context.',
      '| a | b |\n| --- | --- |\n| [decision] cell | 2 |',
      'Setting up dbus-bin (1.16.2-2) ...\nSetting up login (1:4.16.0-2) ...\nProcessing triggers for ca-certificates (20250419) ...',
    ];
    for (const p of pasted) expect(promptOrigin(p).pasted, p.slice(0, 60)).toBe(true);
  });

  it('reads typed prompts, short code mentions and all, in any language', () => {
    const typed = [
      'Fix the flaky sync test',
      '[decision] Use sql.js for the index',
      '[decision] Keep retries\n[learned] The port is reused\n[blocker] CI lacks git-daemon',
      'save this bashrc in config/ as bashrc.optimal',
      'The build fails with `npm ci` on Node 18. Can you look at package.json and the lockfile?',
      '(also, keep the old API working)',
      '帮我看看订单服务为什么这么慢？',
      '[decision] 订单服务统一使用 PostgreSQL，不再使用 MongoDB',
      'Vì sao bài kiểm tra đồng bộ lại không ổn định?',
      'Here are my notes:\n- use the fresh port helper\n- keep the retry budget at three\n- and log the port',
    ];
    for (const p of typed) expect(promptOrigin(p), p).toEqual({ pasted: false });
  });

  it('tells machine lines from prose by shape', () => {
    for (const l of ['{"a": 1,', '  "key": "value"', '}', 'const x = f(y);', '$ npm test', '[2026-03-01 10:00:01] INFO started', 'at Object.<anonymous> (/x.js:1:1)', 'a1b2c3d4e5f6 0x7f 12.5%', '| a | b |', '────────────']) expect(machineLine(l), l).toBe(true);
    for (const l of ['We decided to use sql.js.', '[decision] Use sql.js', 'git is broken, please fix it.', 'If you can, fix the build.', '(also, keep the old API)', '订单服务统一使用 PostgreSQL', '']) expect(machineLine(l), l).toBe(false);
  });
});

describe('the words read for statements', () => {
  it('1.0.x: a subagent\'s prompt does not end the main turn, and its words are not the session\'s', () => {
    const f = fixture('v1-sidechains');
    expect(kinds(f.jsonl)).toEqual(['prompt', 'reply', 'reply', 'side:prompt', 'side:reply', 'side:reply', 'side:tool-result', 'side:reply', 'tool-result', 'reply']);
    const turn = turnWords(turnEntries(f.jsonl), MAX);
    expect(turn).toContain('[decision] Retry the payment webhook at most three times');
    expect(turn).toContain('The subagent found only 502s');
    expect(turn).not.toContain('Subagent words');
    expect(turn).not.toContain('subagent prompt');
    const words = sessionWords(transcriptEntries(f.jsonl), MAX);
    expect(words.assistant).not.toContain('Subagent words');
    expect(words.user).toBe('The payment webhook fails twice a day. Find out why and fix it.');
  });

  it('2.x: the turn runs through tool calls; lines of one message are joined once, with a blank line', () => {
    const f = fixture('v2-layout');
    const turn = turnWords(turnEntries(f.jsonl), MAX);
    expect(turn).toBe('Let me read the pricing code.\n\n[learned] Floating-point sums of prices drift; the cart now sums integer cents and formats once at the end.');
    // 1.0.x repeated a message's line on resume: read once.
    const s = new SessionWriter('1.0.80').prompt('go').reply([text('Same words.')]);
    const doubled = s.jsonl() + s.jsonl().split('\n').slice(-2).join('\n');
    expect(sessionWords(transcriptEntries(doubled), MAX).assistant).toBe('Same words.');
  });

  it('after a compaction, only what was said since; a summary, flagged or not, is nobody\'s words', () => {
    const f = fixture('compaction');
    const entries = transcriptEntries(f.jsonl);
    expect(sessionWords(entries, MAX)).toEqual({ assistant: '[learned] The search index must be rebuilt after every schema migration.', user: '' });
    expect(lastCompactSummary(entries)).toContain('from a flagged summary');
    expect(turnWords(turnEntries(f.jsonl), MAX)).toBe('[learned] The search index must be rebuilt after every schema migration.');
  });

  it('commands, shell mode, notifications, interruptions and meta entries are nobody\'s words; a task notification starts a turn', () => {
    const f = fixture('inserted');
    const words = sessionWords(transcriptEntries(f.jsonl), MAX);
    expect(words.user).toBe('Make the image resizer faster.');
    for (const never of f.never) expect(words.assistant).not.toContain(never);
    expect(words.assistant).toContain('Understood, I stopped the test run.');
    expect(turnWords(turnEntries(f.jsonl), MAX)).toBe('[learned] The background build needs the signing certificate in CI; it ran through once it was added.');
  });

  it('an API error is not the assistant\'s words', () => {
    const f = fixture('api-errors');
    expect(sessionWords(transcriptEntries(f.jsonl), MAX).assistant).toBe('[decision] Deploy previews to the staging cluster only');
    expect(turnWords(turnEntries(f.jsonl), MAX)).toBe('');
  });

  it('pasted prompts are not the user\'s words, and still start a turn', () => {
    const f = fixture('pasted');
    const words = sessionWords(transcriptEntries(f.jsonl), MAX);
    expect(words.user).toBe('save this bashrc in config/ as bashrc.optimal\n\n[decision] Pin React to one version across the workspace');
    const s = new SessionWriter('2.1.101').prompt('first').reply([text('[decision] the first turn')]).prompt('{"a": 1}').reply([text('the second turn')]);
    expect(turnWords(turnEntries(s.jsonl()), MAX)).toBe('the second turn');
  });

  it('a lead-in reaches the detector with its list, and a table whole, in one message', () => {
    const f = fixture('table-and-lead-in');
    const turn = turnWords(turnEntries(f.jsonl), MAX);
    expect(turn).toContain('The key insight is:\n\n- the client clock cannot be trusted\n- reports must match the API exactly');
    expect(turn).toContain('| BR-O2 | Completed tasks are never overdue | done |\n| BR-O3');
  });

  it('gives the detector each message on its own: a lead-in that ends a message introduces a tool call, not the next message', () => {
    const leadIn = 'Let me look at the container logs:';
    const finding = 'The issue is that AppArmor profiles cannot be applied inside a live CD session, so Docker has to run these containers with apparmor=unconfined.';
    const s = new SessionWriter('2.1.101')
      .prompt('Why do the containers not start?')
      .reply([text(leadIn), toolUse('t1', 'Bash', { command: 'docker logs api' })])
      .toolResult('t1', 'apparmor_parser: Access denied')
      .reply([text(finding)]);
    // One message (its lines share message.id) stays one text; two messages are two.
    expect(turnMessages(turnEntries(s.jsonl()), MAX)).toEqual([leadIn, finding]);
    expect(sessionMessages(transcriptEntries(s.jsonl()), MAX)).toEqual({ assistant: [leadIn, finding], user: ['Why do the containers not start?'] });
    const two = new SessionWriter('2.1.101').prompt('go').reply([text('First part.'), toolUse('t2', 'Read', { file_path: 'a' }), text('Second part of the same message.')]);
    expect(turnMessages(turnEntries(two.jsonl()), MAX)).toEqual(['First part.\n\nSecond part of the same message.']);
    // The finding is read as itself, not as the list of a lead-in from another message (which hid it: no signal at all).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-transcript-'));
    try {
      const file = path.join(dir, 't.jsonl');
      fs.writeFileSync(file, s.jsonl());
      // The lead-in is the agent's narration of its next step (core/narration.ts): the hooks leave it out.
      const messages = stopMessages(file, finding);
      expect(messages).toEqual([finding]);
      const signals = messages.flatMap((m) => detectSignals(m));
      expect(signals.map((x) => x.body)).toEqual([finding]);
      expect(signals[0]!.confidence).toBeGreaterThanOrEqual(0.7);
      expect(readSessionMessages(file).assistant).toEqual([finding]);
      // last_assistant_message not yet written: its own message; an API error in its place: none.
      const last = 'The containers run unconfined until the host profile is fixed.';
      expect(stopMessages(file, last)).toEqual([finding, last]);
      expect(stopMessages(file, 'API Error: 529 Overloaded')).toEqual([finding]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('marks a message the agent called a tool after as a working note, not the turn\'s last nor a subagent\'s', () => {
    const note = 'The importer drops every row because the header keeps its byte order mark.';
    const done = 'The reader strips the byte order mark now.';
    // 2.x: text and tool call as lines sharing message.id, then the result; a subagent's own tool results (1.0.x, inline) are not the main agent's.
    const s = new SessionWriter('2.1.101')
      .prompt('Why are the rows missing?')
      .reply([text(note), toolUse('w1', 'Task', { prompt: 'read import.ts' })])
      .subagentPrompt('read import.ts')
      .reply([text('The header is read as is.'), toolUse('w2', 'Read', { file_path: 'import.ts' })], { sidechain: true })
      .toolResult('w2', 'const header = lines[0];', true)
      .toolResult('w1', 'The header is read as is.')
      .reply([text(done)]);
    expect(turnReplies(turnEntries(s.jsonl()), MAX)).toEqual([
      { text: note, working: true },
      { text: done, working: false },
    ]);
    // The previous turn's last message is not a working note of the next turn's tool calls.
    s.prompt('And the totals?').reply([text('Let me add them up:'), toolUse('w3', 'Bash', { command: 'wc -l' })]).toolResult('w3', '12');
    expect(sessionReplies(transcriptEntries(s.jsonl()), MAX).assistant.map((m) => m.working)).toEqual([true, false, true]);
    // 1.0.x writes text and tool call in one entry.
    const old = new SessionWriter('1.0.89').prompt('go').reply([text(note), toolUse('w4', 'Edit', { file_path: 'import.ts' })]).toolResult('w4', 'ok').reply([text(done)]);
    expect(turnReplies(turnEntries(old.jsonl()), MAX).map((m) => m.working)).toEqual([true, false]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-transcript-'));
    try {
      const file = path.join(dir, 't.jsonl');
      fs.writeFileSync(file, old.jsonl());
      expect(readSessionReplies(file).assistant).toEqual([
        { text: note, working: true },
        { text: done, working: false },
      ]);
      // Stop's last_assistant_message, not yet in the file, is the turn's last word.
      expect(stopReplies(file, 'The totals come from the same reader.').map((m) => m.working)).toEqual([true, false, false]);
      // A paragraph the conclusion repeats from a working note is read once, in the conclusion.
      const recap = new SessionWriter('2.1.101').prompt('go').reply([text(`${note}\n\nThe reader is shared by both imports.`), toolUse('w5', 'Edit', { file_path: 'import.ts' })]).toolResult('w5', 'ok').reply([text(`To sum up:\n\n${note}`)]);
      fs.writeFileSync(file, recap.jsonl());
      expect(stopReplies(file, '')).toEqual([
        { text: 'The reader is shared by both imports.', working: true },
        { text: `To sum up:\n\n${note}`, working: false },
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads other languages as they are written', () => {
    const f = fixture('chinese');
    const words = sessionWords(transcriptEntries(f.jsonl), MAX);
    expect(words.user).toContain('[decision] 订单服务统一使用 PostgreSQL，不再使用 MongoDB');
    expect(words.assistant).toContain('[decision] 为 orders.user_id 建立索引，查询从 800ms 降到 12ms。');
  });

  it('keeps the newest whole messages within the limit, never a message cut in the middle', () => {
    const s = new SessionWriter('2.1.0').prompt('go');
    for (let i = 0; i < 10; i++) s.reply([text(`message ${i} ${'x'.repeat(90)}`)]);
    const words = sessionWords(transcriptEntries(s.jsonl()), 350);
    expect(words.assistant.split('\n\n').map((m) => m.slice(0, 9))).toEqual(['message 7', 'message 8', 'message 9']);
    // One message longer than the limit: its end.
    expect(turnWords(transcriptEntries(new SessionWriter('2.1.0').prompt('go').reply([text(`start ${'y'.repeat(500)} end`)]).jsonl()), 100)).toMatch(/^y+ end$/);
  });
});

describe('reading the file', () => {
  const tmp = (content: string | Buffer) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-transcript-'));
    const file = path.join(dir, 't.jsonl');
    fs.writeFileSync(file, content);
    return file;
  };

  it('reads a transcript file by speaker; a missing file or a directory reads as nothing', () => {
    const f = fixture('chinese');
    const file = tmp(f.jsonl);
    expect(readSessionMessages(file).user.join('\n\n')).toContain('PostgreSQL');
    expect(stopMessages(file, '').join('\n\n')).toContain('[decision] 为 orders.user_id 建立索引');
    expect(readCompactSummary(file)).toBe('');
    expect(readCompactSummary(tmp(fixture('compaction').jsonl))).toContain('from a flagged summary');
    for (const bad of ['', '/nonexistent/t.jsonl', os.tmpdir()]) {
      expect(readSessionMessages(bad)).toEqual({ assistant: [], user: [] });
      expect(stopMessages(bad, '')).toEqual([]);
    }
  });

  it('reads a tail of a big file from a line\'s start, so no character is read in part', () => {
    // 9 MB of tool results first, multi-byte text near the cut, and the words at the end.
    const big = new SessionWriter('2.1.0').prompt('go');
    for (let i = 0; i < 90; i++) big.toolResult(`t${i}`, '码'.repeat(35_000));
    big.reply([text('[decision] 最后的决定')]);
    const file = tmp(big.jsonl());
    expect(fs.statSync(file).size).toBeGreaterThan(8 * 1024 * 1024);
    expect(readSessionMessages(file).assistant).toEqual(['[decision] 最后的决定']);
    expect(stopMessages(file, '')).toEqual(['[decision] 最后的决定']);
  });
});

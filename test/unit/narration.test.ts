import { describe, expect, it } from 'vitest';
import { isNarration, saidOnce, withoutNarration } from '../../src/core/narration.ts';
import { detectSignals } from '../../src/core/signals.ts';
import { statementsOf } from '../../src/core/statements.ts';

describe("an agent's narration", () => {
  it('tells plans, reports of what was done, status, questions and interjections from statements', () => {
    const narration = [
      'Perfect!',
      'Excellent.',
      'Now let me check the deploy script.',
      "Let's run the suite again:",
      "I'll add a test for the empty cart next.",
      'Now the controller.',
      "I'm checking the worker logs now.",
      "I've updated the README with the new setup steps.",
      'We have added a retry to the client.',
      'Added `retry.ts` with exponential backoff',
      '**Updated the config**: new port and host',
      'The cache layer has been successfully updated.',
      'The server is now running on port 8080.',
      'All 14 tests pass.',
      'The build succeeded.',
      'Step 2 done: the schema is in.',
      'Would you like me to push the branch?',
      'Let me know if you want the docs too.',
      'Summary of changes:',
      'Checking the logs now.',
      'Running the migrations:',
      'Everything is now ready.',
      'The config is correct.',
    ];
    for (const s of narration) expect(isNarration(s), s).toBe(true);
    const statements = [
      'The cache must be cleared after every schema change.',
      'Postgres rejects the upsert because the unique index is partial.',
      "I've switched the queue to Redis because SQS cannot keep order per tenant.",
      'Now the worker retries only idempotent jobs, since a payment must never run twice.',
      'The containers run unconfined until the host profile is fixed.',
      'Money stays in integer cents; floats drift.',
      'Tomcat rejects encoded slashes in a path segment.',
      'We chose SQLite for the index: one file, no server.',
      '所有测试都通过了。',
      'Building the image on ARM needs the `--platform` flag.',
      'Next, the worker reads the queue and writes one file per tenant.',
      'Polling is good enough for fewer than a hundred clients.',
      'I found that the API returns 404 for deleted users.',
      'Ran into a bug where the cache key ignored the tenant.',
    ];
    for (const s of statements) expect(isNarration(s), s).toBe(false);
  });

  it('takes narrated sentences, status checklists, headings and labels out, and keeps lines, lists and paragraphs', () => {
    const message = [
      'Perfect! All 12 tests pass.',
      '',
      '## Summary',
      '',
      '**Changes:**',
      '- Added `retry.ts` with exponential backoff',
      '- ✅ Rate limiter running',
      '- Retries stop after 3 attempts because the provider bans clients that retry more.',
      '',
      'The provider returns 429 without a Retry-After header. Now let me run the suite again.',
      '',
      'Would you like me to push?',
    ].join('\n');
    expect(withoutNarration(message)).toBe(['- Retries stop after 3 attempts because the provider bans clients that retry more.', '', 'The provider returns 429 without a Retry-After header.'].join('\n'));
  });

  it('keeps a heading that says something as a paragraph of its own', () => {
    expect(withoutNarration('## Decision: keep the index in the common dir\nWorktrees share it.')).toBe('Decision: keep the index in the common dir\n\nWorktrees share it.');
    expect(withoutNarration('### Quick Fix Command (Most Likely to Work)\nThe mirror is down.')).toBe('The mirror is down.');
  });

  it('keeps a line that gives a reason whole, narration and all', () => {
    const line = "Great! I've fixed the bug. The issue was in the date parsing: `split('/')` broke on ISO dates.";
    expect(withoutNarration(line)).toBe(line);
  });

  it('keeps a lead-in with what it introduces, and drops it with what went', () => {
    // A report's lead-in keeps the items that stay.
    expect(withoutNarration("All 15 tests pass. Here's what was added:\n\n- `ice`: true for weather ids 611-616 or at 0 °C and below with rain\n- Added a test")).toBe(
      "Here's what was added:\n\n- `ice`: true for weather ids 611-616 or at 0 °C and below with rain",
    );
    // Every item went: the lead-in goes too (it would take the next paragraph for its list).
    expect(withoutNarration('The script will now:\n- ✅ Skip the prompt\n- ✅ Continue on errors\n\nThe mirror returns 404 for arm64 packages.')).toBe('The mirror returns 404 for arm64 packages.');
    // A narrated lead-in before code or a heading goes; one that states something stays before its code.
    expect(withoutNarration("The export is nearly complete. Let's use that:\n\n## Quick fix\n\n```sh\nmake export\n```")).toBe('```sh\nmake export\n```');
    expect(withoutNarration('The fix is to flush the writer before exit:\n\n```ts\nawait log.flush();\n```')).toBe('The fix is to flush the writer before exit:\n\n```ts\nawait log.flush();\n```');
  });

  it('never touches markers, blocks, code, tables or quotes', () => {
    const message = [
      "I've updated the config. [decision] Deploys roll out one region at a time",
      '▶ learnings ─── Now let me check',
      "I've added this inside a block.",
      '───',
      '```',
      'Now let me run it.',
      '```',
      '| Done | All tests pass |',
      '> Now let me quote.',
      'TIL 完了しました',
    ].join('\n');
    expect(withoutNarration(message)).toBe(message);
  });

  it('passes text in other languages through as written', () => {
    const zh = '索引已建立。\n\n问题在于 orders 表缺少索引。\n\n还需要我做什么吗？';
    expect(withoutNarration(zh)).toBe(zh);
  });

  it('reads a paragraph repeated in a later message once', () => {
    const finding = 'The staging database refuses connections from the CI runners because their range is not allowed.';
    expect(saidOnce([`${finding}\n\nFirst.`, `Recap.\n\n${finding}`, 'Ok.'])).toEqual([`${finding}\n\nFirst.`, 'Recap.', 'Ok.']);
    // A piece of a code block (its blank lines cut it) is never dropped: the fences stay paired.
    const code = '```sh\nmake build\n\nmake test --all --verbose --fast\n```';
    expect(saidOnce([code, code])).toEqual([code, code]);
  });
});

describe('a bare lead-in', () => {
  it('is one that introduces code, a table or nothing, and it never takes the paragraph after what it introduced', () => {
    const text = 'The fix is to flush the writer before the process exits so no log lines are lost:\n\n```ts\nawait log.flush();\n```\n\nThe retry queue is drained by the worker on shutdown.';
    const st = statementsOf(text);
    expect(st.map((s) => [s.text, Boolean(s.bare)])).toEqual([
      ['The fix is to flush the writer before the process exits so no log lines are lost:', true],
      ['The retry queue is drained by the worker on shutdown.', false],
    ]);
    expect(statementsOf('The rules are:\n\n- one\n- two').map((s) => Boolean(s.bare))).toEqual([false]);
    for (const s of detectSignals(text)) if (s.body.endsWith(':')) expect(s.confidence).toBeLessThan(0.95);
  });
});

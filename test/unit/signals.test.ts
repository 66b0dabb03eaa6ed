import { describe, expect, it } from 'vitest';
import { AUTO_THRESHOLD, detectSignals, JUDGE_FLOOR, normalizeForNovelty, SUGGEST_THRESHOLD, tierOf, wantsRecall } from '../../src/core/signals.ts';

describe('detectSignals', () => {
  it('takes plain statements worth keeping, with their namespace, at a calibrated confidence', () => {
    // Statements without the earlier trigger phrases (issue 27), each a kind of thing a team keeps.
    const cases: Array<[string, string]> = [
      ['We decided to use FastAPI because it has native async support and pydantic validation.', 'decisions'],
      ['Changes reverted as we cannot legally change the license.', 'decisions'],
      ['The root cause was that the cache evicted entries while the writer still held them, because the lock was released too early.', 'learnings'],
      ['Blocked on the staging database credentials, which are not in the vault yet.', 'blockers'],
      ['Going forward, every migration must be tested on staging before it is merged.', 'patterns'],
    ];
    for (const [text, namespace] of cases) {
      const [top] = detectSignals(text);
      expect(top, text).toBeDefined();
      expect(top!.kind).toBe('model');
      expect(top!.namespace, text).toBe(namespace);
      expect(top!.confidence, text).toBeGreaterThanOrEqual(SUGGEST_THRESHOLD);
      expect(top!.confidence, text).toBeLessThan(1);
      // The statement itself, cut at a word with an ellipsis past 100 characters.
      if ([...text].length <= 100) expect(top!.summary).toBe(text);
      else expect(text.startsWith(`${top!.summary.slice(0, -1)} `)).toBe(true);
    }
  });

  it("suggests a working note's statements at most (an agent's message it called a tool after); its markers still capture", () => {
    const finding = 'The problem was that the importer skipped rows with a BOM, because the CSV reader does not strip it. The first column name never matched, so every row was dropped.';
    const [concluded] = detectSignals(finding);
    expect(concluded!.confidence).toBeGreaterThanOrEqual(AUTO_THRESHOLD);
    const [note] = detectSignals(finding, { working: true });
    expect(note!.body).toBe(concluded!.body);
    expect(tierOf(note!.confidence)).toBe('suggest');
    const marked = detectSignals(`${finding}\n\n[decision] The importer strips a BOM before it reads the header`, { working: true });
    expect(marked.filter((x) => tierOf(x.confidence) === 'auto').map((x) => x.summary)).toEqual(['The importer strips a BOM before it reads the header']);
  });

  it('leaves what is not worth keeping: questions, requests, thanks, logs, code, tables, quotes, struck text', () => {
    const negatives = [
      'Should we switch the cache to Redis?',
      'Please rename the function to getUser and update the tests.',
      'Thanks, that works great!',
      "Access to fetch at 'https://api.example.com' from origin 'http://localhost:3000' has been blocked by CORS policy",
      '2026-01-02 10:00:01 ERROR worker blocked by lock timeout, retrying',
      '```ts\nconst decided = true; // we decided to use this\n```',
      '| BR-O2 | Completed tasks are never overdue | done |',
      '> We decided to drop Python 3.7 support.',
      '~~Blocked by the missing staging credentials.~~',
    ];
    for (const text of negatives) expect(detectSignals(text), text).toEqual([]);
  });

  it('captures an explicit request as the thing to keep, without the request words', () => {
    expect(detectSignals('For future reference, the index lives in the git common dir.')[0]).toMatchObject({ confidence: 0.98, summary: 'The index lives in the git common dir.' });
    expect(detectSignals('Please remember this: staging deploys need the VPN on.')[0]).toMatchObject({ confidence: 0.98, summary: 'Staging deploys need the VPN on.', body: 'Please remember this: staging deploys need the VPN on.' });
    // Nothing but the request: the sentence stays as it was.
    expect(detectSignals('Remember this one.')[0]!.summary).toBe('Remember this one.');
  });

  it('takes no marker written in code, a table or a quote (text about markers, not markers)', () => {
    for (const text of ['`[D]` has no independent notion of how many rows there should be', '| step | `[B]` blocked | [decision] x |', '```\n[decision] inside a code block\n```', '> [decision] quoted from the thread', 'The `[remember:blockers]` marker files a blocker']) {
      expect(detectSignals(text).filter((s) => s.kind !== 'model'), text).toEqual([]);
    }
    expect(detectSignals('[decision] Use `sql.js` for the index')[0]).toMatchObject({ kind: 'marker', summary: 'Use `sql.js` for the index' });
  });

  it('reads TIL opening a sentence as a learning, kept as written', () => {
    expect(detectSignals('Done. TIL git fans a notes tree out once it holds more than 255 notes.')[0]).toMatchObject({ namespace: 'learnings', confidence: 0.95, kind: 'marker', summary: 'TIL git fans a notes tree out once it holds more than 255 notes.' });
    expect(detectSignals('The UNTIL keyword and the TIL: label are not markers.').filter((s) => s.kind === 'marker')).toEqual([]);
  });

  it('reads explicit markers and uses the text after them', () => {
    const [d] = detectSignals('[decision] Store the index in the common dir');
    expect(d).toMatchObject({ namespace: 'decisions', confidence: 0.98, summary: 'Store the index in the common dir', kind: 'marker' });
    expect(detectSignals('[remember:blockers] CI lacks git-daemon')[0]).toMatchObject({ namespace: 'blockers', summary: 'CI lacks git-daemon' });
    expect(detectSignals('@memory:patterns Retry with jitter')[0]).toMatchObject({ namespace: 'patterns', summary: 'Retry with jitter' });
    expect(detectSignals('[remember] plain remember goes to learnings')[0]!.namespace).toBe('learnings');
    expect(detectSignals('[remember:nope] unknown namespace', { namespaces: ['learnings'] })[0]!.namespace).toBe('learnings');
    expect(detectSignals('[decision]')).toEqual([]);
  });

  it('reads block markers and fenced blocks with their bodies', () => {
    const text = 'Some reply.\n▶ decisions ─── Keep vectors out of the write path\nWrites of the index are whole-file.\nVectors are large.\n───\nMore text.';
    const [s] = detectSignals(text);
    expect(s).toMatchObject({ namespace: 'decisions', confidence: 0.99, summary: 'Keep vectors out of the write path', body: 'Writes of the index are whole-file.\nVectors are large.', kind: 'block' });
    const fenced = detectSignals(':::research Bun cross-compiles\nIt downloads the target runtime.\n:::')[0];
    expect(fenced).toMatchObject({ namespace: 'research', summary: 'Bun cross-compiles', body: 'It downloads the target runtime.' });
  });

  it('finds nothing in ordinary requests, and one signal per statement', () => {
    expect(detectSignals('Write a factorial function in TypeScript with tests.')).toEqual([]);
    expect(detectSignals('Please refactor the parser and keep the API stable.')).toEqual([]);
    const text = 'We decided to keep the index in the git common dir because worktrees share it. We decided that after measuring both.';
    expect(detectSignals(text).length).toBeLessThanOrEqual(1);
  });

  it('returns statements from a lower floor when asked (for a judge), and the floor alone decides', () => {
    const text = 'The flaky test was caused by the shared temp dir; each test now gets its own.\n\nI ran the tests.';
    expect(detectSignals(text)).toEqual([]);
    const judged = detectSignals(text, { floor: JUDGE_FLOOR });
    expect(judged.map((s) => s.body)).toEqual(['The flaky test was caused by the shared temp dir; each test now gets its own.']);
    expect(judged[0]!.confidence).toBeGreaterThanOrEqual(JUDGE_FLOOR);
    expect(tierOf(judged[0]!.confidence)).toBe('skip');
    // Lower still, the remark that says nothing comes too, below the judge's floor.
    const all = detectSignals(text, { floor: 0 });
    expect(all).toHaveLength(2);
    expect(all[1]!.confidence).toBeLessThan(JUDGE_FLOOR);
  });

  it('tiers confidences', () => {
    expect(tierOf(AUTO_THRESHOLD)).toBe('auto');
    expect(tierOf(0.9)).toBe('suggest');
    expect(tierOf(SUGGEST_THRESHOLD)).toBe('suggest');
    expect(tierOf(0.69)).toBe('skip');
  });

  it('summaries are one line of at most 100 characters, never cut inside a word', () => {
    const long = `We decided to keep ${'the very long '.repeat(12)}index in the git common dir because worktrees share it.`;
    for (const s of detectSignals(long)) {
      expect([...s.summary].length).toBeLessThanOrEqual(100);
      expect(s.summary).not.toContain('\n');
      if (s.summary.endsWith('…')) expect(long).toContain(`${s.summary.slice(0, -1)} `);
    }
    // A Markdown link reads as its text, and a URL is never cut short.
    const linked = 'We decided to pin the action to [the commit that fixed the cache key](https://github.com/example/action/commit/0123456789abcdef0123456789abcdef01234567) because the tag moved twice.';
    const [l] = detectSignals(linked);
    expect(l).toBeDefined();
    expect(l!.summary).not.toContain('](');
    expect(l!.summary).toContain('the commit that fixed the cache key');
    const bare = 'We decided to move the retry settings into the shared config, documented at https://example.com/some/very/long/path/to/the/settings/page/that/goes/on because the defaults differ.';
    const [b] = detectSignals(bare);
    expect(b).toBeDefined();
    expect(b!.summary).toMatch(/…$/);
    expect(b!.summary).not.toMatch(/https?:\S*…$/);
    expect(bare).toContain(`${b!.summary.slice(0, -1)} `);
    // Nor inside a code span.
    const spanned = 'We decided to use FastAPI because it has native async support and pydantic, see `app = FastAPI(title=x, docs_url=None)` in main.';
    const [c] = detectSignals(spanned);
    expect(c).toBeDefined();
    expect((c!.summary.match(/`/g) ?? []).length % 2).toBe(0);
    // A lead-in takes what it introduces.
    const lead = 'After a day of bisecting, the cause of the flaky upload test is clear:\n\n- the temp dir was shared between workers, so one worker deleted files another still used';
    const [s] = detectSignals(lead);
    if (s) expect(s.body).toContain('temp dir was shared');
  });
});

describe('wantsRecall and novelty', () => {
  it('recognises recall trigger phrases', () => {
    for (const p of ['Why did we pick sql.js?', 'remind me what the plan was', 'Where were we?', 'what did we learn about CI', 'Let us pick up where we left off']) expect(wantsRecall(p), p).toBe(true);
    for (const p of ['Write a function', 'Why is this slow?', 'remember to add tests']) expect(wantsRecall(p), p).toBe(false);
  });

  it('normalizes case, punctuation and spacing', () => {
    expect(normalizeForNovelty('  Use SQL.js, for the index! ')).toBe(normalizeForNovelty('use sql js for the index'));
    expect(normalizeForNovelty('a b')).not.toBe(normalizeForNovelty('a c'));
  });
});

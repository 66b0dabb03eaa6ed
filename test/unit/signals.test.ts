import { describe, expect, it } from 'vitest';
import { AUTO_THRESHOLD, detectSignals, normalizeForNovelty, SUGGEST_THRESHOLD, tierOf, wantsRecall } from '../../src/core/signals.ts';

describe('detectSignals', () => {
  it('scores phrases as the earlier system did', () => {
    const cases: Array<[string, string, number]> = [
      ['We decided to use sql.js because it needs no native build.', 'decisions', 0.9],
      ['The decision was to keep notes per namespace in separate refs.', 'decisions', 0.88],
      ["We'll go with the wildcard refspec for fetching memories.", 'decisions', 0.85],
      ['TIL git fans out a notes tree once it holds 256 notes or more.', 'learnings', 0.95],
      ['It turns out isomorphic-git ignores commondir in linked worktrees.', 'learnings', 0.85],
      ['We are blocked by the missing network access on CI machines.', 'blockers', 0.92],
      ['Finally fixed the flaky port allocation in the daemon tests.', 'learnings', 0.92],
      ['Following best practice, every ref update is a compare-and-swap.', 'patterns', 0.88],
    ];
    for (const [text, namespace, confidence] of cases) {
      const [top] = detectSignals(text);
      expect(top, text).toBeDefined();
      expect(top!.namespace, text).toBe(namespace);
      expect(top!.confidence, text).toBeCloseTo(confidence, 2);
      expect(top!.summary).toBe(text);
    }
  });

  it('captures an explicit request as the thing to keep, without the request words', () => {
    expect(detectSignals('For future reference, the index lives in the git common dir.')[0]).toMatchObject({ namespace: 'learnings', confidence: 0.9, summary: 'The index lives in the git common dir.' });
    expect(detectSignals('Please remember this: staging deploys need the VPN on.')[0]).toMatchObject({ confidence: 0.98, summary: 'Staging deploys need the VPN on.', body: 'Please remember this: staging deploys need the VPN on.' });
    // Nothing but the request: the sentence stays as it was.
    expect(detectSignals('Remember this one.')[0]!.summary).toBe('Remember this one.');
  });

  it('raises confidence near a reinforcer and lowers it for very short statements', () => {
    expect(detectSignals('We decided to always run the merge inside the lock here.')[0]!.confidence).toBeCloseTo(0.95, 2);
    expect(detectSignals('Went with it.')[0]!.confidence).toBeCloseTo(0.75, 2);
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

  it('finds nothing in ordinary text, and one signal per statement', () => {
    expect(detectSignals('Write a factorial function in TypeScript with tests.')).toEqual([]);
    expect(detectSignals('Please refactor the parser and keep the API stable.')).toEqual([]);
    const both = detectSignals('I realized and I learned that the cache is stale.');
    expect(both).toHaveLength(1);
  });

  it('tiers confidences', () => {
    expect(tierOf(AUTO_THRESHOLD)).toBe('auto');
    expect(tierOf(0.9)).toBe('suggest');
    expect(tierOf(SUGGEST_THRESHOLD)).toBe('suggest');
    expect(tierOf(0.69)).toBe('skip');
  });

  it('cuts summaries to 100 characters', () => {
    const long = `TIL ${'very '.repeat(40)}long.`;
    const [s] = detectSignals(long);
    expect([...s!.summary].length).toBeLessThanOrEqual(100);
    expect(s!.summary.endsWith('…')).toBe(true);
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

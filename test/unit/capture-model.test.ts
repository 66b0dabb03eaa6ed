/**
 * The capture model's weights are checked, never silently replaced; its
 * scores are the same on every build (integer sums, a logistic function with
 * + - * / only); and the statements it is given are prose, not code or logs.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CaptureModel, captureModel, exactExp, sigmoid } from '../../src/core/capture-model.ts';
import { CAPTURE_WEIGHTS } from '../../src/core/capture-weights.ts';
import { statementsOf, summaryLine } from '../../src/core/statements.ts';
import { prng } from '../helpers/prng.ts';

describe('the weights', () => {
  it('the shipped table decodes and passes its checksum', () => {
    expect(() => new CaptureModel(CAPTURE_WEIGHTS)).not.toThrow();
  });

  it('its digest is SHA-256 of the numbers that score, then the weights (computed here apart from weightsDigest)', () => {
    const t = CAPTURE_WEIGHTS;
    const header = JSON.stringify({ version: t.version, bits: t.bits, rows: t.rows, bias: t.bias, scale: t.scale, calibration: t.calibration });
    const digest = createHash('sha256').update(header).update(Buffer.from(t.weights.join(''), 'base64')).digest('hex');
    expect(digest).toBe(t.sha256);
  });

  it('a damaged table is an error, never a model that scores otherwise', () => {
    const lines = [...CAPTURE_WEIGHTS.weights];
    // One character changed in the middle of the weights.
    const i = lines.length >> 1;
    const line = lines[i]!;
    lines[i] = `${line.slice(0, 10)}${line[10] === 'A' ? 'B' : 'A'}${line.slice(11)}`;
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, weights: lines })).toThrow(/damaged/);
    // A chunk lost.
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, weights: CAPTURE_WEIGHTS.weights.slice(1) })).toThrow(/damaged/);
    // Numbers that score with the weights are covered by the checksum too.
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, bias: CAPTURE_WEIGHTS.bias.map((b, r) => (r === 0 ? b + 0.5 : b)) })).toThrow(/damaged/);
    expect(() => new CaptureModel({ ...CAPTURE_WEIGHTS, calibration: { a: CAPTURE_WEIGHTS.calibration.a, b: 3 } })).toThrow(/damaged/);
  });
});

describe('deterministic scores', () => {
  it('exactExp agrees with Math.exp to the last few bits, using only + - * /', () => {
    const rand = prng(9);
    for (let i = 0; i < 5000; i++) {
      const x = (rand() - 0.5) * 80;
      expect(Math.abs(exactExp(x) - Math.exp(x)) / Math.exp(x)).toBeLessThan(1e-14);
    }
    expect(sigmoid(0)).toBe(0.5);
  });

  it('the same text scores the same in two model instances and twice in one', () => {
    const a = new CaptureModel(CAPTURE_WEIGHTS);
    const text = 'We switched the cache to LRU because the working set no longer fits in memory.';
    expect(a.score(text)).toEqual(captureModel().score(text));
    expect(a.score(text)).toEqual(a.score(text));
  });
});

describe('statements', () => {
  it('leaves out code blocks, tables, logs, quotes and struck text; a lead-in takes its list', () => {
    const text = [
      'We moved the index to the common dir because worktrees share it.',
      '',
      '```ts',
      'const decided = true;',
      '```',
      '```',
      'We decided to use sql.js because it needs no native build (prose inside a fence is still code).',
      '```',
      '',
      '| id | status |',
      '| --- | --- |',
      '| BR-2 | done |',
      '',
      '2026-01-02 10:00:01 ERROR blocked by lock',
      '> We decided to drop Python 3.7.',
      '',
      'The fix is:',
      '- release the lock after the write',
      '- retry once on conflict',
      '',
      '~~Blocked by CI.~~ CI works again.',
    ].join('\n');
    const found = statementsOf(text).map((s) => s.text);
    expect(found).toEqual([
      'We moved the index to the common dir because worktrees share it.',
      'The fix is:\n- release the lock after the write\n- retry once on conflict',
      'CI works again.',
    ]);
  });

  it('a summary line is cut at a word, and a lead-in is joined to what it introduces', () => {
    const long = `Use ${'many '.repeat(30)}words here.`;
    const line = summaryLine(long, '');
    expect([...line].length).toBeLessThanOrEqual(100);
    expect(line.endsWith('many…')).toBe(true);
    expect(summaryLine('The fix is:', '- release the lock after the write')).toBe('The fix is: release the lock after the write');
  });
});

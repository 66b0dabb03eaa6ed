// Redaction measured on the corpus in test/fixtures/secrets (issue 5: >= 95% of secrets
// caught, < 1% of ordinary text changed). Prints the figures; see also test/bench/redact.bench.ts.
import { afterAll, describe, expect, it } from 'vitest';
import { redact } from '../../src/core/redact/redact.ts';
import { nearMissLines, ordinaryLines, secretCases } from '../fixtures/secrets/corpus.ts';
import { evaluate } from '../fixtures/secrets/evaluate.ts';

const cases = secretCases();
const ordinary = ordinaryLines();
const score = evaluate((t) => redact(t).text, cases, ordinary);
const pct = (x: number) => `${(100 * x).toFixed(2)}%`;

describe('redact: corpus', () => {
  afterAll(() => {
    console.log(
      `redaction corpus: caught ${score.caught}/${score.secrets} secrets (${pct(score.catchRate)}), ` +
        `changed ${score.changed.length}/${score.ordinary} ordinary lines (${pct(score.falsePositiveRate)})`,
    );
    for (const m of score.missed) console.log(`  missed ${m.kind}: ${JSON.stringify(m.text)} -> ${JSON.stringify(m.output)}`);
    for (const c of score.changed) console.log(`  changed: ${JSON.stringify(c.text)} -> ${JSON.stringify(c.output)}`);
  });

  it('is large and varied enough to mean something', () => {
    expect(cases.length).toBeGreaterThanOrEqual(150);
    expect(new Set(cases.map((c) => c.kind)).size).toBeGreaterThanOrEqual(40);
    expect(ordinary.length).toBeGreaterThanOrEqual(300);
    expect(nearMissLines().length).toBeGreaterThanOrEqual(80);
  });

  it('is the same on every run (seeded) and holds no duplicate cases', () => {
    expect(secretCases().map((c) => c.text)).toEqual(cases.map((c) => c.text));
    expect(new Set(cases.map((c) => c.text)).size).toBe(cases.length);
  });

  it('catches at least 95% of the secrets: the secret value is gone and a marker stands in its place', () => {
    expect(score.catchRate).toBeGreaterThanOrEqual(0.95);
  });

  it('changes fewer than 1% of the ordinary lines', () => {
    expect(score.falsePositiveRate).toBeLessThan(0.01);
  });

  it('reports one found entry per marker', () => {
    for (const c of cases) {
      const r = redact(c.text);
      expect(r.found.length, c.text).toBe(r.text.match(/\[REDACTED:[a-z0-9_]+\]/g)?.length ?? 0);
    }
  });

  it('is idempotent on the corpus: redacting the output again changes nothing', () => {
    for (const c of cases) {
      const once = redact(c.text);
      expect(redact(once.text), c.text).toEqual({ text: once.text, found: [] });
    }
  });
});

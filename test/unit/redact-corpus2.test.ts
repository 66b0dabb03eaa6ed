// Redaction measured on the second corpus (test/fixtures/secrets2, issue 34), written apart from the
// rules: recall >= 0.97 and false-positive rate <= 0.01 on its checking half (providers, commands and
// key names the tuning half never showed) and on its tuning half. Prints the figures per half and family.
import { afterAll, describe, expect, it } from 'vitest';
import { negatives2, positives2 } from '../fixtures/secrets2/corpus.ts';
import { figures2 } from '../fixtures/secrets2/evaluate.ts';

const tuning = figures2('tuning');
const checking = figures2('checking');
const f = (x: number) => x.toFixed(4);

describe('redact: second corpus (issue 34)', () => {
  afterAll(() => {
    console.log(`second corpus: ${positives2().length} positives, ${negatives2().length} negatives`);
    for (const [name, s] of [['tuning', tuning], ['checking', checking]] as const) {
      console.log(`  ${name.padEnd(8)} recall ${f(s.recall)} (${s.positives - s.missed.length}/${s.positives})   false-positive rate ${f(s.fpr)} (${s.changed.length}/${s.negatives})`);
      for (const m of s.missed) console.log(`  missed ${m.c.family}/${m.c.source}/${m.c.shape} [${name}]: ${JSON.stringify(m.c.text).slice(0, 160)}`);
      for (const c of s.changed) console.log(`  changed ${c.n.family}/${c.n.source} [${name}]: ${JSON.stringify(c.n.text).slice(0, 120)} -> ${JSON.stringify(c.output).slice(0, 120)}`);
    }
  });

  it('is large and varied enough: 800+ positives in 9 families, 400+ negatives, halves of like size', () => {
    const pos = positives2();
    expect(pos.length).toBeGreaterThanOrEqual(800);
    expect(new Set(pos.map((c) => c.family)).size).toBeGreaterThanOrEqual(9);
    expect(new Set(pos.map((c) => c.shape)).size).toBeGreaterThanOrEqual(30);
    expect(negatives2().length).toBeGreaterThanOrEqual(400);
    expect(Math.abs(tuning.positives - checking.positives) / pos.length).toBeLessThan(0.1);
  });

  it('is the same on every run (seeded)', () => {
    expect(positives2().map((c) => c.text)).toEqual(positives2().map((c) => c.text));
    expect(negatives2().map((n) => n.text)).toEqual(negatives2().map((n) => n.text));
  });

  it('removes at least 97% of the secrets on the checking half (and on the tuning half)', () => {
    expect(checking.recall).toBeGreaterThanOrEqual(0.97);
    expect(tuning.recall).toBeGreaterThanOrEqual(0.97);
  });

  it('changes at most 1% of the negatives on the checking half (and on the tuning half)', () => {
    expect(checking.fpr).toBeLessThanOrEqual(0.01);
    expect(tuning.fpr).toBeLessThanOrEqual(0.01);
  });
});

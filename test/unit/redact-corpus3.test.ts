// Redaction measured on the third corpus (test/fixtures/secrets3), written apart from the rules: recall
// >= 0.97 and a false-positive rate <= 0.01 on each half of its synthetic cases, and on real public text
// (files of the repository snapshots in /work/.mirror, when they are at hand) at most 0.5% of the lines
// that could be taken for a secret changed without holding one. Prints the figures per half.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { negatives3, positives3 } from '../fixtures/secrets3/corpus.ts';
import { figures3, summary3 } from '../fixtures/secrets3/evaluate.ts';
import { MIRROR, realSources } from '../fixtures/secrets3/real-text.ts';

const tuning = figures3('tuning');
const checking = figures3('checking');
const mirrors = realSources().some((s) => fs.existsSync(path.join(MIRROR, s.repo, 'repo')));

describe('redact: third corpus', () => {
  afterAll(() => {
    console.log(`third corpus: ${positives3().length} positives, ${negatives3().length} synthetic negatives, ${realSources().length} files of real text listed`);
    for (const [name, s] of [['tuning', tuning], ['checking', checking]] as const) {
      console.log('  ' + summary3(name, s));
      for (const m of s.missed) console.log(`  missed ${m.c.family}/${m.c.source}/${m.c.shape} [${name}]: ${JSON.stringify(m.c.text).slice(0, 160)}`);
      for (const c of s.changed) console.log(`  changed ${c.n.family}/${c.n.source} [${name}]: ${JSON.stringify(c.n.text).slice(0, 120)} -> ${JSON.stringify(c.output).slice(0, 120)}`);
    }
  });

  it('is large and varied enough: 900+ positives in 10 families and 100+ placements, 300+ negatives, halves of like size', () => {
    const pos = positives3();
    expect(pos.length).toBeGreaterThanOrEqual(900);
    expect(new Set(pos.map((c) => c.family)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(pos.map((c) => c.shape)).size).toBeGreaterThanOrEqual(100);
    expect(negatives3().length).toBeGreaterThanOrEqual(300);
    expect(Math.abs(tuning.positives - checking.positives) / pos.length).toBeLessThan(0.1);
  });

  it('is the same on every run (seeded), and every secret is in its text', () => {
    expect(positives3().map((c) => c.text)).toEqual(positives3().map((c) => c.text));
    expect(negatives3().map((n) => n.text)).toEqual(negatives3().map((n) => n.text));
    expect(positives3().filter((c) => c.secrets.some((s) => !c.text.includes(s)))).toEqual([]);
  });

  it('removes at least 97% of the secrets on the checking half (and on the tuning half)', () => {
    expect(checking.recall).toBeGreaterThanOrEqual(0.97);
    expect(tuning.recall).toBeGreaterThanOrEqual(0.97);
  });

  it('changes at most 1% of the synthetic negatives on the checking half (and on the tuning half)', () => {
    expect(checking.fpr).toBeLessThanOrEqual(0.01);
    expect(tuning.fpr).toBeLessThanOrEqual(0.01);
  });

  it.skipIf(!mirrors)('changes at most 0.5% of the hard lines of real public text without a secret in them, on each half', () => {
    expect(tuning.real.files + checking.real.files).toBeGreaterThan(500);
    expect(tuning.real.fpr).toBeLessThanOrEqual(0.005);
    expect(checking.real.fpr).toBeLessThanOrEqual(0.005);
  });
});

// Redaction measured on the provider corpus (test/fixtures/secrets/kinds.ts, issue 18):
// recall >= 0.97 and false-positive rate <= 0.01, overall and on each half (tuning, checking).
// Prints the figures per kind; see also test/bench/redact.bench.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { redact } from '../../src/core/redact/redact.ts';
import { kindCount, type LabelledCase, type LabelledLine, negativeCases, providerCases } from '../fixtures/secrets/kinds.ts';
import { unseenCases, unseenNegatives } from '../fixtures/secrets/unseen.ts';

const positives = providerCases();
const negatives = negativeCases();

function caught(c: LabelledCase): { ok: boolean; output: string } {
  const output = redact(c.text).text;
  return { ok: output.includes('[REDACTED:') && !c.secrets.some((s) => output.includes(s)), output };
}

const posResults = positives.map((c) => ({ c, ...caught(c) }));
const negResults = negatives.map((n) => ({ n, output: redact(n.text).text }));

function figures(half?: 'tuning' | 'checking') {
  const p = posResults.filter((r) => !half || r.c.half === half);
  const n = negResults.filter((r) => !half || r.n.half === half);
  const missed = p.filter((r) => !r.ok);
  const changed = n.filter((r) => r.output !== r.n.text);
  return { positives: p.length, missed, negatives: n.length, changed, recall: 1 - missed.length / p.length, fpr: changed.length / n.length };
}

function perKind<T>(rows: T[], kind: (r: T) => string, bad: (r: T) => boolean): string {
  const by = new Map<string, [number, number]>();
  for (const r of rows) {
    const e = by.get(kind(r)) ?? [0, 0];
    e[0]++;
    if (bad(r)) e[1]++;
    by.set(kind(r), e);
  }
  return [...by].map(([k, [n, b]]) => `${k} ${n - b}/${n}`).join(', ');
}

// Lines of kinds the rules were first tuned without (unseen.ts): recall 0.9073 at first run; the
// weak-format table and the name/value rule came from it, so it is reported, not held out.
const unseen = unseenCases().map((c) => ({ c, output: redact(c.text).text }));
const unseenMissed = unseen.filter((r) => !r.output.includes('[REDACTED:') || r.c.secrets.some((s) => r.output.includes(s)));
const unseenNeg = unseenNegatives();
const unseenChanged = unseenNeg.filter((t) => redact(t).text !== t);
const unseenRecall = 1 - unseenMissed.length / unseen.length;
const unseenFpr = unseenChanged.length / unseenNeg.length;

const all = figures();
const tuning = figures('tuning');
const checking = figures('checking');
const f = (x: number) => x.toFixed(4);

describe('redact: provider corpus (issue 18)', () => {
  afterAll(() => {
    console.log(`provider corpus: ${kindCount()} kinds, ${all.positives} positives, ${all.negatives} negatives`);
    for (const [name, s] of [['all', all], ['tuning', tuning], ['checking', checking]] as const) {
      console.log(`  ${name.padEnd(8)} recall ${f(s.recall)} (${s.positives - s.missed.length}/${s.positives})   false-positive rate ${f(s.fpr)} (${s.changed.length}/${s.negatives})`);
    }
    console.log(`  unseen   recall ${f(unseenRecall)} (${unseen.length - unseenMissed.length}/${unseen.length})   false-positive rate ${f(unseenFpr)} (${unseenChanged.length}/${unseenNeg.length})`);
    for (const m of unseenMissed) console.log(`  unseen missed ${m.c.kind}: ${JSON.stringify(m.c.text).slice(0, 140)}`);
    console.log(`  recall per kind (caught/cases): ${perKind(posResults, (r) => r.c.kind, (r) => !r.ok)}`);
    console.log(`  unchanged per negative kind (unchanged/lines): ${perKind(negResults, (r) => r.n.kind, (r) => r.output !== r.n.text)}`);
    for (const m of all.missed) console.log(`  missed ${m.c.kind} [${m.c.half}]: ${JSON.stringify(m.c.text).slice(0, 160)}`);
    for (const c of all.changed) console.log(`  changed ${c.n.kind} [${c.n.half}]: ${JSON.stringify(c.n.text).slice(0, 120)} -> ${JSON.stringify(c.output).slice(0, 120)}`);
  });

  it('is large and varied enough: 500+ positives over 150+ kinds, 500+ negatives, both halves used', () => {
    expect(all.positives).toBeGreaterThanOrEqual(500);
    expect(kindCount()).toBeGreaterThanOrEqual(150);
    expect(new Set(positives.map((c) => c.kind)).size).toBeGreaterThanOrEqual(150);
    expect(all.negatives).toBeGreaterThanOrEqual(500);
    expect(Math.abs(tuning.positives - checking.positives)).toBeLessThanOrEqual(1);
  });

  it('is the same on every run (seeded)', () => {
    expect(providerCases().map((c) => c.text)).toEqual(positives.map((c) => c.text));
    expect(negativeCases().map((n: LabelledLine) => n.text)).toEqual(negatives.map((n) => n.text));
  });

  it('removes at least 97% of the secrets, on each half', () => {
    expect(tuning.recall).toBeGreaterThanOrEqual(0.97);
    expect(checking.recall).toBeGreaterThanOrEqual(0.97);
    expect(all.recall).toBeGreaterThanOrEqual(0.97);
  });

  it('carries over to lines of kinds it was not first tuned on (unseen.ts): recall >= 0.97, FPR <= 0.01', () => {
    expect(unseen.length).toBeGreaterThanOrEqual(400);
    expect(unseenRecall).toBeGreaterThanOrEqual(0.97);
    expect(unseenFpr).toBeLessThanOrEqual(0.01);
  });

  it("leaves the project's own docs and sources as they are (real engineering text, written for other reasons)", () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const files = [
      'README.md',
      ...fs.readdirSync(path.join(root, 'docs')).map((f) => `docs/${f}`),
      ...fs.readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' }).map((f) => `src/${f}`),
      // Not text: the capture model's weights, base64 (high-entropy by nature, and never redacted at run time).
    ].filter((f) => /\.(?:md|ts)$/.test(f) && !/secret-|redact|capture-weights/.test(f));
    const changed: string[] = [];
    let lines = 0;
    for (const f of files) {
      for (const line of fs.readFileSync(path.join(root, f), 'utf8').split('\n')) {
        lines++;
        const out = redact(line).text;
        if (out !== line) changed.push(`${f}: ${line.trim()} -> ${out.trim()}`);
      }
    }
    expect(lines).toBeGreaterThan(5000);
    expect(changed).toEqual([]);
  });

  it('holds with other seeds (new tokens and negatives from the same formats): recall >= 0.97, FPR <= 0.01', () => {
    for (const seed of [1, 2, 3]) {
      const pos = providerCases(seed).map(caught);
      const neg = negativeCases(seed * 7);
      const recall = pos.filter((r) => r.ok).length / pos.length;
      const fpr = neg.filter((n) => redact(n.text).text !== n.text).length / neg.length;
      console.log(`provider corpus, seed ${seed}: recall ${f(recall)}, false-positive rate ${f(fpr)}`);
      expect(recall).toBeGreaterThanOrEqual(0.97);
      expect(fpr).toBeLessThanOrEqual(0.01);
    }
  });

  it('changes at most 1% of the negatives, on each half', () => {
    expect(tuning.fpr).toBeLessThanOrEqual(0.01);
    expect(checking.fpr).toBeLessThanOrEqual(0.01);
    expect(all.fpr).toBeLessThanOrEqual(0.01);
  });

  it('keeps the text around each secret and names the kind', () => {
    // A key block and a webhook URL are redacted whole, from their BEGIN line or their https://.
    const whole = (kind: string) => /^private_key|service_account|webhook/.test(kind);
    const cut = posResults.filter((r) => {
      if (!r.ok || whole(r.c.kind)) return false;
      // What stood before the first secret, up to the last separator, is still there byte for byte.
      const before = r.c.text.slice(0, r.c.text.indexOf(r.c.secrets[0]!)).replace(/[^\s"'=:,(]*$/, '');
      return !r.output.startsWith(before) || !/\[REDACTED:[a-z0-9_]+\]/.test(r.output);
    });
    expect(cut.map((r) => `${r.c.text} -> ${r.output}`)).toEqual([]);
  });
});

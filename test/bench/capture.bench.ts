/**
 * Capture quality and speed: the detector (core/signals.ts) on the checking
 * half of tools/capture-model/data, each passage alone as a prompt would be,
 * against the previous detector (phrase patterns, read from git at the commit
 * before the model) in the same run: precision and recall per tier, recall and
 * namespace right per namespace, negatives taken per kind, whether summaries
 * are well formed, and the time to score 10 KB. Run: `npm run bench:capture`
 * (`-- --half tuning` for the half the model was trained on).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AUTO_THRESHOLD, detectSignals, SUGGEST_THRESHOLD } from '../../src/core/signals.ts';
import { loadCorpus, NAMESPACES, type Passage, split } from '../../tools/capture-model/corpus.ts';

/** The last commit whose detector was phrase patterns only. */
const PREVIOUS = 'b21dec9';

interface Detected {
  confidence: number;
  namespace: string;
  summary?: string;
}
type Detector = (text: string) => Detected | null;

async function previousDetector(): Promise<Detector> {
  const root = path.resolve(import.meta.dirname, '../..');
  const source = execFileSync('git', ['show', `${PREVIOUS}:src/core/signals.ts`], { cwd: root, encoding: 'utf8' });
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'capture-bench-')), 'signals.ts');
  fs.writeFileSync(file, source);
  const old = (await import(file)) as { detectSignals: (t: string) => Detected[] };
  return (text) => old.detectSignals(text)[0] ?? null;
}

const current: Detector = (text) => detectSignals(text)[0] ?? null;

function ratio(a: number, b: number): string {
  return (a / Math.max(1, b)).toFixed(3);
}

function evaluate(name: string, detect: Detector, passages: readonly Passage[]): void {
  const keeps = passages.filter((p) => p.keep);
  let [auto, autoRight, taken, takenRight, nsRight] = [0, 0, 0, 0, 0];
  const byNs = new Map(NAMESPACES.map((n) => [n, { all: 0, taken: 0, right: 0 }]));
  let [summaries, wellFormed] = [0, 0];
  const falseByKind = new Map<string, { all: number; taken: number }>();
  for (const p of passages) {
    const d = detect(p.text);
    const c = d?.confidence ?? 0;
    if (c >= AUTO_THRESHOLD) {
      auto++;
      if (p.keep) autoRight++;
    }
    const took = c >= SUGGEST_THRESHOLD;
    if (took) {
      taken++;
      if (p.keep) takenRight++;
      if (p.keep && d!.namespace === p.namespace) nsRight++;
    }
    if (took && d!.summary !== undefined) {
      summaries++;
      if (wellFormedSummary(d!.summary, p.text)) wellFormed++;
    }
    if (p.keep) {
      const n = byNs.get(p.namespace!)!;
      n.all++;
      if (took) n.taken++;
      if (took && d!.namespace === p.namespace) n.right++;
    } else {
      const kind = p.hard ?? 'other';
      const k = falseByKind.get(kind) ?? { all: 0, taken: 0 };
      k.all++;
      if (took) k.taken++;
      falseByKind.set(kind, k);
    }
  }
  console.log(`\n${name}`);
  console.log(`  auto (>= ${AUTO_THRESHOLD}):          precision ${ratio(autoRight, auto)}  recall ${ratio(autoRight, keeps.length)}  (${auto} captured)`);
  console.log(`  captured or suggested (>= ${SUGGEST_THRESHOLD}): precision ${ratio(takenRight, taken)}  recall ${ratio(takenRight, keeps.length)}  (${taken} taken)`);
  console.log(`  namespace right on ${ratio(nsRight, takenRight)} of the true positives`);
  console.log(`  recall by namespace: ${[...byNs].map(([n, x]) => `${n} ${ratio(x.taken, x.all)} of ${x.all}`).join(', ')}`);
  console.log(`  namespace right, by namespace (of its true positives): ${[...byNs].map(([n, x]) => `${n} ${ratio(x.right, x.taken)} of ${x.taken}`).join(', ')}`);
  if (summaries) console.log(`  summaries one line, at most 100 characters, not cut inside a word or URL: ${wellFormed} of ${summaries}`);
  console.log(`  negatives taken, by kind: ${[...falseByKind].sort().map(([k, x]) => `${k} ${x.taken}/${x.all}`).join(', ')}`);
}

/** One line of at most 100 characters; when cut (…), cut after a whole word of the text, never inside a word, URL or path. */
function wellFormedSummary(summary: string, text: string): boolean {
  if (summary.includes('\n') || [...summary].length > 100) return false;
  if (!summary.endsWith('…')) return true;
  const kept = summary.slice(0, -1);
  if ((kept.match(/`/g) ?? []).length % 2 === 1) return false;
  const last = (kept.split(' ').pop() ?? '').replace(/`/g, '');
  if (/[/\\:]|^\S{25,}$/.test(last)) return false;
  const words = text.replace(/\[([^\]\n]*)\]\([^)\s]*\)/g, '$1').split(/[\s*_`]+/);
  return words.some((w) => w === last || w.replace(/[,;:.!?)\]"']+$/, '') === last.replace(/[,;:.!?)\]"']+$/, ''));
}

/** Median milliseconds to detect in ~10 KB texts made of the passages. */
function speed(detect: (t: string) => unknown, passages: readonly Passage[]): number {
  const texts: string[] = [];
  let text = '';
  for (const p of passages) {
    text += `${p.text}\n\n`;
    if (text.length >= 10_240) {
      texts.push(text.slice(0, 10_240));
      text = '';
    }
  }
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const t of texts) {
      const start = performance.now();
      detect(t);
      times.push(performance.now() - start);
    }
  }
  times.sort((a, b) => a - b);
  return times[times.length >> 1]!;
}

async function main(): Promise<void> {
  const half = process.argv.includes('--half') ? process.argv[process.argv.indexOf('--half') + 1] : 'checking';
  const corpus = loadCorpus();
  const passages = half === 'tuning' ? split(corpus).tuning : split(corpus).checking;
  const keeps = passages.filter((p) => p.keep).length;
  console.log(`${half} half: ${passages.length} passages (${keeps} worth keeping) from ${new Set(passages.map((p) => p.group)).size} source groups`);
  const previous = await previousDetector();
  evaluate(`previous detector (phrases, ${PREVIOUS})`, previous, passages);
  evaluate('this build (capture model)', current, passages);
  const before = speed((t) => previous(t), passages);
  const now = speed((t) => detectSignals(t), passages);
  console.log(`\nscoring a 10 KB text (median): previous ${before.toFixed(2)} ms, this build ${now.toFixed(2)} ms (${(now / before).toFixed(2)}x)`);
}

await main();

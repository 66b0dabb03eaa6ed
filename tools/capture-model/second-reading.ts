/**
 * Second readings of the capture corpus: a sample of each half labelled
 * again, blind (the reader saw the passages, their origin and GUIDELINES.md,
 * not the labels), by readers other than the ones who labelled the corpus.
 * It tells how far a careful reader agrees with the labels, which bounds
 * what any detector can be measured to reach on them, and stands in for an
 * external judge (mem.capture.with): the tuning half's readings chose the
 * judge's floor (JUDGE_FLOOR), the checking half's were read once to report
 * it (docs/capture.md, "How far a reader gets").
 *
 *   bun tools/capture-model/second-reading.ts --sample out.jsonl [--half checking]   the passages to give a new reader
 *   bun tools/capture-model/second-reading.ts [--half checking]    agreement of each reading with the labels
 *   bun tools/capture-model/second-reading.ts --oof oof.jsonl      tuning: and the model's candidates judged by each reader;
 *     oof.jsonl from `LAMBDAS=0.00003 DUMP=oof.jsonl bun tools/capture-model/train.ts --dry-run`
 *   With --half checking the candidates are the shipped detector's (core/signals.ts), scored here.
 *
 * A reading is data/second-reading/<half>/<reader>.jsonl, one line per sampled
 * passage: {"passage": passageId, "keep", "namespace", "confidence": "sure" | "likely" | "unsure", "hard"};
 * judge-*.jsonl are a helper's answers as the judge, given each passage as a candidate (the detector's
 * namespace and confidence) and JUDGE_INSTRUCTIONS instead of the guide: {"passage", "keep", "namespace"}.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AUTO_THRESHOLD, detectSignals, JUDGE_FLOOR } from '../../src/core/signals.ts';
import { DATA_DIR, loadCorpus, type Passage, passageId, split } from './corpus.ts';

/** How many passages a reading covers, and the seed that draws them: the same sample for every reader. */
const SAMPLE_SIZE = 300;
const SEED = 'relabel-2026-11-26:';
const READINGS = path.join(DATA_DIR, 'second-reading');

interface Reading {
  passage: string;
  keep: boolean;
  namespace: string | null;
  /** A judge's answer (judge-*.jsonl: the candidates and JUDGE_INSTRUCTIONS, not the guide) says none. */
  confidence?: 'sure' | 'likely' | 'unsure';
  hard?: string | null;
}

/** The sample: a half's passages in the order of a seeded hash of their text, the first SAMPLE_SIZE. */
export function sample(half: readonly Passage[]): Passage[] {
  const key = (p: Passage) => createHash('sha1').update(SEED + p.text).digest('hex');
  return [...half].sort((a, b) => (key(a) < key(b) ? -1 : 1)).slice(0, SAMPLE_SIZE);
}

function readJsonl<T>(file: string): T[] {
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as T);
}

/** Precision, recall and F1 of `taken` against the labels, and the namespace agreement on what both keep. */
function measure(passages: readonly Passage[], taken: (p: Passage, i: number) => boolean, namespaceOf?: (i: number) => string | null): string {
  let [tp, fp, fn, same] = [0, 0, 0, 0];
  passages.forEach((p, i) => {
    const t = taken(p, i);
    if (t && p.keep) {
      tp++;
      if (namespaceOf?.(i) === p.namespace) same++;
    } else if (t) fp++;
    else if (p.keep) fn++;
  });
  const [pr, rc] = [tp / Math.max(1, tp + fp), tp / Math.max(1, tp + fn)];
  const f1 = (2 * pr * rc) / Math.max(1e-9, pr + rc);
  return `precision ${pr.toFixed(3)} recall ${rc.toFixed(3)} F1 ${f1.toFixed(3)}${namespaceOf ? `, namespace as labelled ${(same / Math.max(1, tp)).toFixed(3)}` : ''} (${tp + fp} taken of ${passages.length})`;
}

/** Cohen's kappa of two keep/not-keep labellings. */
function kappa(a: readonly boolean[], b: readonly boolean[]): number {
  const n = a.length;
  const agree = a.filter((x, i) => x === b[i]).length / n;
  const pa = a.filter(Boolean).length / n;
  const pb = b.filter(Boolean).length / n;
  const chance = pa * pb + (1 - pa) * (1 - pb);
  return (agree - chance) / (1 - chance);
}

function main(): void {
  const { values } = parseArgs({ options: { sample: { type: 'string' }, oof: { type: 'string' }, half: { type: 'string', default: 'tuning' } } });
  const half = values.half === 'checking' ? 'checking' : 'tuning';
  if (half === 'checking' && values.oof) throw new Error('--oof is for the tuning half (the checking half is scored by the shipped detector)');
  const drawn = sample(split(loadCorpus())[half]);
  if (values.sample) {
    fs.writeFileSync(values.sample, drawn.map((p, i) => JSON.stringify({ id: i + 1, origin: p.origin, text: p.text })).join('\n') + '\n');
    console.log(`${drawn.length} passages written to ${values.sample}: give them with GUIDELINES.md only, never the labels`);
    return;
  }
  const ids = drawn.map((p) => passageId(p.text));
  const dir = path.join(READINGS, half);
  const readers = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl')).sort();
  const readings = new Map<string, Reading[]>();
  for (const file of readers) {
    const byId = new Map(readJsonl<Reading>(path.join(dir, file)).map((r) => [r.passage, r]));
    const missing = ids.filter((id) => !byId.has(id)).length;
    if (missing) throw new Error(`${file}: ${missing} of the ${ids.length} sampled passages have no reading (the corpus or the sample changed)`);
    readings.set(file.replace(/\.jsonl$/, ''), ids.map((id) => byId.get(id)!));
  }
  const kept = drawn.filter((p) => p.keep).length;
  console.log(`sample: ${drawn.length} passages of the ${half} half, ${kept} worth keeping by the labels; ${readings.size} readings`);
  for (const [name, r] of readings) {
    console.log(`\n${name} against the labels, kappa ${kappa(r.map((x) => x.keep), drawn.map((p) => p.keep)).toFixed(3)}:`);
    console.log(`  kept:           ${measure(drawn, (_, i) => r[i]!.keep, (i) => r[i]!.namespace)}`);
    if (r.some((x) => x.confidence)) console.log(`  kept, sure:     ${measure(drawn, (_, i) => r[i]!.keep && r[i]!.confidence === 'sure')}`);
    for (const origin of [...new Set(drawn.map((p) => p.origin))].sort()) {
      const at = [...drawn.keys()].filter((i) => drawn[i]!.origin === origin);
      console.log(`  ${origin.padEnd(15)} ${measure(at.map((i) => drawn[i]!), (_, j) => r[at[j]!]!.keep, (j) => r[at[j]!]!.namespace)}`);
    }
  }
  const names = [...readings.keys()];
  for (let a = 0; a < names.length; a++) {
    for (let b = a + 1; b < names.length; b++) {
      const [ra, rb] = [readings.get(names[a]!)!, readings.get(names[b]!)!];
      const both = ra.map((x, i) => x.keep && rb[i]!.keep);
      const sameNs = ra.filter((x, i) => both[i] && x.namespace === rb[i]!.namespace).length;
      console.log(`\n${names[a]} against ${names[b]}: kappa ${kappa(ra.map((x) => x.keep), rb.map((x) => x.keep)).toFixed(3)}, namespace the same on ${(sameNs / Math.max(1, both.filter(Boolean).length)).toFixed(3)} of what both keep`);
    }
  }
  if (half === 'tuning' && !values.oof) return;
  // The model's confidence as detection scores a passage (its best statement): out of fold on the tuning
  // half, the shipped detector on the checking half. What reaches AUTO_THRESHOLD is captured at once,
  // without the judge (as its namespace says); the rest from the floor up is kept when the reader keeps it.
  let confidence: number[];
  let modelNamespace: Array<string | null>;
  if (values.oof) {
    const oof = new Map(readJsonl<{ passage: string; detectedP: number; nsGuess: string | null }>(values.oof).map((r) => [r.passage, r]));
    if (ids.some((id) => !oof.has(id))) throw new Error(`${values.oof}: not every sampled passage is in it (a DUMP of train.ts on this corpus?)`);
    confidence = ids.map((id) => oof.get(id)!.detectedP);
    modelNamespace = ids.map((id) => oof.get(id)!.nsGuess);
  } else {
    const best = drawn.map((p) => detectSignals(p.text, { floor: 0 })[0]);
    confidence = best.map((s) => s?.confidence ?? 0);
    modelNamespace = best.map((s) => s?.namespace ?? null);
  }
  const auto = (i: number) => confidence[i]! >= AUTO_THRESHOLD;
  console.log(`\n${values.oof ? 'the model out of fold' : 'the shipped detector'}, and its candidates from a floor judged by each reader (kept when the reader keeps it; JUDGE_FLOOR is ${JUDGE_FLOOR}):`);
  console.log(`  captured at once (${AUTO_THRESHOLD}): ${measure(drawn, (_, i) => auto(i), (i) => modelNamespace[i]!)}`);
  for (const floor of [0.2, 0.3, 0.4, 0.5, 0.7]) {
    console.log(`  floor ${floor.toFixed(1)}: model alone ${measure(drawn, (_, i) => confidence[i]! >= floor, (i) => modelNamespace[i]!)}`);
    for (const [name, r] of readings) console.log(`             judged by ${name}: ${measure(drawn, (_, i) => auto(i) || (confidence[i]! >= floor && r[i]!.keep), (i) => (auto(i) ? modelNamespace[i]! : r[i]!.namespace))}`);
  }
}

if (import.meta.main) main();

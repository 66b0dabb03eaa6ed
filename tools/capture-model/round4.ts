/**
 * Round 4 experiments (docs/capture.md, "Fourth round"): out of fold on the
 * tuning half only, grouped by source as train.ts does. The checking half is
 * never read here. Run: `bun tools/capture-model/round4.ts EXPERIMENT...`
 *
 * - curve:     learning curve of the shipped recipe, training on 25/50/75/100 %
 *              of each fold's training groups (AUC of keep, suggest-tier F1,
 *              namespace right of the kept passages).
 * - linear:    the shipped recipe (keep row with the phrase prior, namespace
 *              softmax on kept passages), the baseline for the rest.
 * - chars:     the linear model with character 3- to 5-grams added.
 * - fasttext:  hashed words, pairs, shapes (and CHARS=1 character n-grams) ->
 *              int8-sized embedding averaged -> ReLU hidden layer -> keep and
 *              namespace heads (FT_DIM, FT_HIDDEN, FT_EPOCHS, FT_BUCKET_BITS,
 *              FT_SEEDS: several seeds averaged).
 * - ensemble:  the linear and the fastText keep logits averaged (weights 0.5).
 * - w2v:       word vectors learned without labels (skip-gram with negative
 *              sampling) from public commit messages, W2V_TEXT=files (text,
 *              messages split by \x1e); each passage's mean vector appended
 *              to the linear model as W2V_DIM dense features (W2V_SCALE).
 *              Round 5 (docs/capture.md, "Fifth round"): W2V_TEXT from
 *              w2v-text.ts, W2V_EPOCHS passes, W2V_POOL (mean, meanmax,
 *              meanfirst, meanlast), W2V_TOKENS=shipped (the features' words),
 *              W2V_HASH_BITS with W2V_FP=1 (the binary's table), W2V_CACHE.
 * - ns:        namespace heads alone: the shipped softmax; balanced classes;
 *              one-vs-rest logistic rows; with character n-grams; L2 sweep.
 *
 * Same folds for every candidate (foldOf(group, 5)); the keep score is Platt-
 * calibrated on its own out-of-fold scores before the tiers are read.
 */
import { createHash } from 'node:crypto';
import { bucketOf, FEATURE_BUCKETS, featuresOf, PHRASES, statementWords, wordWeight } from '../../src/core/capture-features.ts';
import { MODEL_NAMESPACES } from '../../src/core/capture-model.ts';
import fs from 'node:fs';
import { porterStem } from '../../src/core/search/stem.ts';
import path from 'node:path';
import { DATA_DIR, foldOf, loadCorpus, loadFile, type Passage, split } from './corpus.ts';
import { prng } from '../../test/helpers/prng.ts';
import { auc, platt as plattScores, sig } from './metrics.ts';
import { trainWordVectors } from './word-vectors.ts';

const FOLDS = 5;
const STEPS = Number(process.env.STEPS ?? 300);
const LAMBDA = Number(process.env.LAMBDA ?? 3e-5);
const PHRASE_PRIOR = 1.5;
const PHRASE_STRENGTH = 0.01;
const priors = new Map(PHRASES.map(([name, sign]) => [bucketOf(`s:phrase:${name}`), sign === '+' ? PHRASE_PRIOR : -PHRASE_PRIOR]));

interface Ex {
  idx: Uint32Array;
  val: Float64Array;
  keep: number;
  ns: number;
  group: string;
  fold: number;
}

const FNV_OFFSET = 0x811c9dc5;
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** Character 3- to 5-grams of each lowercased word with its boundaries ("<word>"), hashed into `buckets` from `offset`. */
function charGrams(text: string, offset: number, bits: number): number[] {
  const mask = (1 << bits) - 1;
  const out = new Set<number>();
  const base = fnv(FNV_OFFSET, 'c:');
  for (const m of text.toLowerCase().matchAll(/[\p{L}\p{N}_'-]+/gu)) {
    const w = `<${m[0].slice(0, 30)}>`;
    for (let n = 3; n <= 5; n++) for (let i = 0; i + n <= w.length; i++) out.add(offset + ((fnv(base, w.slice(i, i + n)) >>> 0) & mask));
  }
  return [...out];
}

const CHAR_BITS = Number(process.env.CHAR_BITS ?? 16);

function exampleOf(p: Passage, chars: boolean, bucketBits = 16): Ex {
  const f = featuresOf(p.text);
  const norm = wordWeight(f.words.length);
  const fold = (x: number) => (bucketBits >= 16 ? x : x & ((1 << bucketBits) - 1));
  const idx: number[] = [...f.words].map(fold);
  const val: number[] = idx.map(() => norm);
  for (const s of f.shapes) {
    idx.push(fold(s));
    val.push(1);
  }
  if (chars) {
    const c = charGrams(p.text, bucketBits >= 16 ? FEATURE_BUCKETS : 0, bucketBits >= 16 ? CHAR_BITS : bucketBits);
    const cn = wordWeight(c.length);
    for (const x of c) {
      idx.push(x);
      val.push(cn);
    }
  }
  return { idx: Uint32Array.from(idx), val: Float64Array.from(val), keep: p.keep ? 1 : 0, ns: p.keep ? MODEL_NAMESPACES.indexOf(p.namespace as never) : -1, group: p.group, fold: TRAIN_ONLY.has(p.file) ? -1 : foldOf(p.group, FOLDS) };
}

/** EXTRA=file.jsonl,... (or extra/file.jsonl outside the corpus): passages of these files are in every fold's training set and never scored (what new data adds, judged on the rest). */
const TRAIN_ONLY = new Set((process.env.EXTRA ?? '').split(',').filter(Boolean));


function dot(w: Float64Array, e: Ex): number {
  let z = 0;
  for (let i = 0; i < e.idx.length; i++) z += w[e.idx[i]!]! * e.val[i]!;
  return z;
}

/** train.ts's trainer (full-batch Adam, L2, phrase prior on the keep row), with a per-example weight and any number of buckets. */
function trainLinear(examples: readonly Ex[], lambda: number, classes: number, target: (e: Ex) => number[] | null, opts: { prior?: Map<number, number>; weight?: (e: Ex) => number; buckets: number; ovr?: boolean }): { w: Float64Array[]; b: number[] } {
  const used = examples.filter((e) => target(e) !== null);
  const B = opts.buckets;
  const w = Array.from({ length: classes }, () => new Float64Array(B));
  const b = new Array<number>(classes).fill(0);
  const m = Array.from({ length: classes }, () => new Float64Array(B));
  const v = Array.from({ length: classes }, () => new Float64Array(B));
  const mb = new Array<number>(classes).fill(0);
  const vb = new Array<number>(classes).fill(0);
  const lr = 0.05;
  const [b1, b2, eps] = [0.9, 0.999, 1e-8];
  const g = Array.from({ length: classes }, () => new Float64Array(B));
  const active = [...new Set(used.flatMap((e) => [...e.idx]))];
  const totalWeight = used.reduce((s, e) => s + (opts.weight?.(e) ?? 1), 0);
  for (let step = 1; step <= STEPS; step++) {
    for (const x of g) for (const j of active) x[j] = 0;
    const gb = new Array<number>(classes).fill(0);
    for (const e of used) {
      const y = target(e)!;
      const z = w.map((row, c) => dot(row, e) + b[c]!);
      let p: number[];
      if (classes === 1 || opts.ovr) p = z.map(sig);
      else {
        const top = Math.max(...z);
        const ex = z.map((x) => Math.exp(x - top));
        const sum = ex.reduce((s, x) => s + x, 0);
        p = ex.map((x) => x / sum);
      }
      const weight = opts.weight?.(e) ?? 1;
      for (let c = 0; c < classes; c++) {
        const d = (weight * (p[c]! - y[c]!)) / totalWeight;
        gb[c]! += d;
        for (let i = 0; i < e.idx.length; i++) g[c]![e.idx[i]!]! += d * e.val[i]!;
      }
    }
    for (let c = 0; c < classes; c++) {
      const [wc, gc, mc, vc] = [w[c]!, g[c]!, m[c]!, v[c]!];
      for (const j of active) {
        const mu = opts.prior?.get(j);
        const grad = gc[j]! + (mu === undefined ? lambda * wc[j]! : PHRASE_STRENGTH * (wc[j]! - mu));
        mc[j] = b1 * mc[j]! + (1 - b1) * grad;
        vc[j] = b2 * vc[j]! + (1 - b2) * grad * grad;
        wc[j]! -= (lr * (mc[j]! / (1 - b1 ** step))) / (Math.sqrt(vc[j]! / (1 - b2 ** step)) + eps);
      }
      mb[c] = b1 * mb[c]! + (1 - b1) * gb[c]!;
      vb[c] = b2 * vb[c]! + (1 - b2) * gb[c]! * gb[c]!;
      b[c]! -= (lr * (mb[c]! / (1 - b1 ** step))) / (Math.sqrt(vb[c]! / (1 - b2 ** step)) + eps);
    }
  }
  return { w, b };
}

const keepTarget = (e: Ex) => [e.keep];
const nsTarget = (e: Ex) => (e.ns < 0 ? null : MODEL_NAMESPACES.map((_, i) => (i === e.ns ? 1 : 0)));


interface FastText {
  E: Float32Array;
  W: Float32Array;
  b1: Float32Array;
  V: Float32Array;
  c: Float32Array;
  dim: number;
  hidden: number;
}

const FT_DIM = Number(process.env.FT_DIM ?? 16);
const FT_HIDDEN = Number(process.env.FT_HIDDEN ?? 16);
const FT_EPOCHS = Number(process.env.FT_EPOCHS ?? 10);
const FT_LR = Number(process.env.FT_LR ?? 0.05);
const FT_NS_WEIGHT = Number(process.env.FT_NS_WEIGHT ?? 1);
const FT_L2 = Number(process.env.FT_L2 ?? 1e-6);

/** fastText-style: x = Σ val·E[idx] (val as the linear model's: 1/√n for words), h = ReLU(Wx + b1), keep = V0·h + c0, namespaces = V1..5·h + c1..5. SGD one example at a time, learning rate falling linearly to 0. */
function trainFastText(examples: readonly Ex[], buckets: number, seed: number): FastText {
  const [d, H] = [FT_DIM, FT_HIDDEN];
  const r = prng(seed);
  const E = new Float32Array(buckets * d).map(() => (r() * 2 - 1) / d);
  const W = new Float32Array(H * d).map(() => ((r() * 2 - 1) * Math.sqrt(6 / (d + H))));
  const b1 = new Float32Array(H);
  const V = new Float32Array(6 * H).map(() => ((r() * 2 - 1) * Math.sqrt(6 / (H + 6))));
  const c = new Float32Array(6);
  const order = [...examples.keys()];
  const total = FT_EPOCHS * examples.length;
  let t = 0;
  const x = new Float64Array(d);
  const h = new Float64Array(H);
  const dh = new Float64Array(H);
  const dx = new Float64Array(d);
  for (let epoch = 0; epoch < FT_EPOCHS; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    for (const k of order) {
      const e = examples[k]!;
      const lr = FT_LR * (1 - t++ / total);
      x.fill(0);
      for (let i = 0; i < e.idx.length; i++) {
        const o = e.idx[i]! * d;
        const v = e.val[i]!;
        for (let q = 0; q < d; q++) x[q]! += v * E[o + q]!;
      }
      for (let j = 0; j < H; j++) {
        let s = b1[j]!;
        for (let q = 0; q < d; q++) s += W[j * d + q]! * x[q]!;
        h[j] = s > 0 ? s : 0;
      }
      const z = new Float64Array(6);
      for (let o = 0; o < 6; o++) {
        let s = c[o]!;
        for (let j = 0; j < H; j++) s += V[o * H + j]! * h[j]!;
        z[o] = s;
      }
      // Output gradients: keep (sigmoid cross-entropy), namespaces (softmax cross-entropy, kept passages only).
      const gz = new Float64Array(6);
      gz[0] = sig(z[0]!) - e.keep;
      if (e.ns >= 0) {
        let top = -Infinity;
        for (let o = 1; o < 6; o++) top = Math.max(top, z[o]!);
        let sum = 0;
        for (let o = 1; o < 6; o++) sum += Math.exp(z[o]! - top);
        for (let o = 1; o < 6; o++) gz[o] = FT_NS_WEIGHT * (Math.exp(z[o]! - top) / sum - (o - 1 === e.ns ? 1 : 0));
      }
      dh.fill(0);
      for (let o = 0; o < 6; o++) {
        if (gz[o] === 0) continue;
        for (let j = 0; j < H; j++) {
          dh[j]! += gz[o]! * V[o * H + j]!;
          V[o * H + j]! -= lr * (gz[o]! * h[j]! + FT_L2 * V[o * H + j]!);
        }
        c[o]! -= lr * gz[o]!;
      }
      dx.fill(0);
      for (let j = 0; j < H; j++) {
        if (h[j]! <= 0) continue;
        for (let q = 0; q < d; q++) {
          dx[q]! += dh[j]! * W[j * d + q]!;
          W[j * d + q]! -= lr * (dh[j]! * x[q]! + FT_L2 * W[j * d + q]!);
        }
        b1[j]! -= lr * dh[j]!;
      }
      for (let i = 0; i < e.idx.length; i++) {
        const o = e.idx[i]! * d;
        const v = e.val[i]!;
        for (let q = 0; q < d; q++) E[o + q]! -= lr * (dx[q]! * v + FT_L2 * E[o + q]!);
      }
    }
  }
  return { E, W, b1, V, c, dim: d, hidden: H };
}

function scoreFastText(m: FastText, e: Ex): number[] {
  const { dim: d, hidden: H } = m;
  const x = new Float64Array(d);
  for (let i = 0; i < e.idx.length; i++) {
    const o = e.idx[i]! * d;
    for (let q = 0; q < d; q++) x[q]! += e.val[i]! * m.E[o + q]!;
  }
  const h = new Float64Array(H);
  for (let j = 0; j < H; j++) {
    let s = m.b1[j]!;
    for (let q = 0; q < d; q++) s += m.W[j * d + q]! * x[q]!;
    h[j] = s > 0 ? s : 0;
  }
  const z: number[] = [];
  for (let o = 0; o < 6; o++) {
    let s = m.c[o]!;
    for (let j = 0; j < H; j++) s += m.V[o * H + j]! * h[j]!;
    z.push(s);
  }
  return z;
}

// ---------------------------------------------------------------- metrics

function platt(raw: ArrayLike<number>, labels: readonly number[]): { a: number; b: number } {
  // Newton's method from a = 1 diverges on logits far from 1 in scale: fit on standardised scores.
  let mean = 0;
  for (let i = 0; i < labels.length; i++) mean += raw[i]! / labels.length;
  let sd = 0;
  for (let i = 0; i < labels.length; i++) sd += (raw[i]! - mean) ** 2 / labels.length;
  sd = Math.sqrt(sd) || 1;
  const scores = Array.from({ length: labels.length }, (_, i) => (raw[i]! - mean) / sd);
  const fit = plattScores(scores, labels);
  return { a: fit.a / sd, b: fit.b - (fit.a * mean) / sd };
}



function tierOf(p: readonly number[], y: readonly number[], t: number): { p: number; r: number; f1: number; n: number } {
  let [tp, fp] = [0, 0];
  p.forEach((x, i) => {
    if (x >= t) y[i] ? tp++ : fp++;
  });
  const pr = tp / Math.max(1, tp + fp);
  const rc = tp / Math.max(1, y.filter(Boolean).length);
  return { p: pr, r: rc, f1: (2 * pr * rc) / Math.max(1e-9, pr + rc), n: tp + fp };
}

interface Report {
  auc: number;
  logLoss: number;
  auto: ReturnType<typeof tierOf>;
  suggest: ReturnType<typeof tierOf>;
  top100: number;
  ns: number;
  /** Namespace right of the kept passages at the suggest tier (what the bench reports on the checking half). */
  nsTP: number;
}

/** Calibrates the out-of-fold keep scores and reads every figure the round compares. */
function report(allScores: ArrayLike<number>, allNs: ArrayLike<number>, everyExample: readonly Ex[]): Report {
  // Train-only passages (EXTRA) were never scored.
  const scored = everyExample.flatMap((e, i) => (e.fold >= 0 ? [i] : []));
  const examples = scored.map((i) => everyExample[i]!);
  const scores = scored.map((i) => allScores[i]!);
  const ns = scored.map((i) => allNs[i]!);
  const y = examples.map((e) => e.keep);
  const cal = platt(scores, y);
  const p = y.map((_, i) => sig(cal.a * scores[i]! + cal.b));
  const ll = -p.reduce((s, x, i) => s + (y[i] ? Math.log(Math.max(x, 1e-12)) : Math.log(Math.max(1 - x, 1e-12))), 0) / p.length;
  const top = [...y.keys()].sort((i, j) => scores[j]! - scores[i]!).slice(0, 100);
  const kept = examples.map((e, i) => ({ e, i })).filter(({ e }) => e.keep);
  return {
    auc: auc(scores, y),
    logLoss: ll,
    auto: tierOf(p, y, 0.95),
    suggest: tierOf(p, y, 0.7),
    top100: top.filter((i) => y[i]).length / 100,
    ns: kept.filter(({ e, i }) => ns[i] === e.ns).length / kept.length,
    nsTP: kept.filter(({ e, i }) => p[i]! >= 0.7 && ns[i] === e.ns).length / Math.max(1, kept.filter(({ i }) => p[i]! >= 0.7).length),
  };
}

function show(name: string, r: Report): void {
  const f = (x: number) => x.toFixed(3);
  console.log(`${name.padEnd(34)} AUC ${f(r.auc)}  logloss ${r.logLoss.toFixed(4)}  top100 ${r.top100.toFixed(2)}  auto ${f(r.auto.p)}/${f(r.auto.r)} (${r.auto.n})  suggest ${f(r.suggest.p)}/${f(r.suggest.r)} F1 ${f(r.suggest.f1)}  ns ${f(r.ns)} (of TP ${f(r.nsTP)})`);
}

const argmax = (z: ArrayLike<number>, from = 0) => {
  let best = from;
  for (let i = from + 1; i < z.length; i++) if (z[i]! > z[best]!) best = i;
  return best;
};

/** A stable number in [0, 1) for a group: which share of the training groups it is in (learning curve). */
function shareOf(group: string): number {
  return createHash('sha1').update(`share:${group}`).digest().readUInt32BE(0) / 2 ** 32;
}

/** Out of fold: the linear recipe's keep logits and namespace guesses, training on `share` of each fold's training groups. */
function linearOOF(examples: readonly Ex[], buckets: number, share = 1, nsOpts?: { balanced?: boolean; ovr?: boolean; lambda?: number }, keepOnly = false): { keep: Float64Array; ns: Int32Array; nsp: Float64Array[] } {
  const keep = new Float64Array(examples.length);
  const ns = new Int32Array(examples.length).fill(-1);
  const nsp = examples.map(() => new Float64Array(MODEL_NAMESPACES.length));
  for (let f = 0; f < FOLDS; f++) {
    const trainSet = examples.filter((e) => e.fold !== f && shareOf(e.group) < share);
    const k = trainLinear(trainSet, LAMBDA, 1, keepTarget, { prior: priors, buckets });
    let weight: ((e: Ex) => number) | undefined;
    if (nsOpts?.balanced) {
      const counts = MODEL_NAMESPACES.map((_, c) => trainSet.filter((e) => e.ns === c).length);
      const keptN = counts.reduce((a, x) => a + x, 0);
      weight = (e) => keptN / (MODEL_NAMESPACES.length * Math.max(1, counts[e.ns]!));
    }
    const n = keepOnly ? null : trainLinear(trainSet, nsOpts?.lambda ?? LAMBDA, MODEL_NAMESPACES.length, nsTarget, { buckets, weight, ovr: nsOpts?.ovr });
    examples.forEach((e, i) => {
      if (e.fold !== f) return;
      keep[i] = dot(k.w[0]!, e) + k.b[0]!;
      if (!n) return;
      const z = n.w.map((row, c) => dot(row, e) + n.b[c]!);
      ns[i] = argmax(z);
      nsp[i] = probs(z, nsOpts?.ovr === true);
    });
  }
  return { keep, ns, nsp };
}

/** Namespace probabilities from logits: softmax, or one-vs-rest sigmoids normalised to sum 1. */
function probs(z: readonly number[], ovr: boolean): Float64Array {
  const top = Math.max(...z);
  const p = Float64Array.from(z, (x) => (ovr ? sig(x) : Math.exp(x - top)));
  const sum = p.reduce((a, x) => a + x, 0);
  return p.map((x) => x / sum);
}

function fastTextOOF(examples: readonly Ex[], buckets: number, share = 1): { keep: Float64Array; ns: Int32Array; nsp: Float64Array[] } {
  const seeds = Number(process.env.FT_SEEDS ?? 1);
  const keep = new Float64Array(examples.length);
  const nsz = Array.from({ length: examples.length }, () => new Float64Array(6));
  for (let f = 0; f < FOLDS; f++) {
    const trainSet = examples.filter((e) => e.fold !== f && shareOf(e.group) < share);
    for (let s = 0; s < seeds; s++) {
      const m = trainFastText(trainSet, buckets, 27 + 1000 * f + s);
      examples.forEach((e, i) => {
        if (e.fold !== f) return;
        const z = scoreFastText(m, e);
        keep[i]! += z[0]! / seeds;
        for (let o = 1; o < 6; o++) nsz[i]![o]! += z[o]! / seeds;
      });
    }
  }
  return { keep, ns: Int32Array.from(nsz.map((z) => argmax(z, 1) - 1)), nsp: nsz.map((z) => probs([...z.subarray(1)], false)) };
}

/** Namespace by (complement) naive Bayes over the same buckets, binary: out of fold, trained on the kept passages of the other folds. */
function naiveBayesNsOOF(examples: readonly Ex[], buckets: number, alpha: number, complement: boolean): Int32Array {
  const ns = new Int32Array(examples.length).fill(-1);
  const C = MODEL_NAMESPACES.length;
  for (let f = 0; f < FOLDS; f++) {
    const trainSet = examples.filter((e) => e.fold !== f && e.ns >= 0);
    const counts = Array.from({ length: C }, () => new Float64Array(buckets));
    const totals = new Float64Array(C);
    const docs = new Float64Array(C);
    for (const e of trainSet) {
      docs[e.ns]!++;
      for (const j of e.idx) {
        counts[e.ns]![j]!++;
        totals[e.ns]!++;
      }
    }
    const all = new Float64Array(buckets);
    for (const row of counts) for (let j = 0; j < buckets; j++) all[j]! += row[j]!;
    const allTotal = totals.reduce((a, x) => a + x, 0);
    const logp = counts.map((row, c) => {
      const out = new Float64Array(buckets);
      for (let j = 0; j < buckets; j++) {
        if (complement) out[j] = -Math.log((all[j]! - row[j]! + alpha) / (allTotal - totals[c]! + alpha * buckets));
        else out[j] = Math.log((row[j]! + alpha) / (totals[c]! + alpha * buckets));
      }
      return out;
    });
    examples.forEach((e, i) => {
      if (e.fold !== f) return;
      const z = logp.map((row, c) => {
        let s = complement ? 0 : Math.log(docs[c]! / trainSet.length);
        for (const j of e.idx) s += row[j]!;
        return s;
      });
      ns[i] = argmax(z);
    });
  }
  return ns;
}

// ---------------------------------------------------------------- word vectors

/** Lowercase stemmed words, as capture-features reads them (placeholders for code, links, paths, numbers). */
function tokens(text: string): string[] {
  // W2V_TOKENS=shipped: the words the shipped features read (capture-features.ts), as the binary would.
  if (process.env.W2V_TOKENS === 'shipped') return statementWords(text);
  const t = text
    .replace(/`[^`\n]{1,200}`/g, ' qcode ')
    .replace(/\bhttps?:\/\/\S+/g, ' qurl ')
    .replace(/(?:^|\s)(?:\.{0,2}\/)?[\w.-]+\/[\w./-]+/g, ' qpath ')
    .replace(/\b[0-9a-f]{7,40}\b/g, ' qhash ')
    .replace(/\bv?\d+(?:\.\d+)+\b/g, ' qversion ')
    .replace(/\b\d+\b/g, ' qnum ')
    .toLowerCase();
  const out: string[] = [];
  for (const m of t.matchAll(/[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu)) out.push(/^[a-z]+$/.test(m[0]) && m[0].length > 2 ? porterStem(m[0]) : m[0]);
  return out;
}

const W2V_DIM = Number(process.env.W2V_DIM ?? 64);

/** Skip-gram with negative sampling (window 5, 5 negatives, frequent words subsampled), W2V_EPOCHS passes (1); deterministic. */
function wordVectors(files: readonly string[]): Map<string, Float32Array> {
  const cache = process.env.W2V_CACHE ?? `/tmp/capture-w2v-${W2V_DIM}.json`;
  if (fs.existsSync(cache)) return new Map(Object.entries(JSON.parse(fs.readFileSync(cache, 'utf8')) as Record<string, number[]>).map(([w, v]) => [w, Float32Array.from(v)]));
  const docs: string[][] = [];
  for (const f of files) {
    for (const msg of fs.readFileSync(f, 'utf8').split('\x1e')) {
      const body = msg.split('\n').filter((l) => !/^\s*[\w-]+-by:/i.test(l)).join('\n');
      const ws = tokens(body);
      if (ws.length > 2) docs.push(ws);
    }
  }
  const epochs = Number(process.env.W2V_EPOCHS ?? 1);
  const trained = trainWordVectors(docs, W2V_DIM, epochs);
  const d = trained.dim;
  const vectors = new Map(trained.words.map((w, i) => [w, trained.vectors.slice(i * d, (i + 1) * d)]));
  fs.writeFileSync(cache, JSON.stringify(Object.fromEntries([...vectors].map(([w, v]) => [w, [...v].map((x) => Number(x.toFixed(5)))]))));
  return vectors;
}

/**
 * W2V_POOL: which dense features a passage gets from its word vectors (each part unit length):
 * mean (the mean vector), meanmax (mean, then the largest value of each dimension), meanfirst (mean,
 * then the first sentence's mean), meanlast (mean, then the last sentence's mean).
 */
const W2V_POOL = process.env.W2V_POOL ?? 'mean';
const poolParts = W2V_POOL === 'mean' ? 1 : 2;

function meanOf(ws: readonly string[], vectors: Map<string, Float32Array>): Float64Array {
  const sum = new Float64Array(W2V_DIM);
  for (const w of ws) {
    const v = vectors.get(w);
    if (v) for (let q = 0; q < W2V_DIM; q++) sum[q]! += v[q]!;
  }
  const norm = Math.sqrt(sum.reduce((a, x) => a + x * x, 0)) || 1;
  return sum.map((x) => x / norm);
}

/** The passage's pooled word vectors as dense features after the hashed buckets. */
function withVectors(e: Ex, text: string, vectors: Map<string, Float32Array>, scale: number): Ex {
  const parts = [meanOf(tokens(text), vectors)];
  if (W2V_POOL === 'meanmax') {
    const max = new Float64Array(W2V_DIM).fill(-Infinity);
    let any = false;
    for (const w of tokens(text)) {
      const v = vectors.get(w);
      if (!v) continue;
      any = true;
      for (let q = 0; q < W2V_DIM; q++) max[q] = Math.max(max[q]!, v[q]!);
    }
    const m = any ? max : new Float64Array(W2V_DIM);
    const norm = Math.sqrt(m.reduce((a, x) => a + x * x, 0)) || 1;
    parts.push(m.map((x) => x / norm));
  } else if (W2V_POOL === 'meanfirst' || W2V_POOL === 'meanlast') {
    const sentences = text.split(/(?<=[.!?])\s+|\n\s*\n/).filter((x) => tokens(x).length > 0);
    parts.push(meanOf(tokens((W2V_POOL === 'meanfirst' ? sentences[0] : sentences.at(-1)) ?? ''), vectors));
  }
  const dense = parts.flatMap((x) => [...x]);
  const idx = Uint32Array.from([...e.idx, ...dense.map((_, q) => FEATURE_BUCKETS + q)]);
  const val = Float64Array.from([...e.val, ...dense.map((x) => scale * x)]);
  return { ...e, idx, val };
}

/**
 * W2V_HASH_BITS=n: the vectors as the binary would hold them: 2^n buckets by a hash of the word, the
 * most frequent word of a bucket holding it, int8 with one scale; a word of no bucket's owner reads
 * its bucket's vector (as the binary cannot tell). Returned as a map over every word the tuning
 * half has, so the rest of the code reads it as before.
 */
function hashedVectors(vectors: Map<string, Float32Array>, bits: number): Map<string, Float32Array> {
  const mask = (1 << bits) - 1;
  const base = fnv(FNV_OFFSET, 'v:');
  // W2V_FP=1: a 16-bit fingerprint per bucket and two buckets a word may take (the first free one,
  // most frequent words first): a word reads a vector only where its fingerprint is.
  const withFp = process.env.W2V_FP === '1';
  const places = (w: string): { b: number[]; fp: number } => {
    const h = fnv(base, w) >>> 0;
    const b1 = h & mask;
    const fp = h >>> 16;
    const b2 = (b1 ^ (Math.imul(fp, 0x9e3779b1) >>> (32 - bits))) & mask;
    return { b: withFp ? [b1, b2] : [b1], fp };
  };
  const rows = new Map<number, { v: Float32Array; fp: number }>();
  // The cache keeps the vocabulary's order (most frequent first).
  for (const [w, v] of vectors) {
    const { b, fp } = places(w);
    const free = b.find((x) => !rows.has(x));
    if (free !== undefined) rows.set(free, { v, fp });
  }
  let max = 0;
  for (const { v } of rows.values()) for (const x of v) max = Math.max(max, Math.abs(x));
  const q = new Map([...rows].map(([b, { v, fp }]) => [b, { v: Float32Array.from(v, (x) => Math.round((x / max) * 127)), fp }]));
  const out = new Map<string, Float32Array>();
  for (const p of split(loadCorpus()).tuning) for (const w of tokens(p.text)) {
    const { b, fp } = places(w);
    for (const x of b) {
      const row = q.get(x);
      if (row && (!withFp || row.fp === fp)) {
        out.set(w, row.v);
        break;
      }
    }
  }
  console.log(`hashed${withFp ? ' with fingerprints, two choices' : ''}: ${rows.size} of ${1 << bits} buckets hold a vector (${vectors.size} words); ${out.size} words of the tuning half read one`);
  return out;
}

/** What is noise: a paired bootstrap over source groups (200 draws) of a candidate's gain over a base, out of fold. */
function bootstrap(words: readonly Ex[], base: { keep: ArrayLike<number>; ns: ArrayLike<number> }, cand: { keep: ArrayLike<number>; ns: ArrayLike<number> }): void {
  const scored = words.flatMap((e, i) => (e.fold >= 0 ? [i] : []));
  const groups = [...new Set(scored.map((i) => words[i]!.group))];
  const byGroup = new Map(groups.map((g) => [g, [] as number[]]));
  for (const i of scored) byGroup.get(words[i]!.group)!.push(i);
  const r = prng(4);
  const gains = { auc: [] as number[], logLoss: [] as number[], f1: [] as number[], ns: [] as number[] };
  for (let b = 0; b < 200; b++) {
    const pick = groups.flatMap(() => byGroup.get(groups[Math.floor(r() * groups.length)]!)!);
    const sub = pick.map((i) => words[i]!);
    const x = report(pick.map((i) => base.keep[i]!), pick.map((i) => base.ns[i]!), sub);
    const y = report(pick.map((i) => cand.keep[i]!), pick.map((i) => cand.ns[i]!), sub);
    gains.auc.push(y.auc - x.auc);
    gains.logLoss.push(y.logLoss - x.logLoss);
    gains.f1.push(y.suggest.f1 - x.suggest.f1);
    gains.ns.push(y.ns - x.ns);
  }
  for (const [k, xs] of Object.entries(gains)) {
    xs.sort((a, b) => a - b);
    console.log(`  bootstrap over groups, candidate - base, ${k}: median ${xs[100]!.toFixed(4)}, 90 % interval ${xs[10]!.toFixed(4)} .. ${xs[189]!.toFixed(4)}`);
  }
}

function main(): void {
  const what = new Set(process.argv.slice(2));
  // EXTRA may also name files outside the corpus (extra/file.jsonl in the data folder): read them too, as train-only.
  const corpus = loadCorpus();
  const seen = new Set(corpus.map((p) => p.text.trim()));
  const tuning = [...split(corpus).tuning, ...[...TRAIN_ONLY].filter((f) => f.includes('/')).flatMap((f) => loadFile(path.resolve(DATA_DIR, f), seen))];
  const words = tuning.map((p) => exampleOf(p, false));
  console.log(`tuning half: ${words.length} passages, ${words.filter((e) => e.keep).length} worth keeping, ${new Set(tuning.map((p) => p.group)).size} groups; 5 folds by group`);
  const t0 = performance.now();
  const lap = () => `${((performance.now() - t0) / 1000).toFixed(0)} s`;

  if (what.has('curve')) {
    console.log('learning curve (the shipped recipe; each fold trained on a share of its training groups, scored on the whole held-out fold):');
    for (const share of [0.25, 0.5, 0.75, 1]) {
      const r = linearOOF(words, FEATURE_BUCKETS, share);
      const n = words.filter((e) => e.fold !== 0 && shareOf(e.group) < share).length;
      show(`  ${share * 100} % (fold 0 trains on ${n})`, report(r.keep, r.ns, words));
    }
    console.log(`  [${lap()}]`);
  }

  let linear: { keep: Float64Array; ns: Int32Array } | undefined;
  if (what.has('linear') || what.has('ensemble')) {
    linear = linearOOF(words, FEATURE_BUCKETS);
    show('linear (the shipped recipe)', report(linear.keep, linear.ns, words));
  }
  if (what.has('chars')) {
    const ex = tuning.map((p) => exampleOf(p, true));
    const r = linearOOF(ex, FEATURE_BUCKETS + (1 << CHAR_BITS));
    show(`linear + char 3-5-grams (2^${CHAR_BITS})`, report(r.keep, r.ns, ex));
    console.log(`  [${lap()}]`);
  }
  let ft: { keep: Float64Array; ns: Int32Array } | undefined;
  if (what.has('fasttext') || what.has('ensemble') || what.has('ftcurve')) {
    const bits = Number(process.env.FT_BUCKET_BITS ?? 15);
    const ex = tuning.map((p) => exampleOf(p, process.env.CHARS === '1', bits));
    const name = `fastText d${FT_DIM} h${FT_HIDDEN} e${FT_EPOCHS} lr${FT_LR} 2^${bits}${process.env.CHARS === '1' ? ' +chars' : ''} x${process.env.FT_SEEDS ?? 1}`;
    if (what.has('ftcurve')) {
      for (const share of [0.25, 0.5, 0.75]) {
        const r = fastTextOOF(ex, 1 << bits, share);
        show(`  ${name} ${share * 100} %`, report(r.keep, r.ns, ex));
      }
    }
    ft = fastTextOOF(ex, 1 << bits);
    show(name, report(ft.keep, ft.ns, ex));
    console.log(`  [${lap()}]`);
  }
  if (what.has('ensemble') && linear && ft) {
    // Each model's logits standardised by its own Platt fit, then averaged.
    const y = words.map((e) => e.keep);
    const [cl, cf] = [platt(linear.keep, y), platt(ft.keep, y)];
    for (const wl of [0.5, 0.7]) {
      const z = linear.keep.map((x, i) => wl * (cl.a * x + cl.b) + (1 - wl) * (cf.a * ft!.keep[i]! + cf.b));
      show(`ensemble keep ${wl} linear, ns linear`, report(z, linear.ns, words));
    }
    show('  (linear keep, fastText ns)', report(linear.keep, ft.ns, words));
  }
  if (what.has('combo')) {
    // Keep: linear, fastText (d16: with the linear rows under 1 MB), their mean; namespace: softmax, one-vs-rest, fastText, their means.
    const lin = linearOOF(words, FEATURE_BUCKETS);
    const ovr = linearOOF(words, FEATURE_BUCKETS, 1, { ovr: true });
    const ex = tuning.map((p) => exampleOf(p, false, 15));
    const ftm = fastTextOOF(ex, 1 << 15);
    const y = words.map((e) => e.keep);
    const [cl, cf] = [platt(lin.keep, y), platt(ftm.keep, y)];
    const mean = lin.keep.map((x, i) => 0.5 * (cl.a * x + cl.b) + 0.5 * (cf.a * ftm.keep[i]! + cf.b));
    const avg = (...ps: Float64Array[][]) => Int32Array.from(words.map((_, i) => argmax(MODEL_NAMESPACES.map((__, c) => ps.reduce((a, q) => a + q[i]![c]!, 0)))));
    show('linear keep, softmax ns', report(lin.keep, lin.ns, words));
    show('linear keep, one-vs-rest ns', report(lin.keep, ovr.ns, words));
    show('fastText keep, fastText ns', report(ftm.keep, ftm.ns, words));
    show('mean keep, softmax+ovr ns', report(mean, avg(lin.nsp, ovr.nsp), words));
    show('mean keep, softmax+ovr+fastText ns', report(mean, avg(lin.nsp, ovr.nsp, ftm.nsp), words));
    show('mean keep, ovr+fastText ns', report(mean, avg(ovr.nsp, ftm.nsp), words));
    bootstrap(words, lin, { keep: mean, ns: avg(lin.nsp, ovr.nsp) });
    console.log(`  [${lap()}]`);
  }
  if (what.has('w2v')) {
    let vectors = wordVectors((process.env.W2V_TEXT ?? '').split(',').filter(Boolean));
    if (process.env.W2V_HASH_BITS) vectors = hashedVectors(vectors, Number(process.env.W2V_HASH_BITS));
    console.log(`  [${lap()}] ${vectors.size} word vectors`);
    const base = linearOOF(words, FEATURE_BUCKETS);
    show('linear (the shipped recipe)', report(base.keep, base.ns, words));
    for (const scale of (process.env.W2V_SCALE ?? '0.5,1,2').split(',').map(Number)) {
      const ex = words.map((e, i) => withVectors(e, tuning[i]!.text, vectors, scale));
      const r = linearOOF(ex, FEATURE_BUCKETS + poolParts * W2V_DIM);
      show(`  (pool ${W2V_POOL}, dim ${W2V_DIM})`, report(r.keep, r.ns, ex));
      show(`linear + word vectors x${scale}`, report(r.keep, r.ns, ex));
      bootstrap(ex, base, r);
    }
    console.log(`  [${lap()}]`);
  }
  if (what.has('nb')) {
    for (const alpha of [0.1, 0.3, 1]) {
      show(`ns: naive Bayes alpha ${alpha}`, report(words.map(() => 0), naiveBayesNsOOF(words, FEATURE_BUCKETS, alpha, false), words));
      show(`ns: complement NB alpha ${alpha}`, report(words.map(() => 0), naiveBayesNsOOF(words, FEATURE_BUCKETS, alpha, true), words));
    }
  }
  if (what.has('ns')) {
    const base = linearOOF(words, FEATURE_BUCKETS, 1, undefined);
    show('ns: shipped softmax', report(base.keep, base.ns, words));
    for (const lambda of [1e-5, 1e-4, 3e-4]) show(`ns: softmax L2 ${lambda}`, report(base.keep, linearOOF(words, FEATURE_BUCKETS, 1, { lambda }).ns, words));
    show('ns: softmax, balanced classes', report(base.keep, linearOOF(words, FEATURE_BUCKETS, 1, { balanced: true }).ns, words));
    show('ns: one-vs-rest rows', report(base.keep, linearOOF(words, FEATURE_BUCKETS, 1, { ovr: true }).ns, words));
    for (const alpha of [0.1, 0.5, 1]) {
      show(`ns: naive Bayes alpha ${alpha}`, report(base.keep, naiveBayesNsOOF(words, FEATURE_BUCKETS, alpha, false), words));
      show(`ns: complement NB alpha ${alpha}`, report(base.keep, naiveBayesNsOOF(words, FEATURE_BUCKETS, alpha, true), words));
    }
    const ex = tuning.map((p) => exampleOf(p, true));
    show('ns: softmax + char 3-5-grams', report(base.keep, linearOOF(ex, FEATURE_BUCKETS + (1 << CHAR_BITS), 1, {}).ns, ex));
    console.log(`  [${lap()}]`);
  }
}

main();

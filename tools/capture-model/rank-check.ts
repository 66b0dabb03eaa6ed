/**
 * Reads the CHECKING half: how two weight tables rank it, apart from where
 * their calibration puts the tiers (docs/capture.md, "Fourth round": read once
 * to tell a ranking gain from a stricter calibration). Each passage scored as
 * detection scores it: the best of its statements (core/statements.ts).
 * Run: `bun tools/capture-model/rank-check.ts OTHER_WEIGHTS.ts` (the file's
 * CAPTURE_WEIGHTS, against src/core/capture-weights.ts).
 */
import path from 'node:path';
import { CaptureModel, MODEL_NAMESPACES, type WeightsTable } from '../../src/core/capture-model.ts';
import { CAPTURE_WEIGHTS } from '../../src/core/capture-weights.ts';
import { statementsOf } from '../../src/core/statements.ts';
import { loadCorpus, split } from './corpus.ts';
import { auc } from './metrics.ts';


async function main(): Promise<void> {
  const other = (await import(path.resolve(process.argv[2]!))) as { CAPTURE_WEIGHTS: WeightsTable };
  const { checking } = split(loadCorpus());
  const y = checking.map((p) => (p.keep ? 1 : 0));
  for (const [name, table] of [['this tree', CAPTURE_WEIGHTS as WeightsTable], [path.basename(process.argv[2]!), other.CAPTURE_WEIGHTS]] as const) {
    const model = new CaptureModel(table);
    const verdicts = checking.map((p) => {
      const vs = statementsOf(p.text).map((st) => model.score(st.text));
      return vs.length ? vs.reduce((a, b) => (b.keep > a.keep ? b : a)) : null;
    });
    const p = verdicts.map((v) => v?.keep ?? 0);
    // The best F1 over every threshold, and precision at the recall the shipped tiers reach.
    const order = [...p.keys()].sort((i, j) => p[j]! - p[i]!);
    let [tp, best, bestAt] = [0, 0, 0];
    const pos = y.filter(Boolean).length;
    order.forEach((i, k) => {
      if (y[i]) tp++;
      const f1 = (2 * tp) / (k + 1 + pos);
      if (f1 > best) [best, bestAt] = [f1, p[i]!];
    });
    const at = (r: number) => {
      let t = 0;
      for (const [k, i] of order.entries()) {
        if (y[i]) t++;
        if (t >= r * pos) return (t / (k + 1)).toFixed(3);
      }
      return '-';
    };
    const kept = checking.map((c, i) => ({ c, v: verdicts[i] })).filter(({ c, v }) => c.keep && v);
    const nsRight = kept.filter(({ c, v }) => v!.namespace === c.namespace).length / kept.length;
    console.log(`${name}: AUC ${auc(p, y).toFixed(3)}; best F1 ${best.toFixed(3)} at ${bestAt.toFixed(2)}; precision at recall 0.4 / 0.5 / 0.6: ${at(0.4)} / ${at(0.5)} / ${at(0.6)}; namespace right on ${nsRight.toFixed(3)} of all kept passages (${MODEL_NAMESPACES.length} namespaces)`);
  }
}

await main();

/** Calibration and ranking measures shared by the capture model's training and experiment scripts. */

export const sig = (z: number) => 1 / (1 + Math.exp(-z));

/** Platt scaling: a, b minimising the log loss of sigmoid(a z + b) (Newton's method, with Platt's target smoothing). */
export function platt(scores: ArrayLike<number>, labels: readonly number[]): { a: number; b: number } {
  const pos = labels.filter((y) => y === 1).length;
  const neg = labels.length - pos;
  const t = labels.map((y) => (y === 1 ? (pos + 1) / (pos + 2) : 1 / (neg + 2)));
  let a = 1;
  let b = 0;
  for (let it = 0; it < 100; it++) {
    let [ga, gb, haa, hab, hbb] = [0, 0, 1e-9, 0, 1e-9];
    for (let i = 0; i < labels.length; i++) {
      const z = scores[i]!;
      const p = sig(a * z + b);
      const d = p - t[i]!;
      const h = p * (1 - p);
      ga += d * z;
      gb += d;
      haa += h * z * z;
      hab += h * z;
      hbb += h;
    }
    const det = haa * hbb - hab * hab;
    const da = (hbb * ga - hab * gb) / det;
    const db = (haa * gb - hab * ga) / det;
    a -= da;
    b -= db;
    if (Math.abs(da) + Math.abs(db) < 1e-9) break;
  }
  return { a, b };
}

/** Area under the ROC curve: how well the scores order kept passages above the rest. */
export function auc(scores: ArrayLike<number>, y: readonly number[]): number {
  const order = [...y.keys()].sort((i, j) => scores[i]! - scores[j]!);
  let rankSum = 0;
  order.forEach((i, r) => {
    if (y[i]) rankSum += r + 1;
  });
  const pos = y.filter(Boolean).length;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * (y.length - pos));
}

/** Median wall time (ms) of `runs` in-process calls, after a few warm-up calls (JIT, regex caches). */
export function median(runs: number, fn: () => void, warmup = 20): number {
  for (let i = 0; i < warmup; i++) fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

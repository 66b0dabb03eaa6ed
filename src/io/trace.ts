/**
 * GIT_MEM_TRACE=1: one stderr line per git call and per phase, with times, so
 * where a slow command spends its time can be seen in the compiled binary.
 */
const enabled = Boolean(process.env.GIT_MEM_TRACE);

/**
 * Marks a phase: milliseconds since the process started (Bun's start included), and the processor
 * time of this process so far (its threads, not the git processes it ran): on a busy machine the
 * first moves with the load, the second much less.
 */
export function tracePhase(label: string): void {
  if (!enabled) return;
  const { user, system } = process.cpuUsage();
  process.stderr.write(`git-mem trace: at ${performance.now().toFixed(1)} ms (cpu ${((user + system) / 1000).toFixed(1)} ms): ${label}\n`);
}

/** Whether GIT_MEM_TRACE is set: callers then compute what they would trace (recall's explanations). */
export function traceEnabled(): boolean {
  return enabled;
}

/** A line of explanation on stderr under GIT_MEM_TRACE (what a hook injected and why). */
export function traceLine(text: string): void {
  if (enabled) process.stderr.write(`git-mem trace: ${text}\n`);
}

/**
 * GIT_MEM_TRACE=1: one stderr line per git call and per phase, with times, so
 * where a slow command spends its time can be seen in the compiled binary.
 */
const enabled = Boolean(process.env.GIT_MEM_TRACE);

/** Marks a phase: milliseconds since the process started (Bun's start included). */
export function tracePhase(label: string): void {
  if (enabled) process.stderr.write(`git-mem trace: at ${performance.now().toFixed(1)} ms: ${label}\n`);
}

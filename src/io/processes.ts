/** Facts about other processes on this machine. */

/** Whether a process is running here: kill(pid, 0) fails with ESRCH when it is not (EPERM: running, someone else's). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Blocks this thread for `ms`: a synchronous wait between retries (locks, compare-and-swap). */
export function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

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

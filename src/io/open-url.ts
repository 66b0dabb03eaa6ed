/** Opens a URL in the person's browser, as the desktop would; a failure is only a notice. */
import { spawn } from 'node:child_process';

export function openUrl(url: string, onError: (message: string) => void): void {
  const [command, args] =
    process.platform === 'darwin' ? ['open', [url]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.on('error', (err) => onError(`could not open a browser (${command}: ${err.message}); open the URL yourself`));
    child.unref();
  } catch (err) {
    onError(`could not open a browser (${(err as Error).message}); open the URL yourself`);
  }
}

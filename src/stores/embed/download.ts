/**
 * Fetching the model files into the cache. Every request is bounded: no
 * answer within `connectMs`, or no byte for `stallMs`, aborts it. Files are
 * written to a temporary directory that is renamed into place only when all of
 * them arrived, so a model directory is never half there.
 */
import fs from 'node:fs';
import path from 'node:path';
import { MODEL_FILES } from './model-files.ts';

export interface DownloadOptions {
  /** `<baseUrl>/<file>` for each of MODEL_FILES. */
  baseUrl: string;
  /** The final model directory. */
  dir: string;
  connectMs: number;
  stallMs: number;
  /** Bytes received so far and the total known so far (the sum of the answered files' sizes). */
  progress?: (done: number, total: number) => void;
  /** Called once, when the first file answered: the download is really under way. */
  onStart?: () => void;
  fetchImpl?: typeof fetch;
}

export class DownloadError extends Error {}

/** Connection failures that mean the request was never answered (worth one more try). */
const RESET = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

function reason(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'timed out';
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(err);
}

/** Downloads every model file; throws DownloadError with a one-line reason. */
export async function downloadModel(options: DownloadOptions): Promise<{ bytes: number }> {
  const fetchImpl = options.fetchImpl ?? fetch;
  const parent = path.dirname(options.dir);
  fs.mkdirSync(parent, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(parent, `.${path.basename(options.dir)}.partial-`));
  let done = 0;
  let total = 0;
  try {
    for (const file of MODEL_FILES) {
      const url = `${options.baseUrl.replace(/\/+$/, '')}/${file}`;
      const controller = new AbortController();
      let timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), options.connectMs);
      const rearm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), options.stallMs);
      };
      try {
        let response: Response | undefined;
        // A kept-alive connection the server has just closed fails with a reset before any answer:
        // the request never reached it, so asking once more on a new connection is safe.
        for (let attempt = 1; !response; attempt++) {
          try {
            response = await fetchImpl(url, { signal: controller.signal, redirect: 'follow' });
          } catch (err) {
            if (attempt < 2 && !controller.signal.aborted && RESET.has(reason(err))) continue;
            throw new DownloadError(`cannot reach ${new URL(url).host}: ${reason(err)}`);
          }
        }
        if (!response.ok || !response.body) throw new DownloadError(`${url}: HTTP ${response.status}`);
        if (file === MODEL_FILES[0]) options.onStart?.();
        const length = Number(response.headers.get('content-length') ?? 0);
        total += length;
        rearm();
        const target = path.join(tmp, file);
        fs.mkdirSync(path.dirname(target), { recursive: true });
        const fd = fs.openSync(target, 'w');
        let got = 0;
        try {
          const reader = response.body.getReader();
          for (;;) {
            let chunk: Awaited<ReturnType<typeof reader.read>>;
            try {
              chunk = await reader.read();
            } catch (err) {
              throw new DownloadError(`${url}: ${reason(err)}`);
            }
            if (chunk.done) break;
            fs.writeSync(fd, chunk.value);
            got += chunk.value.byteLength;
            done += chunk.value.byteLength;
            if (!length) total = Math.max(total, done);
            rearm();
            options.progress?.(done, total);
          }
        } finally {
          fs.closeSync(fd);
        }
        if (got === 0) throw new DownloadError(`${url}: empty file`);
        if (length && got !== length) throw new DownloadError(`${url}: got ${got} of ${length} bytes`);
      } finally {
        clearTimeout(timer);
      }
    }
    fs.rmSync(options.dir, { recursive: true, force: true });
    fs.renameSync(tmp, options.dir);
    return { bytes: done };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** A failed automatic download is not retried for this long (`git mem model pull` always tries). */
export const RETRY_AFTER_MS = 60 * 60 * 1000;

export interface FailureRecord {
  at: string;
  reason: string;
}

export function failureFile(cacheDir: string): string {
  return path.join(cacheDir, 'models', '.last-download-failure.json');
}

export function readFailure(cacheDir: string): FailureRecord | null {
  try {
    const r = JSON.parse(fs.readFileSync(failureFile(cacheDir), 'utf8')) as FailureRecord;
    return typeof r.at === 'string' && typeof r.reason === 'string' ? r : null;
  } catch {
    return null;
  }
}

export function recordFailure(cacheDir: string, record: FailureRecord | null): void {
  try {
    if (!record) {
      fs.rmSync(failureFile(cacheDir), { force: true });
      return;
    }
    fs.mkdirSync(path.dirname(failureFile(cacheDir)), { recursive: true });
    fs.writeFileSync(failureFile(cacheDir), `${JSON.stringify(record)}\n`);
  } catch {
    // A cache we cannot write only means the next recall tries again.
  }
}

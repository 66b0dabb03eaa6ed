/**
 * Reading a hook's input: the first complete JSON object on stdin. Claude Code
 * does not always close stdin, so stop as soon as one object is in, or after a
 * short timeout, and never read more than a few MB.
 */
export const MAX_INPUT_BYTES = 4 * 1024 * 1024;

/** Length of the first complete JSON object at the start of `text` (after whitespace), or -1. */
export function completeObjectLength(text: string): number {
  let i = 0;
  while (i < text.length && /\s/.test(text[i]!)) i++;
  if (text[i] !== '{') return text.length > i ? -2 : -1;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

export class HookInputError extends Error {}

export function readHookInput(stream: NodeJS.ReadableStream, timeoutMs = 1500): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = '';
    let bytes = 0;
    let done = false;
    const finish = (err: Error | null, value?: Record<string, unknown>) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      (stream as NodeJS.ReadStream).pause?.();
      (stream as NodeJS.ReadStream).unref?.();
      if (err) reject(err);
      else resolve(value!);
    };
    const tryParse = (final: boolean) => {
      const n = completeObjectLength(text);
      if (n === -2) return finish(new HookInputError('hook input is not a JSON object'));
      if (n < 0) {
        if (final) finish(new HookInputError(text.trim() ? 'hook input is incomplete JSON' : 'hook input is empty'));
        return;
      }
      try {
        const value: unknown = JSON.parse(text.slice(0, n));
        if (!value || typeof value !== 'object' || Array.isArray(value)) return finish(new HookInputError('hook input is not a JSON object'));
        finish(null, value as Record<string, unknown>);
      } catch {
        finish(new HookInputError('hook input is not valid JSON'));
      }
    };
    const onData = (chunk: Buffer | string) => {
      bytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (bytes > MAX_INPUT_BYTES) return finish(new HookInputError(`hook input is over ${MAX_INPUT_BYTES} bytes`));
      text += chunk.toString();
      tryParse(false);
    };
    const onEnd = () => tryParse(true);
    const onError = (err: Error) => finish(new HookInputError(`cannot read hook input: ${err.message}`));
    const timer = setTimeout(() => tryParse(true), timeoutMs);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

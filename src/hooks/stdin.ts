/**
 * Reading a hook's input: the first complete JSON object on stdin. Claude Code
 * does not always close stdin, so stop as soon as one object is in, or after a
 * short timeout, and never read more than a few MB.
 */
import { StringDecoder } from 'node:string_decoder';

export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/**
 * Finds where the first JSON object of a text ends, fed piece by piece: each
 * character is looked at once, however the input arrives (a 4 MB input in 64 KB
 * chunks must not be rescanned from the start at every chunk).
 */
export class ObjectScanner {
  private pos = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  private started = false;
  /** The next backslash at or after `pos` as last found (-1: none up to `backslashSeen`). */
  private backslash = -1;
  private backslashSeen = 0;

  /** Scans `text` (the whole input so far) from where it stopped: the object's length, -1 while incomplete, -2 when it is not an object. */
  scan(text: string): number {
    while (this.pos < text.length) {
      if (this.inString) {
        // Strings are most of a large input: jump to the next quote or backslash natively.
        if (this.escaped) {
          this.escaped = false;
          this.pos++;
          continue;
        }
        const quote = text.indexOf('"', this.pos);
        const backslash = this.nextBackslash(text);
        if (backslash !== -1 && (quote === -1 || backslash < quote)) {
          this.escaped = true;
          this.pos = backslash + 1;
        } else if (quote !== -1) {
          this.inString = false;
          this.pos = quote + 1;
        } else this.pos = text.length;
        continue;
      }
      const c = text.charCodeAt(this.pos);
      if (!this.started) {
        if (c === 32 || c === 9 || c === 10 || c === 13) {
          this.pos++;
          continue;
        }
        if (c !== 123) return -2; // '{'
        this.started = true;
      }
      if (c === 34) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === 0) return ++this.pos;
      }
      this.pos++;
    }
    return -1;
  }

  /** The first backslash at or after `pos`, each stretch of text searched once however often it is asked. */
  private nextBackslash(text: string): number {
    if (this.backslash >= this.pos) return this.backslash;
    if (this.backslash === -1 && this.backslashSeen >= text.length) return -1;
    this.backslash = text.indexOf('\\', Math.max(this.pos, this.backslash === -1 ? this.backslashSeen : this.pos));
    this.backslashSeen = text.length;
    return this.backslash;
  }
}

/** Length of the first complete JSON object at the start of `text` (after whitespace), -1 when incomplete, -2 when not an object. */
export function completeObjectLength(text: string): number {
  return new ObjectScanner().scan(text);
}

export class HookInputError extends Error {}

export function readHookInput(stream: NodeJS.ReadableStream, timeoutMs = 700): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let text = '';
    let bytes = 0;
    // Decodes across chunk boundaries: a character split between two chunks is joined, not replaced by U+FFFD.
    const decoder = new StringDecoder('utf8');
    const scanner = new ObjectScanner();
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
      if (final) text += decoder.end();
      const n = scanner.scan(text);
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
      text += typeof chunk === 'string' ? chunk : decoder.write(chunk);
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

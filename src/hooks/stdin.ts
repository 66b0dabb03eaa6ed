/**
 * Reading a hook's input: the first complete JSON object on stdin. Claude Code
 * does not always close stdin, so stop as soon as one object is in, or after a
 * short timeout, and never read more than a few MB.
 */

export const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** Bytes scanned before the reader lets the event loop run (its timer among them): about a millisecond's work. */
const SLICE_BYTES = 256 * 1024;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Whether the backslashes right before `at` (none before `floor`) are odd in number: then the byte at `at` is escaped. */
function oddRun(bytes: Uint8Array, at: number, floor: number): boolean {
  let i = at;
  while (i > floor && bytes[i - 1] === BACKSLASH) i--;
  return (at - i) % 2 === 1;
}

/**
 * Finds where the first JSON object of a byte stream ends, fed chunk by chunk
 * and slice by slice. JSON's structural characters are ASCII, which UTF-8 never
 * uses inside a multi-byte character, so bytes are scanned undecoded. Inside a
 * string only quotes matter: the next one is found by a native search, and is
 * escaped when an odd run of backslashes precedes it. Each byte is looked at a
 * bounded number of times whatever the escapes, so the scan is linear. (A
 * search for the next quote restarted after every backslash made "x\n"
 * repeated quadratic: 15 MB took 13 s.)
 */
export class ObjectScanner {
  private depth = 0;
  private inString = false;
  /** The next byte to scan is escaped (a slice ended inside an escape). */
  private escaped = false;
  /** Whether the object's `{` was seen (only whitespace before it). */
  started = false;
  /** The chunk `quote` is in, and the next quote in it at or after where it was searched from (-1: none). */
  private chunk: Uint8Array | null = null;
  private quote = Number.NEGATIVE_INFINITY;

  /**
   * Scans `chunk` from `start` to `end`, continuing from the chunks before:
   * the offset in `chunk` just past the object, -1 when it is not complete
   * yet, -2 when the input is not an object.
   */
  scan(chunk: Uint8Array, start = 0, end = chunk.length): number {
    if (chunk !== this.chunk) {
      this.chunk = chunk;
      this.quote = Number.NEGATIVE_INFINITY;
    }
    let pos = start;
    if (this.escaped && pos < end) {
      this.escaped = false;
      pos++;
    }
    while (pos < end) {
      if (this.inString) {
        const q = this.closingQuote(chunk, pos, end);
        if (q < 0) return -1;
        this.inString = false;
        pos = q + 1;
        continue;
      }
      const c = chunk[pos]!;
      if (!this.started) {
        if (c === 32 || c === 9 || c === 10 || c === 13) {
          pos++;
          continue;
        }
        if (c !== 123) return -2; // '{'
        this.started = true;
      }
      if (c === QUOTE) this.inString = true;
      else if (c === 123 || c === 91) this.depth++;
      else if (c === 125 || c === 93) {
        this.depth--;
        if (this.depth === 0) return pos + 1;
      }
      pos++;
    }
    return -1;
  }

  /** Inside a string from `pos` (a byte not escaped): its closing quote, or -1 when it does not close before `end`. */
  private closingQuote(chunk: Uint8Array, pos: number, end: number): number {
    for (let from = pos; ; ) {
      if (this.quote !== -1 && this.quote < from) this.quote = chunk.indexOf(QUOTE, from);
      const q = this.quote;
      if (q === -1 || q >= end) {
        this.escaped = oddRun(chunk, end, pos);
        return -1;
      }
      if (!oddRun(chunk, q, pos)) return q;
      from = q + 1;
    }
  }
}

/** Length in bytes of the first complete JSON object at the start of `text` (after whitespace), -1 when incomplete, -2 when not an object. */
export function completeObjectLength(text: string): number {
  return new ObjectScanner().scan(Buffer.from(text, 'utf8'));
}

export class HookInputError extends Error {}

/**
 * The first JSON object on `stream`. Chunks are kept as they came and scanned
 * a slice at a time, between which the event loop runs: the time limit fires
 * even while a large input is being scanned, and the object is decoded and
 * parsed once, when its end is found.
 */
export function readHookInput(stream: NodeJS.ReadableStream, timeoutMs = 700): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    /** The chunk being scanned and how far. */
    let current = 0;
    let offset = 0;
    let ended = false;
    let scheduled = false;
    let done = false;
    const scanner = new ObjectScanner();
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
    const parse = (lastChunk: number, end: number) => {
      const text = Buffer.concat([...chunks.slice(0, lastChunk), chunks[lastChunk]!.subarray(0, end)]).toString('utf8');
      try {
        const value: unknown = JSON.parse(text);
        if (!value || typeof value !== 'object' || Array.isArray(value)) return finish(new HookInputError('hook input is not a JSON object'));
        finish(null, value as Record<string, unknown>);
      } catch {
        finish(new HookInputError('hook input is not valid JSON'));
      }
    };
    const step = () => {
      scheduled = false;
      let budget = SLICE_BYTES;
      while (!done && current < chunks.length && budget > 0) {
        const chunk = chunks[current]!;
        const end = Math.min(chunk.length, offset + budget);
        const n = scanner.scan(chunk, offset, end);
        if (n === -2) return finish(new HookInputError('hook input is not a JSON object'));
        if (n >= 0) return parse(current, n);
        budget -= end - offset;
        offset = end;
        if (offset === chunk.length) {
          current++;
          offset = 0;
        }
      }
      if (done) return;
      if (current < chunks.length) schedule();
      else if (ended) finish(new HookInputError(scanner.started ? 'hook input is incomplete JSON' : 'hook input is empty'));
    };
    const schedule = () => {
      if (scheduled || done) return;
      scheduled = true;
      setImmediate(step);
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      bytes += buffer.length;
      if (bytes > MAX_INPUT_BYTES) return finish(new HookInputError(`hook input is over ${MAX_INPUT_BYTES} bytes`));
      chunks.push(buffer);
      schedule();
    };
    const onEnd = () => {
      ended = true;
      schedule();
    };
    const onError = (err: Error) => finish(new HookInputError(`cannot read hook input: ${err.message}`));
    const timer = setTimeout(() => finish(new HookInputError(`hook input not read within ${timeoutMs} ms`)), timeoutMs);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
  });
}

import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import { completeObjectLength, ObjectScanner, readHookInput } from '../../src/hooks/stdin.ts';

/** The plain rule, a character at a time: where the first JSON object ends (-1 incomplete, -2 not an object). */
function reference(text: string): number {
  let depth = 0;
  let inString = false;
  let escaped = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (!started) {
      if (/\s/.test(c) && ' \t\n\r'.includes(c)) continue;
      if (c !== '{') return -2;
      started = true;
    }
    if (inString) {
      if (escaped) escaped = false;
      else if (c === '\\') escaped = true;
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

/** A seeded generator (mulberry32), so a failure can be replayed. */
function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Feeds `text` to a scanner as separate chunks cut at `cuts`, each scanned in slices of at most `slice` bytes; the object's length or -1/-2. */
function scanPieces(text: string, cuts: number[], slice = Infinity): number {
  const bytes = Buffer.from(text);
  const scanner = new ObjectScanner();
  let at = 0;
  for (const end of [...cuts, bytes.length]) {
    const chunk = Buffer.from(bytes.subarray(at, end)); // a chunk of its own, as a stream gives
    for (let from = 0; from < chunk.length || (chunk.length === 0 && from === 0); ) {
      const to = Math.min(chunk.length, from + slice);
      const n = scanner.scan(chunk, from, to);
      if (n !== -1) return n < 0 ? n : at + n;
      if (to === from) break;
      from = to;
    }
    at = end;
  }
  return -1;
}

describe('ObjectScanner', () => {
  it('agrees with the character-at-a-time rule on generated inputs fed in random chunks and slices', () => {
    const alphabet = ['{', '}', '[', ']', '"', '\\', 'a', ' ', ':', ',', '\\"', '"\\\\"'];
    for (let seed = 1; seed <= 3000; seed++) {
      const random = rng(seed);
      let text = random() < 0.9 ? '{' : ' ';
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const cuts: number[] = [];
      for (let end = 0; end < text.length; ) cuts.push((end = Math.min(text.length, end + 1 + Math.floor(random() * 6))));
      const slice = 1 + Math.floor(random() * 5);
      expect(scanPieces(text, cuts.slice(0, -1), slice), `seed ${seed}: ${JSON.stringify(text)}`).toBe(reference(text));
    }
  });

  it('agrees with it on inputs with long runs between escapes (crossed by a native search), in chunks and slices', () => {
    const alphabet = ['{', '}', '"', '\\', '\\"', 'x'.repeat(100), 'é'.repeat(40), `${'y'.repeat(70)}\\n`];
    for (let seed = 1; seed <= 1500; seed++) {
      const random = rng(seed);
      let text = '{"';
      const length = Math.floor(random() * 30);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const size = Buffer.byteLength(text);
      const cuts: number[] = [];
      for (let end = 0; end < size; ) cuts.push((end = Math.min(size, end + 1 + Math.floor(random() * 400))));
      const slice = 1 + Math.floor(random() * 300);
      // The reference counts UTF-16 units; compare where the object ends in bytes.
      const ref = reference(text);
      expect(scanPieces(text, cuts.slice(0, -1), slice), `seed ${seed}: ${JSON.stringify(text)}`).toBe(ref < 0 ? ref : Buffer.byteLength(text.slice(0, ref)));
    }
  });

  it('finds the end of a 10 MB string value', () => {
    const text = `{"prompt":"${'a\\"b'.repeat(2_500_000)}"} trailing`;
    expect(completeObjectLength(text)).toBe(text.length - ' trailing'.length);
  });

  it('is linear in escapes: 15 MB of "x\\n" (5 million escapes, the quote at the end) in 64 KB chunks and in one', () => {
    const text = `{"tool_input":{"command":"${'x\\n'.repeat(5_000_000)}"}}`;
    const cuts = Array.from({ length: Math.floor(text.length / 65536) }, (_, i) => (i + 1) * 65536);
    const started = performance.now();
    expect(scanPieces(text, cuts, 256 * 1024)).toBe(text.length);
    expect(scanPieces(text, [], 256 * 1024)).toBe(text.length);
    // Quadratic, it took seconds; linear, tens of milliseconds.
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('counts bytes, not characters, in multi-byte text', () => {
    expect(completeObjectLength('{"a":"é☕"} x')).toBe(Buffer.byteLength('{"a":"é☕"}'));
  });
});

describe('readHookInput', () => {
  it('reads an object from chunks, and stops at its end', async () => {
    const stream = Readable.from([Buffer.from('  {"a": "x\\n'), Buffer.from('y", "b": [1]}'), Buffer.from('{"not": "read"}')]);
    expect(await readHookInput(stream)).toEqual({ a: 'x\ny', b: [1] });
  });

  it('gives up at its time limit while a large input is still being scanned', async () => {
    const big = Buffer.from(`{"a":"${'x\\n'.repeat(5_000_000)}"}`);
    await expect(readHookInput(Readable.from([big]), 1)).rejects.toThrow(/not read within 1 ms/);
  });

  it('names empty, incomplete and non-object input', async () => {
    await expect(readHookInput(Readable.from([Buffer.from('  \n')]))).rejects.toThrow(/empty/);
    await expect(readHookInput(Readable.from([Buffer.from('{"a":')]))).rejects.toThrow(/incomplete/);
    await expect(readHookInput(Readable.from([Buffer.from('[1]')]))).rejects.toThrow(/not a JSON object/);
  });
});

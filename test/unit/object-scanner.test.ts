import { describe, expect, it } from 'vitest';
import { ObjectScanner } from '../../src/hooks/stdin.ts';

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

describe('ObjectScanner', () => {
  it('agrees with the character-at-a-time rule on generated inputs fed in random pieces', () => {
    const alphabet = ['{', '}', '[', ']', '"', '\\', 'a', ' ', ':', ',', '\\"', '"\\\\"'];
    for (let seed = 1; seed <= 3000; seed++) {
      const random = rng(seed);
      let text = random() < 0.9 ? '{' : ' ';
      const length = Math.floor(random() * 40);
      for (let i = 0; i < length; i++) text += alphabet[Math.floor(random() * alphabet.length)];
      const scanner = new ObjectScanner();
      let result = -1;
      for (let end = 0; end <= text.length && result === -1; ) {
        end = Math.min(text.length, end + 1 + Math.floor(random() * 6));
        result = scanner.scan(text.slice(0, end));
        if (end === text.length) break;
      }
      expect(result, `seed ${seed}: ${JSON.stringify(text)}`).toBe(reference(text));
    }
  });

  it('finds the end of a 10 MB string value', () => {
    const text = `{"prompt":"${'a\\"b'.repeat(2_500_000)}"} trailing`;
    expect(new ObjectScanner().scan(text)).toBe(text.length - ' trailing'.length);
  });
});

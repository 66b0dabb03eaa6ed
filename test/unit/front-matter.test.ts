import YAML from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseFrontMatter, writeFrontMatter } from '../../src/core/front-matter.ts';

/** Seeded generator, so a failure is reproducible. */
function rng(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) % 2147483648) / 2147483648;
}

const ALPHABET = ['a', 'Z', '0', '7', ' ', ':', '#', ',', '[', ']', '{', '}', "'", '"', '\\', '-', '.', '/', '_', '@', '!', '&', '*', '|', '>', '%', '`', '?', '\t', 'é', '→', 'y', 'n', 'true', 'null', '~', '2026-01-01T00:00:00Z', ': ', ' #'];

function randomString(next: () => number): string {
  const n = Math.floor(next() * 12);
  return Array.from({ length: n }, () => ALPHABET[Math.floor(next() * ALPHABET.length)]).join('');
}

describe('front matter fast path', () => {
  it('writes what YAML and the fast path both read back unchanged (2,000 random values)', () => {
    const next = rng(42);
    for (let i = 0; i < 2000; i++) {
      const fields = { summary: randomString(next), spec: randomString(next) || 'x', tags: [randomString(next) || 'a', randomString(next) || 'b'] };
      const text = writeFrontMatter(fields);
      const lines = text.trimEnd().split('\n');
      expect(YAML.parse(text), text).toEqual(fields);
      expect(parseFrontMatter(lines), text).toEqual(fields);
    }
  });

  it('agrees with YAML on what the earlier system wrote', () => {
    const lines = ['type: decisions', 'timestamp: 2025-12-21T05:46:36Z', 'summary: Lazy loading via __getattr__ to avoid embedding model import penalty', 'spec: git-notes-memory', 'tags: [performance, architecture]'];
    expect(parseFrontMatter(lines)).toEqual(YAML.parse(lines.join('\n')));
  });

  it('falls back to YAML for block lists, block scalars and comments', () => {
    expect(parseFrontMatter(['tags:', '  - a', '  - b'])).toEqual({ tags: ['a', 'b'] });
    expect(parseFrontMatter(['summary: >', '  folded', '  text'])).toEqual({ summary: 'folded text\n' });
    expect(parseFrontMatter(['summary: real # a comment'])).toEqual({ summary: 'real' });
    expect(parseFrontMatter(['summary: [unclosed'])).toBe('invalid');
    expect(parseFrontMatter(['just a sentence'])).toBeNull();
  });
});

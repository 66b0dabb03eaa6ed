/**
 * Properties of the pure core over thousands of generated inputs (a seeded
 * generator, so a failure names its seed and replays): the note merge is
 * commutative, associative and idempotent; notes round-trip through
 * serialise and parse; redaction is idempotent.
 */
import { describe, expect, it } from 'vitest';
import { mergeNoteTexts } from '../../src/core/merge.ts';
import type { Memory } from '../../src/core/memory.ts';
import { parseNote, serializeMemory, serializeNote, serializeTombstone } from '../../src/core/note-format.ts';
import { redact } from '../../src/core/redact.ts';
import { prng } from '../helpers/prng.ts';

const NS = 'decisions';
const OBJ = 'c0ffee'.padEnd(40, '0');

function gen(seed: number) {
  const r = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)]!;
  const int = (n: number) => Math.floor(r() * n);
  const words = ['index', 'cache', 'merge', 'naïve', '日本語', 'emoji 🚀', 'a: b', '#hash', "it's", '"quoted"', '---', '- item', 'key: value', '[x]', '{y}'];
  const text = (n: number) => Array.from({ length: 1 + int(n) }, () => pick(words)).join(' ');
  const body = () => {
    const lines = Array.from({ length: int(6) }, () => pick([text(6), '', '---', '  indented', '```', '---\nnot: front matter']));
    return lines.join('\n').trim();
  };
  const keys = ['0123456789abcdef', 'fedcba9876543210', 'aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb', 'cccccccccccccccc'];
  const times = ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00.500Z', '2026-01-02T00:00:00Z', '2026-01-03T12:00:00Z'];
  const memory = (): Memory => {
    const created = pick(times);
    const m: Memory = {
      key: pick(keys),
      namespace: NS,
      object: OBJ,
      summary: text(4).slice(0, 100).trim() || 'x',
      body: body(),
      created,
      updated: pick(times.filter((t) => Date.parse(t) >= Date.parse(created))),
      tags: Array.from({ length: int(3) }, () => pick(['db', 'wasm', 'naïve', 'a b'])),
      status: pick(['active', 'resolved', 'archived'] as const),
      relatesTo: [],
    };
    if (r() < 0.3) m.spec = text(2);
    if (r() < 0.2) m.paths = ['src/a.ts', 'docs/b.md'].slice(0, 1 + int(2));
    return m;
  };
  const note = (): string => {
    const docs: Array<{ raw: string }> = [];
    if (r() < 0.15) docs.push({ raw: `hand-written ${text(3)}` });
    for (let i = 0, n = int(5); i < n; i++) {
      docs.push({ raw: r() < 0.2 ? serializeTombstone({ key: pick(keys), namespace: NS, object: OBJ, updated: pick(times) }) : serializeMemory(memory()) });
    }
    return serializeNote(docs);
  };
  return { note, memory, text, r, pick };
}

const merge = (a: string, b: string) => mergeNoteTexts(NS, OBJ, a, b).text;
const RUNS = 2000;

describe('mergeNoteTexts', () => {
  it('is commutative', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const g = gen(seed);
      const a = g.note();
      const b = g.note();
      if (a === b) continue;
      expect(merge(a, b), `seed ${seed}`).toBe(merge(b, a));
    }
  });

  it('is associative', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const g = gen(seed);
      const [a, b, c] = [g.note(), g.note(), g.note()];
      expect(merge(merge(a, b), c), `seed ${seed}`).toBe(merge(a, merge(b, c)));
    }
  });

  it('is idempotent: merging again what was merged changes nothing', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const g = gen(seed);
      const [a, b] = [g.note(), g.note()];
      const m = merge(a, b);
      expect(merge(m, b), `seed ${seed}`).toBe(m);
      expect(merge(m, a), `seed ${seed}`).toBe(m);
      expect(merge(b, m), `seed ${seed}`).toBe(m);
    }
  });

  it('keeps every key either side holds', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const g = gen(seed);
      const [a, b] = [g.note(), g.note()];
      const keys = (t: string) => new Set(parseNote(t, NS, OBJ).docs.flatMap((d) => (d.kind === 'memory' ? [d.memory.key] : d.kind === 'tombstone' ? [d.tombstone.key] : [])));
      const merged = keys(merge(a, b));
      for (const k of [...keys(a), ...keys(b)]) expect(merged.has(k), `seed ${seed}`).toBe(true);
    }
  });
});

describe('note format', () => {
  it('round-trips generated memories through serialise and parse', () => {
    for (let seed = 1; seed <= RUNS; seed++) {
      const g = gen(seed);
      const memories = Array.from({ length: 1 + Math.floor(g.r() * 3) }, (_, i) => ({ ...g.memory(), key: `${i}`.repeat(16) }));
      const parsed = parseNote(serializeNote(memories.map((m) => ({ raw: serializeMemory(m) }))), NS, OBJ);
      const back = parsed.docs.flatMap((d) => (d.kind === 'memory' ? [d.memory] : []));
      expect(back, `seed ${seed}`).toEqual(memories.map((m) => ({ ...m, body: m.body.trimEnd() })));
    }
  });
});

describe('redaction', () => {
  it('is idempotent, and finds nothing in its own output', () => {
    const secrets = [`ghp_${'a1B2c3D4e5'.repeat(4)}`, `sk_live_${'DO1wQ9zX7v'.repeat(3)}`, 'AKIAIOSFODNN7EXAMPLE', 'password: hunter2hunter2', 'https://user:pa55word@example.com/x'];
    for (let seed = 1; seed <= RUNS; seed++) {
      const g = gen(seed);
      const input = Array.from({ length: 1 + Math.floor(g.r() * 4) }, () => (g.r() < 0.4 ? g.pick(secrets) : g.text(3))).join(g.pick([' ', '\n', '=', ', ']));
      const once = redact(input);
      const twice = redact(once.text);
      expect(twice.text, `seed ${seed}`).toBe(once.text);
      expect(twice.found, `seed ${seed}`).toEqual([]);
    }
  });
});

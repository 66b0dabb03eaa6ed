/**
 * Properties of the pure core over thousands of generated inputs (a seeded
 * generator, so a failure names its seed and replays): the note merge is
 * commutative, associative and idempotent, and gives what a reference model
 * of its rules gives; notes round-trip through
 * serialise and parse; redaction is idempotent.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { mergeNoteTexts } from '../../src/core/merge.ts';
import type { Memory, Tombstone } from '../../src/core/memory.ts';
import { parseNote, serializeMemory, serializeNote, serializeTombstone } from '../../src/core/note-format.ts';
import { redact } from '../../src/core/redact/redact.ts';
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
  /** A note, with what it was made of: the reference model below reads these, never the note's text. */
  const generatedNote = (): GeneratedNote => {
    const docs: Array<{ raw: string }> = [];
    const made: GeneratedNote = { text: '', leading: [], memories: [], tombstones: [] };
    if (r() < 0.15) {
      const raw = `hand-written ${text(3)}`;
      made.leading.push(raw);
      docs.push({ raw });
    }
    for (let i = 0, n = int(5); i < n; i++) {
      if (r() < 0.2) {
        const t: Tombstone = { key: pick(keys), namespace: NS, object: OBJ, updated: pick(times) };
        made.tombstones.push(t);
        docs.push({ raw: serializeTombstone(t) });
      } else {
        const m = memory();
        made.memories.push(m);
        docs.push({ raw: serializeMemory(m) });
      }
    }
    made.text = serializeNote(docs);
    return made;
  };
  const note = (): string => generatedNote().text;
  return { note, generatedNote, memory, text, r, pick };
}

interface GeneratedNote {
  text: string;
  leading: string[];
  memories: Memory[];
  tombstones: Tombstone[];
}

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/**
 * The merge as the README states it, computed from the generated memories and tombstones
 * (not from parsed notes, nor with src/core's comparisons): per id, the newest revision wins
 * (later updated, then the larger SHA-1 of its text); a tombstone at least as new as that
 * revision hides it (the newest tombstone is kept); hand-written text is kept once, sorted,
 * first; then the documents by creation (a tombstone: its time), then id.
 */
function referenceMerge(notes: readonly GeneratedNote[]): string {
  const ids = new Set(notes.flatMap((n) => [...n.memories.map((m) => m.key), ...n.tombstones.map((t) => t.key)]));
  const kept: Array<{ raw: string; time: number; key: string }> = [];
  for (const key of ids) {
    const revisions = notes.flatMap((n) => n.memories.filter((m) => m.key === key)).map((m) => ({ m, raw: serializeMemory(m), time: Date.parse(m.updated) }));
    const newest = revisions.reduce<(typeof revisions)[number] | undefined>((best, x) => (!best || x.time > best.time || (x.time === best.time && sha1(x.raw) > sha1(best.raw)) ? x : best), undefined);
    const tombstones = notes.flatMap((n) => n.tombstones.filter((t) => t.key === key)).sort((x, y) => Date.parse(y.updated) - Date.parse(x.updated));
    const forgotten = tombstones[0];
    if (newest && !(forgotten && Date.parse(forgotten.updated) >= newest.time)) kept.push({ raw: newest.raw, time: Date.parse(newest.m.created), key });
    else kept.push({ raw: serializeTombstone(forgotten!), time: Date.parse(forgotten!.updated), key });
  }
  kept.sort((x, y) => x.time - y.time || (x.key < y.key ? -1 : 1));
  const leading = [...new Set(notes.flatMap((n) => n.leading))].sort();
  return serializeNote([...leading.map((raw) => ({ raw })), ...kept]);
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

  // The laws above hold for wrong rules too (tombstones that never win, the older revision winning):
  // the merged note must also be the one the rules give.
  it('gives the note the reference model gives: newest revision per id, hidden by a tombstone at least as new', () => {
    let forgottenWins = 0;
    for (let seed = 1; seed <= RUNS; seed++) {
      const g = gen(seed);
      const [a, b, c] = [g.generatedNote(), g.generatedNote(), g.generatedNote()];
      if (a.text === b.text) continue;
      const ab = merge(a.text, b.text);
      expect(ab, `seed ${seed}`).toBe(referenceMerge([a, b]));
      if (ab !== c.text) expect(merge(ab, c.text), `seed ${seed}`).toBe(referenceMerge([a, b, c]));
      if (a.memories.some((m) => b.tombstones.some((t) => t.key === m.key && t.updated === m.updated))) forgottenWins++;
    }
    // The generator must reach the tie the rule is about: a tombstone exactly as new as a revision.
    expect(forgottenWins).toBeGreaterThan(50);
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

/**
 * Text is data: whatever a memory's fields hold, a note of such memories reads
 * back as exactly those memories, field by field, and the merge keeps them so.
 * Bodies are drawn from the shapes that could open a document: fences, front
 * matter naming another memory's id, tombstone lines, escaped fences, YAML.
 */
import { describe, expect, it } from 'vitest';
import { mergeNoteTexts } from '../../src/core/merge.ts';
import type { Memory } from '../../src/core/memory.ts';
import { escapeBody, memoryText, parseNote, serializeMemory, serializeNote, unescapeBody } from '../../src/core/note-format.ts';
import { PYTHON_DOC } from '../fixtures/python-note.ts';
import { prng } from '../helpers/prng.ts';

const OBJECT = 'c'.repeat(40);

/** Lines a body may hold that look like a note's own structure. */
const HOSTILE_LINES = [
  '---',
  '--- ',
  '---\t',
  '\\---',
  '\\\\---',
  '\\--- ',
  '----',
  ' ---',
  'id: 1234567890abcdef',
  'type: decisions',
  'summary: injected doc',
  'forgotten: 2099-01-01T00:00:00Z',
  'timestamp: 2026-01-01T00:00:00Z',
  'author: Security Lead',
  'tags: [a, b]',
  ': not yaml [',
  '',
  '',
  'plain words',
  '# heading',
  '- list item',
  '```',
  'key: "quoted: value"',
  '\\',
];

function hostileBody(rand: () => number): string {
  const n = 1 + Math.floor(rand() * 14);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.15) {
      // A whole front matter, as an attacker would write it.
      const id = Math.floor(rand() * 2 ** 32).toString(16).padStart(8, '0').repeat(2);
      lines.push('', '---', `id: ${id}`, rand() < 0.5 ? 'forgotten: 2099-01-01T00:00:00Z' : 'type: decisions\nsummary: planted', '---', '');
    } else lines.push(HOSTILE_LINES[Math.floor(rand() * HOSTILE_LINES.length)]!);
  }
  // Bodies are stored trimmed, with \n line ends (core/validate.ts checkBody).
  return lines.join('\n').trim();
}

const SUMMARY_PARTS = ['---', 'id: x', 'a: b', '"', "'", '#', '\\', 'word', ' ', ':', '[x]', '{y}', '- ', 'forgotten:'];

function memory(rand: () => number, i: number): Memory {
  const summary = Array.from({ length: 1 + Math.floor(rand() * 5) }, () => SUMMARY_PARTS[Math.floor(rand() * SUMMARY_PARTS.length)]).join('').replace(/\s+/g, ' ').trim() || 'summary';
  const m: Memory = {
    key: (i + 1).toString(16).padStart(16, '0'),
    namespace: 'learnings',
    object: OBJECT,
    summary,
    body: hostileBody(rand),
    created: `2026-01-0${1 + (i % 9)}T00:00:00Z`,
    updated: `2026-01-0${1 + (i % 9)}T00:00:00Z`,
    tags: rand() < 0.5 ? ['x---', '--- y'] : [],
    status: 'active',
    relatesTo: [],
  };
  if (rand() < 0.3) m.extra = { note: '---\nid: 1234567890abcdef\n---' };
  return m;
}

describe('bodies that look like front matter', () => {
  it('escape and unescape are inverse, and no escaped line is a fence', () => {
    const rand = prng(7);
    for (let i = 0; i < 2000; i++) {
      const body = hostileBody(rand);
      const stored = escapeBody(body);
      expect(unescapeBody(stored)).toBe(body);
      for (const line of stored.split('\n')) expect(line).not.toMatch(/^---[ \t]*$/);
    }
  });

  it('a note of hostile memories reads back as exactly those memories, field by field', () => {
    const rand = prng(11);
    for (let round = 0; round < 300; round++) {
      const written = Array.from({ length: 1 + Math.floor(rand() * 4) }, (_, i) => memory(rand, i));
      const parsed = parseNote(serializeNote(written.map((m) => ({ raw: serializeMemory(m) }))), 'learnings', OBJECT);
      const read = parsed.docs.map((d) => (d.kind === 'memory' ? d.memory : d.kind));
      expect(read).toEqual(written);
    }
  });

  it('the merge of two such notes keeps every memory, unchanged', () => {
    const rand = prng(13);
    for (let round = 0; round < 200; round++) {
      const ours = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, i) => memory(rand, i));
      const theirs = Array.from({ length: 1 + Math.floor(rand() * 3) }, (_, i) => memory(rand, i + 10));
      const text = (ms: Memory[]) => serializeNote(ms.map((m) => ({ raw: serializeMemory(m) })));
      const merged = parseNote(mergeNoteTexts('learnings', OBJECT, text(ours), text(theirs)).text, 'learnings', OBJECT);
      const byKey = (ms: Memory[]) => [...ms].sort((a, b) => (a.key < b.key ? -1 : 1));
      expect(byKey(merged.docs.map((d) => (d.kind === 'memory' ? d.memory : (d as never))))).toEqual(byKey([...ours, ...theirs]));
    }
  });

  it('the issue 26 body does not become a tombstone or a second memory', () => {
    const body = 'text\n\n---\nid: 1234567890abcdef\nforgotten: 2099-01-01T00:00:00Z\n---';
    const m = memory(prng(1), 0);
    const parsed = parseNote(serializeNote([{ raw: serializeMemory({ ...m, body }) }]), 'learnings', OBJECT);
    expect(parsed.docs).toHaveLength(1);
    expect(parsed.docs[0]!.kind === 'memory' && parsed.docs[0]!.memory.body).toBe(body);
  });

  it('shows the body as written, and stores it escaped', () => {
    const m = { ...memory(prng(2), 0), body: 'above\n\n---\n\nbelow' };
    expect(memoryText(m)).toContain('\n---\n');
    expect(serializeMemory(m)).toContain('\n\\---\n');
  });

  it('documents of the earlier Python system (no id) are read as they are, backslashes included', () => {
    const doc = `${PYTHON_DOC}\n\n\\---\nafter`;
    const parsed = parseNote(doc, 'decisions', OBJECT);
    expect(parsed.docs).toHaveLength(1);
    expect(parsed.docs[0]!.kind === 'memory' && parsed.docs[0]!.memory.body.endsWith('\\---\nafter')).toBe(true);
  });
});

import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Memory, Tombstone } from '../../src/core/memory.ts';
import { PYTHON_DOC } from '../fixtures/python-note.ts';
import { appendedText, appendToNote, deriveKey, type NoteDoc, parseNote, parseNoteExcept, parseNoteTail, serializeMemory, serializeNote, serializeTombstone } from '../../src/core/note-format.ts';

const OBJ_A = 'a'.repeat(40);
const OBJ_B = '0123456789abcdef0123456789abcdef01234567';

/** Independent re-statement of the documented key derivation: sha1(namespace NUL trimmed raw), first 16 hex chars. */
function expectedKey(namespace: string, raw: string): string {
  return createHash('sha1').update(`${namespace}\0${raw.trim()}`).digest('hex').slice(0, 16);
}

function memoryOf(doc: NoteDoc | undefined): Memory {
  if (!doc || doc.kind !== 'memory') throw new Error(`expected a memory document, got ${doc?.kind}`);
  return doc.memory;
}

// The earlier Python system's documents, exactly as reference-notes.md shows them.
const GNMM_DOC_1 = PYTHON_DOC;

const GNMM_DOC_2 = `---
type: decisions
timestamp: 2025-12-22T10:00:00Z
summary: Use SQLite for the index
phase: implementation
tags: [storage]
status: resolved
relates_to: [abc123]
---

## Decision
SQLite with sqlite-vec.`;

// `git notes append` separates the existing note from the new text with a blank line and ends with a newline.
const GNMM_NOTE = `${GNMM_DOC_1}\n\n${GNMM_DOC_2}\n`;

describe('parseNote: notes written by the earlier Python system', () => {
  const parsed = parseNote(GNMM_NOTE, 'decisions', OBJ_A);

  it('splits an appended note into its documents with no warnings', () => {
    expect(parsed.binary).toBe(false);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.docs.map((d) => d.kind)).toEqual(['memory', 'memory']);
  });

  it('reads every field of the first document', () => {
    const m = memoryOf(parsed.docs[0]);
    expect(m.namespace).toBe('decisions');
    expect(m.object).toBe(OBJ_A);
    expect(m.summary).toBe('Lazy loading via __getattr__ to avoid embedding model import penalty');
    expect(m.spec).toBe('git-notes-memory');
    expect(m.phase).toBeUndefined();
    expect(m.tags).toEqual(['performance', 'architecture']);
    expect(m.status).toBe('active');
    expect(m.relatesTo).toEqual([]);
    expect(m.created).toBe('2025-12-21T05:46:36Z');
    // No `updated` field in old notes: the creation time stands in.
    expect(m.updated).toBe('2025-12-21T05:46:36Z');
    expect(m.body).toBe('## Context\nImport-time loading of sentence-transformers adds 2+ seconds to startup.');
  });

  it('reads status, phase and relates_to of the second document', () => {
    const m = memoryOf(parsed.docs[1]);
    expect(m.summary).toBe('Use SQLite for the index');
    expect(m.phase).toBe('implementation');
    expect(m.status).toBe('resolved');
    expect(m.relatesTo).toEqual(['abc123']);
    expect(m.tags).toEqual(['storage']);
    expect(m.created).toBe('2025-12-22T10:00:00Z');
    expect(m.body).toBe('## Decision\nSQLite with sqlite-vec.');
  });

  it('keeps each document raw text exactly (minus the separating blank line)', () => {
    expect(parsed.docs[0]!.raw).toBe(GNMM_DOC_1);
    expect(parsed.docs[1]!.raw).toBe(GNMM_DOC_2);
  });

  it('derives keys for documents without an id from namespace and content', () => {
    expect(memoryOf(parsed.docs[0]).key).toBe(expectedKey('decisions', GNMM_DOC_1));
    expect(memoryOf(parsed.docs[1]).key).toBe(expectedKey('decisions', GNMM_DOC_2));
    expect(memoryOf(parsed.docs[0]).key).not.toBe(memoryOf(parsed.docs[1]).key);
  });

  it('gives the same keys whatever position a document has in the note', () => {
    const swapped = parseNote(`${GNMM_DOC_2}\n\n${GNMM_DOC_1}\n`, 'decisions', OBJ_A);
    expect(memoryOf(swapped.docs[0]).key).toBe(memoryOf(parsed.docs[1]).key);
    expect(memoryOf(swapped.docs[1]).key).toBe(memoryOf(parsed.docs[0]).key);
  });

  it('reads a note with CRLF line endings the same way', () => {
    const crlf = parseNote(GNMM_NOTE.replace(/\n/g, '\r\n'), 'decisions', OBJ_A);
    expect(crlf.docs.map((d) => d.kind)).toEqual(['memory', 'memory']);
    expect(memoryOf(crlf.docs[0]).summary).toBe('Lazy loading via __getattr__ to avoid embedding model import penalty');
    expect(memoryOf(crlf.docs[0]).key).toBe(memoryOf(parsed.docs[0]).key);
  });

  it('reads three appended documents', () => {
    const third = '---\ntype: decisions\ntimestamp: 2025-12-23T00:00:00Z\nsummary: Third\n---\n\nthree';
    const note = parseNote(`${GNMM_NOTE}\n${third}\n`, 'decisions', OBJ_A);
    expect(note.docs.map((d) => (d.kind === 'memory' ? d.memory.summary : d.kind))).toEqual([
      'Lazy loading via __getattr__ to avoid embedding model import penalty',
      'Use SQLite for the index',
      'Third',
    ]);
  });
});

describe('parseNote: bodies and odd content', () => {
  it('does not split a document at a markdown --- horizontal rule in its body', () => {
    const doc = `---
type: learnings
timestamp: 2025-12-21T05:46:36Z
summary: Horizontal rules
---

Part one.

---

Part two.

---

Part three.`;
    const next = '---\ntype: learnings\ntimestamp: 2025-12-22T00:00:00Z\nsummary: Next one\n---\n\nnext body';
    const parsed = parseNote(`${doc}\n\n${next}\n`, 'learnings', OBJ_A);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.docs).toHaveLength(2);
    expect(memoryOf(parsed.docs[0]).body).toBe('Part one.\n\n---\n\nPart two.\n\n---\n\nPart three.');
    expect(memoryOf(parsed.docs[1]).summary).toBe('Next one');
    expect(memoryOf(parsed.docs[1]).body).toBe('next body');
  });

  it('does not split at a horizontal rule followed by a colon-bearing line (a YAML mapping without memory fields)', () => {
    const doc = '---\ntype: learnings\nsummary: S\n---\n\nIntro\n\n---\n\nNote: keep this\n\n---\n\nEnd';
    const parsed = parseNote(doc, 'learnings', OBJ_A);
    expect(parsed.docs).toHaveLength(1);
    expect(memoryOf(parsed.docs[0]).body).toBe('Intro\n\n---\n\nNote: keep this\n\n---\n\nEnd');
  });

  it('does not split at a setext heading underline (--- right after a text line)', () => {
    const body = 'Heading\n---\nsummary: looks like front matter\n---\nmore text';
    const parsed = parseNote(`---\ntype: learnings\nsummary: Setext\n---\n\n${body}\n`, 'learnings', OBJ_A);
    expect(parsed.docs).toHaveLength(1);
    expect(memoryOf(parsed.docs[0]).summary).toBe('Setext');
    expect(memoryOf(parsed.docs[0]).body).toBe(body);
  });

  it('keeps a document with invalid YAML front matter verbatim as "other", with a warning', () => {
    const broken = '---\ntype: [decisions\nsummary: oops: bad\n---\n\nbody text';
    const parsed = parseNote(`${broken}\n`, 'decisions', OBJ_B);
    expect(parsed.binary).toBe(false);
    expect(parsed.docs).toEqual([{ kind: 'other', raw: broken }]);
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toContain('invalid YAML');
    expect(parsed.warnings[0]).toContain('0123456');
    expect(parsed.warnings[0]).toContain('decisions');
    // Serializing the parsed note again gives the same text back.
    expect(serializeNote(parsed.docs)).toBe(`${broken}\n`);
  });

  it('keeps reading the documents after a first document with invalid YAML', () => {
    const broken = '---\ntype: [decisions\n---\n\nbroken body';
    const good = '---\ntype: decisions\ntimestamp: 2025-12-21T05:46:36Z\nsummary: Good one\n---\n\ngood body';
    const parsed = parseNote(`${broken}\n\n${good}\n`, 'decisions', OBJ_A);
    expect(parsed.docs.map((d) => d.kind)).toEqual(['other', 'memory']);
    expect(parsed.docs[0]!.raw).toBe(broken);
    expect(memoryOf(parsed.docs[1]).summary).toBe('Good one');
    expect(parsed.warnings).toHaveLength(1);
  });

  // BUG (reported): a document with invalid YAML that is not the first in the note is
  // swallowed into the previous memory's body, silently (no warning). Flip to `it` once fixed.
  it('keeps a later document with invalid YAML as "other" with a warning', () => {
    const good = '---\ntype: decisions\ntimestamp: 2025-12-21T05:46:36Z\nsummary: Good one\n---\n\ngood body';
    const broken = '---\ntype: [decisions\nsummary: two\n---\n\nbroken body';
    const parsed = parseNote(`${good}\n\n${broken}\n`, 'decisions', OBJ_A);
    expect(memoryOf(parsed.docs[0]).body).toBe('good body');
    expect(parsed.docs[1]).toEqual({ kind: 'other', raw: broken });
    expect(parsed.warnings).toHaveLength(1);
  });

  it('flags binary content (NUL) and keeps it verbatim', () => {
    const text = '---\ntype: decisions\nsummary: x\n---\n\nbin\0ary';
    const parsed = parseNote(text, 'decisions', OBJ_A);
    expect(parsed.binary).toBe(true);
    expect(parsed.docs).toEqual([{ kind: 'other', raw: text }]);
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toContain('binary');
  });

  it('keeps a hand-written note without front matter as "other", with a warning', () => {
    const parsed = parseNote('just some text\nwritten by hand\n', 'decisions', OBJ_A);
    expect(parsed.binary).toBe(false);
    expect(parsed.docs).toEqual([{ kind: 'other', raw: 'just some text\nwritten by hand', leading: true }]);
    expect(parsed.warnings).toHaveLength(1);
    expect(parsed.warnings[0]).toContain('no memory front matter');
  });

  it('keeps text before the first document as "other" without losing the document', () => {
    const doc = '---\ntype: decisions\nsummary: After preamble\n---\n\nbody';
    const parsed = parseNote(`preamble line\n\n${doc}\n`, 'decisions', OBJ_A);
    expect(parsed.docs.map((d) => d.kind)).toEqual(['other', 'memory']);
    expect(parsed.docs[0]!.raw).toBe('preamble line');
    expect(memoryOf(parsed.docs[1]).summary).toBe('After preamble');
  });

  it('returns no documents for an empty note', () => {
    expect(parseNote('', 'decisions', OBJ_A)).toEqual({ docs: [], warnings: [], binary: false });
    expect(parseNote('\n\n', 'decisions', OBJ_A)).toEqual({ docs: [], warnings: [], binary: false });
  });

  it('normalises timestamps with an offset to UTC', () => {
    const parsed = parseNote('---\ntype: decisions\ntimestamp: 2025-12-21T07:46:36+02:00\nsummary: tz\n---\n\nb', 'decisions', OBJ_A);
    expect(memoryOf(parsed.docs[0]).created).toBe('2025-12-21T05:46:36Z');
  });

  it('reads tags written as a comma-separated string', () => {
    const parsed = parseNote('---\ntype: decisions\nsummary: t\ntags: "alpha, beta ,gamma"\n---\n\nb', 'decisions', OBJ_A);
    expect(memoryOf(parsed.docs[0]).tags).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('falls back to the first body line when a typed document has no summary', () => {
    const parsed = parseNote(`---\ntype: decisions\n---\n\nFirst line ${'x'.repeat(120)}\nsecond line`, 'decisions', OBJ_A);
    const m = memoryOf(parsed.docs[0]);
    expect(m.summary).toBe(`First line ${'x'.repeat(120)}`.slice(0, 100));
    expect(m.summary).toHaveLength(100);
  });

  it('treats an unknown status as active', () => {
    const parsed = parseNote('---\ntype: decisions\nsummary: s\nstatus: bogus\n---\n\nb', 'decisions', OBJ_A);
    expect(memoryOf(parsed.docs[0]).status).toBe('active');
  });

  it('lower-cases an explicit id', () => {
    const parsed = parseNote('---\nid: ABCDEF0123456789\ntype: decisions\nsummary: s\n---\n\nb', 'decisions', OBJ_A);
    expect(memoryOf(parsed.docs[0]).key).toBe('abcdef0123456789');
  });

  it('keeps a front-matter block with only an id and no memory fields as "other"', () => {
    const raw = '---\nid: abcdef0123456789\nfoo: bar\n---\n\nb';
    const parsed = parseNote(raw, 'decisions', OBJ_A);
    expect(parsed.docs).toEqual([{ kind: 'other', raw }]);
  });
});

describe('serializeMemory / parseNote round trip', () => {
  const full: Memory = {
    key: '0f1e2d3c4b5a6978',
    namespace: 'decisions',
    object: OBJ_B,
    summary: 'Use sql.js: no native build, runs in the compiled binary',
    body: '## Why\nNo native modules.\n\n- a\n- b\n\n    indented code\n\nEnd with "quotes" and: colons # and hashes',
    created: '2025-12-21T05:46:36Z',
    updated: '2025-12-24T08:00:00.250Z',
    tags: ['storage', 'wasm'],
    status: 'resolved',
    spec: 'git-mem',
    phase: 'design',
    relatesTo: ['1111222233334444', 'aaaabbbbccccdddd'],
    author: 'Ada Lovelace <ada@example.com>',
    source: 'hook:UserPromptSubmit',
    confidence: 0.95,
  };

  it('gives back every field of a full memory', () => {
    const parsed = parseNote(serializeMemory(full), 'decisions', OBJ_B);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.docs).toHaveLength(1);
    expect(memoryOf(parsed.docs[0])).toEqual(full);
  });

  it('gives back a minimal memory with an empty body and no optional fields', () => {
    const minimal: Memory = {
      key: 'deadbeefdeadbeef',
      namespace: 'progress',
      object: OBJ_A,
      summary: 'Done',
      body: '',
      created: '2026-01-01T00:00:00Z',
      updated: '2026-01-01T00:00:00Z',
      tags: [],
      status: 'active',
      relatesTo: [],
    };
    const text = serializeMemory(minimal);
    expect(memoryOf(parseNote(text, 'progress', OBJ_A).docs[0])).toEqual(minimal);
    // Nothing optional is written.
    expect(text).not.toMatch(/^(status|tags|relates_to|spec|phase|author|source|confidence):/m);
  });

  it('writes the fields the earlier system reads, under its names', () => {
    const text = serializeMemory(full);
    const lines = text.split('\n');
    expect(lines[0]).toBe('---');
    expect(lines).toContain('type: decisions');
    expect(lines).toContain('timestamp: 2025-12-21T05:46:36Z');
    const summaryLine = lines.find((l) => l.startsWith('summary: '));
    // The colon forces YAML quoting; either quote style is fine.
    expect([`summary: "${full.summary}"`, `summary: '${full.summary}'`]).toContain(summaryLine);
    expect(lines).toContain('status: resolved');
    expect(lines).toContain('tags: [storage, wasm]');
    // An all-digit key must be quoted, or YAML would read it back as a number.
    expect(lines).toContain('relates_to: ["1111222233334444", aaaabbbbccccdddd]');
    // The key may be quoted (it starts with a digit); either way it reads back as this string.
    expect([`id: ${full.key}`, `id: "${full.key}"`]).toContain(lines.find((l) => l.startsWith('id: ')));
    // Document shape: `---\n<yaml>\n---\n\n<body>`.
    const close = lines.indexOf('---', 1);
    expect(close).toBeGreaterThan(1);
    expect(lines[close + 1]).toBe('');
    expect(lines.slice(close + 2).join('\n')).toBe(full.body);
  });

  it('does not write status when it is active (as the earlier system did)', () => {
    expect(serializeMemory({ ...full, status: 'active' })).not.toMatch(/^status:/m);
  });

  it('keeps a body with markdown horizontal rules and YAML-looking lines in one document', () => {
    const m: Memory = { ...full, body: 'Top\n\n---\n\nMiddle: value\n\n---\n\nBottom' };
    const text = serializeNote([{ raw: serializeMemory(m) }, { raw: serializeMemory({ ...full, key: '9999888877776666', body: 'other' }) }]);
    const parsed = parseNote(text, 'decisions', OBJ_B);
    expect(parsed.docs).toHaveLength(2);
    expect(memoryOf(parsed.docs[0])).toEqual(m);
    expect(memoryOf(parsed.docs[1]).key).toBe('9999888877776666');
  });

  it('keeps ids and strings that look like numbers, booleans or null as strings', () => {
    const tricky: Memory = {
      ...full,
      key: '1234e56789012345', // a YAML float if written bare
      summary: '1.10',
      spec: '2024',
      phase: '007',
      tags: ['1.0', 'true', 'null', '0x1F', '1e3'],
      relatesTo: ['0000000000001234', '1234567890123456'],
    };
    const m = memoryOf(parseNote(serializeMemory(tricky), 'decisions', OBJ_B).docs[0]);
    expect(m.key).toBe('1234e56789012345');
    expect(m.summary).toBe('1.10');
    expect(m.spec).toBe('2024');
    expect(m.phase).toBe('007');
    expect(m.tags).toEqual(['1.0', 'true', 'null', '0x1F', '1e3']);
    expect(m.relatesTo).toEqual(['0000000000001234', '1234567890123456']);
  });

  it('keeps an all-digit key', () => {
    const m = memoryOf(parseNote(serializeMemory({ ...full, key: '0012345678901234' }), 'decisions', OBJ_B).docs[0]);
    expect(m.key).toBe('0012345678901234');
  });

  it('keeps summaries of "true", "null" and "yes" as text', () => {
    for (const summary of ['true', 'null', 'yes', '~', '- item', '[x]', '#hash']) {
      const m = memoryOf(parseNote(serializeMemory({ ...full, summary }), 'decisions', OBJ_B).docs[0]);
      expect(m.summary).toBe(summary);
    }
  });

  it('keeps the key stable through serialize -> parse -> serialize', () => {
    const once = serializeMemory(full);
    const m = memoryOf(parseNote(once, 'decisions', OBJ_B).docs[0]);
    expect(serializeMemory(m)).toBe(once);
  });
});

describe('tombstones', () => {
  it('round-trips through serializeTombstone -> parseNote', () => {
    const t: Tombstone = { key: 'abcdef0123456789', namespace: 'decisions', object: OBJ_A, updated: '2026-02-01T12:00:00Z' };
    const text = serializeTombstone(t);
    expect(text).toBe('---\nid: abcdef0123456789\nforgotten: 2026-02-01T12:00:00Z\n---');
    const parsed = parseNote(text, 'decisions', OBJ_A);
    expect(parsed.docs).toHaveLength(1);
    const doc = parsed.docs[0]!;
    expect(doc.kind).toBe('tombstone');
    if (doc.kind === 'tombstone') expect(doc.tombstone).toEqual(t);
  });

  it('is read alongside memories in one note', () => {
    const mem = GNMM_DOC_1;
    const tomb = serializeTombstone({ key: '1234123412341234', namespace: 'decisions', object: OBJ_A, updated: '2026-02-01T12:00:00Z' });
    const parsed = parseNote(serializeNote([{ raw: mem }, { raw: tomb }]), 'decisions', OBJ_A);
    expect(parsed.docs.map((d) => d.kind)).toEqual(['memory', 'tombstone']);
  });
});

describe('serializeNote', () => {
  it('joins trimmed documents with one blank line and ends with a newline', () => {
    expect(serializeNote([{ raw: '\n---\na: 1\n---\n\nx\n\n' }, { raw: 'plain text  ' }])).toBe('---\na: 1\n---\n\nx\n\nplain text\n');
  });

  it('reproduces an appended note from its parsed documents', () => {
    expect(serializeNote(parseNote(GNMM_NOTE, 'decisions', OBJ_A).docs)).toBe(GNMM_NOTE);
  });
});

describe('deriveKey', () => {
  it('is the first 16 hex chars of sha1(namespace NUL trimmed content)', () => {
    expect(deriveKey('decisions', GNMM_DOC_1)).toBe(expectedKey('decisions', GNMM_DOC_1));
    expect(deriveKey('decisions', GNMM_DOC_1)).toMatch(/^[0-9a-f]{16}$/);
  });

  it('is deterministic and ignores surrounding whitespace', () => {
    expect(deriveKey('decisions', GNMM_DOC_1)).toBe(deriveKey('decisions', GNMM_DOC_1));
    expect(deriveKey('decisions', `\n${GNMM_DOC_1}\n\n`)).toBe(deriveKey('decisions', GNMM_DOC_1));
  });

  it('depends on namespace and content', () => {
    expect(deriveKey('learnings', GNMM_DOC_1)).not.toBe(deriveKey('decisions', GNMM_DOC_1));
    expect(deriveKey('decisions', `${GNMM_DOC_1}.`)).not.toBe(deriveKey('decisions', GNMM_DOC_1));
  });

  it('does not depend on the annotated object, so the key survives a rebase', () => {
    const before = memoryOf(parseNote(GNMM_NOTE, 'decisions', OBJ_A).docs[1]);
    const after = memoryOf(parseNote(GNMM_NOTE, 'decisions', OBJ_B).docs[1]);
    expect(before.object).toBe(OBJ_A);
    expect(after.object).toBe(OBJ_B);
    expect(after.key).toBe(before.key);
  });
});

describe('appendedText', () => {
  // Notes built as git-mem writes them, bodies with the markdown that can look like front matter.
  const bodies = ['', 'Plain body.', 'A rule below.\n\n---\n\nAfter the rule.', 'Ends in what reads as a field.\n\n---\nsummary: looks like a header', 'Ends with a rule.\n\n---', '---\nsummary: not a header\n---', 'Code:\n```\n---\n```', 'type: decisions'];
  const memoryDoc = (i: number) => serializeMemory({ key: (0x1000 + i).toString(16).padStart(16, '0'), namespace: 'decisions', object: 'a'.repeat(40), summary: `Memory ${i}`, body: bodies[i % bodies.length]!, created: '2026-01-01T00:00:00Z', updated: '2026-01-01T00:00:00Z', tags: [], status: 'active', relatesTo: [] });

  it('gives the new documents exactly as parsing the whole note does, or null', () => {
    let fast = 0;
    for (let before = 1; before <= 8; before++) {
      for (let added = 1; added <= 3; added++) {
        for (let shift = 0; shift < bodies.length; shift++) {
          const docs = Array.from({ length: before + added }, (_, i) => ({ raw: memoryDoc(i + shift) }));
          const old = serializeNote(docs.slice(0, before));
          const now = serializeNote(docs);
          const tail = appendedText(old, now);
          const whole = parseNote(now, 'decisions', 'a'.repeat(40));
          const oldDocs = parseNote(old, 'decisions', 'a'.repeat(40)).docs;
          if (tail === null) continue;
          fast++;
          // The old part reads the same inside the new note, and the tail parses to the rest.
          expect(whole.docs.slice(0, oldDocs.length)).toEqual(oldDocs);
          expect(parseNote(tail, 'decisions', 'a'.repeat(40)).docs).toEqual(whole.docs.slice(oldDocs.length));
        }
      }
    }
    // Most appends take the fast way: only a trailing rule in the last old body sends one to the whole note.
    expect(fast).toBeGreaterThan(100);
  });

  it('is null when the old text was changed, not only appended to', () => {
    const a = serializeNote([{ raw: memoryDoc(1) }]);
    const b = serializeNote([{ raw: memoryDoc(1).replace('Memory 1', 'Memory one') }, { raw: memoryDoc(2) }]);
    expect(appendedText(a, b)).toBeNull();
    expect(appendedText('', b)).toBeNull();
    expect(appendedText(a, a)).toBeNull();
    // An old text ending in a bare rule after a blank line: its fence could pair with the new header's.
    const ruled = `${a.trimEnd()}\n\n---\n`;
    expect(appendedText(ruled, `${ruled.trimEnd()}\n\n${memoryDoc(3)}\n`)).toBeNull();
  });

  it('ends on old texts that start with blank lines or hold no rule (git notes add/append keep a leading blank line)', () => {
    for (const old of ['\nhand written\n', '\n\nhand written', '\n', 'x', '\n---', '\nhand\n---\nid: x\n---']) {
      const now = `${old.trimEnd()}\n\n${memoryDoc(4)}\n`;
      const tail = appendedText(old, now);
      if (tail !== null) expect(`${old.trimEnd()}${tail}`).toBe(now);
    }
    expect(appendedText('\nhand written\n', `\nhand written\n\n${memoryDoc(4)}\n`)).toBe(`\n\n${memoryDoc(4)}\n`);
    expect(appendedText('\n---', `\n---\n\n${memoryDoc(4)}\n`)).toBeNull();
  });
});

describe('appending to a large note (issue 36): parseNoteExcept and appendToNote', () => {
  const memory = (n: number, body = `Body ${n}.`): Memory => ({
    key: n.toString(16).padStart(16, '0'),
    namespace: 'decisions',
    object: OBJ_A,
    summary: `Memory number ${n}`,
    body,
    created: '2026-01-01T00:00:00Z',
    updated: '2026-01-01T00:00:00Z',
    tags: [],
    status: 'active',
    relatesTo: [],
  });
  // A Python-era note first (no ids), then documents git-mem wrote, one with a body that holds a fence line.
  const docs = [memory(1), memory(2, 'Before\n\n---\n\nafter the rule'), memory(3)].map(serializeMemory);
  const note = serializeNote([...parseNote(GNMM_NOTE, 'decisions', OBJ_A).docs, ...docs.map((raw) => ({ raw }))]);

  it('reads every document as parseNote does when nothing is skipped', () => {
    const whole = parseNote(note, 'decisions', OBJ_A);
    const parts = parseNoteExcept(note, 'decisions', OBJ_A, () => false);
    expect(parts.docs).toEqual(whole.docs);
    expect(parts.docs.filter((d) => d.kind === 'memory')).toHaveLength(5);
  });

  it('reads neither the skipped documents nor their bodies; text before the first id is always read', () => {
    const parts = parseNoteExcept(note, 'decisions', OBJ_A, (key) => key !== memory(3).key);
    const keys = parts.docs.map((d) => memoryOf(d).key);
    expect(keys).toHaveLength(3);
    expect(keys.at(-1)).toBe(memory(3).key);
    expect(memoryOf(parts.docs[2]).body).toBe('Body 3.');
    // Quoted ids, as other writers leave them, are keys too.
    const quoted = `---\nid: '${memory(7).key}'\ntype: decisions\nsummary: seven\n---\n\nx\n\n---\nid: "${memory(8).key}"\ntype: decisions\nsummary: eight\n---\n\ny\n`;
    expect(parseNoteExcept(quoted, 'decisions', OBJ_A, (k) => k === memory(7).key).docs.map((d) => memoryOf(d).summary)).toEqual(['eight']);
  });

  it('appends documents to the note text as serializeNote of all documents would write it', () => {
    const added = [serializeMemory(memory(4)), serializeMemory(memory(5))];
    const expected = serializeNote([...parseNote(note, 'decisions', OBJ_A).docs, ...added.map((raw) => ({ raw }))]);
    expect(appendToNote(note, added)).toBe(expected);
    expect(appendToNote(null, added)).toBe(serializeNote(added.map((raw) => ({ raw }))));
    expect(appendToNote('', added)).toBe(serializeNote(added.map((raw) => ({ raw }))));
    // CRLF line ends are rewritten as before.
    const crlf = note.replaceAll('\n', '\r\n');
    expect(appendToNote(crlf, added)).toBe(expected);
    expect(parseNote(appendToNote(note, added), 'decisions', OBJ_A).docs.filter((d) => d.kind === 'memory')).toHaveLength(7);
  });
});

describe('parseNoteTail', () => {
  const doc = (n: number, quote = '') => `---\nid: ${quote}${n.toString(16).padStart(16, '0')}${quote}\ntype: decisions\nsummary: number ${n}\n---\n\nbody ${n}\n\n\\---\n\nafter an escaped rule`;
  const note = `hand-written text first\n\n${[1, 2, 3, 4, 5].map((n) => doc(n, n === 4 ? '"' : '')).join('\n\n')}\n`;
  const key = (n: number) => n.toString(16).padStart(16, '0');
  const summaries = (seen: (k: string) => boolean, last = 50) =>
    parseNoteTail(note, 'decisions', 'a'.repeat(40), seen, last).docs.map((d) => (d.kind === 'memory' ? d.memory.summary : d.kind));

  it('reads the documents after the last one seen, as parseNote reads them', () => {
    expect(summaries((k) => k <= key(3))).toEqual(['number 4', 'number 5']);
    expect(summaries(() => true)).toEqual([]);
    const tail = parseNoteTail(note, 'decisions', 'a'.repeat(40), (k) => k <= key(3), 50).docs;
    expect(tail).toEqual(parseNote(note, 'decisions', 'a'.repeat(40)).docs.slice(-2));
  });

  it('stops at the limit, and reads the text before the first document only when it walks back to it', () => {
    expect(summaries(() => false, 2)).toEqual(['number 4', 'number 5']);
    expect(summaries(() => false)).toEqual(['other', 'number 1', 'number 2', 'number 3', 'number 4', 'number 5']);
    expect(summaries((k) => k === key(1))).toEqual(['number 2', 'number 3', 'number 4', 'number 5']);
  });
});

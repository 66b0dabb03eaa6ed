/**
 * Front-matter fields git-mem does not know (another tool's, a newer
 * version's) are kept as they are through a read and a rewrite (an edit,
 * resolve, reanchor), so git-mem never drops what it did not write.
 */
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../src/core/memory.ts';
import { parseNote, serializeMemory } from '../../src/core/note-format.ts';

const OBJ = 'a'.repeat(40);

const NOTE = `---
id: 0123456789abcdef
type: decisions
timestamp: 2026-01-01T00:00:00Z
summary: Use sql.js for the index
reviewed_by: Ada
priority: 3
urgent: false
meta:
  tool: other-agent
  labels: [x, "y z"]
---

No native build.
`;

function only(text: string): Memory {
  const docs = parseNote(text, 'decisions', OBJ).docs;
  expect(docs).toHaveLength(1);
  if (docs[0]!.kind !== 'memory') throw new Error(`expected a memory, got ${docs[0]!.kind}`);
  return docs[0]!.memory;
}

describe('fields git-mem does not know', () => {
  it('are read into extra with their YAML types, and only they', () => {
    const m = only(NOTE);
    expect(m.extra).toEqual({ reviewed_by: 'Ada', priority: 3, urgent: false, meta: { tool: 'other-agent', labels: ['x', 'y z'] } });
    expect(m.summary).toBe('Use sql.js for the index');
    expect(m.created).toBe('2026-01-01T00:00:00Z');
  });

  it('leave extra empty for a memory with every field git-mem knows', () => {
    const { extra: _, ...base } = only(NOTE);
    const known: Required<Omit<Memory, 'extra'>> = {
      ...base,
      updated: '2026-01-02T00:00:00Z',
      tags: ['t'],
      status: 'archived',
      spec: 's',
      phase: 'p',
      relatesTo: ['decisions:0123456789'],
      author: 'Ada <ada@example.com>',
      source: 'hook:Stop',
      confidence: 0.9,
      paths: ['src/a.ts'],
      commitSubject: 'Add the index',
      patchId: 'c'.repeat(40),
      consolidates: ['decisions:1111111111'],
      consolidatedInto: 'decisions:2222222222',
      supersedes: ['decisions:3333333333'],
      supersededBy: 'decisions:4444444444',
      reprieves: 2,
    };
    const back = only(serializeMemory(known));
    expect(back.extra).toBeUndefined();
    expect(back).toEqual(known);
  });

  it('are written back unchanged when the memory is rewritten with an edit', () => {
    const m = only(NOTE);
    const edited = only(serializeMemory({ ...m, summary: 'Use sql.js, edited', status: 'resolved', updated: '2026-02-01T00:00:00Z' }));
    expect(edited.extra).toEqual(m.extra);
    expect(edited).toMatchObject({ summary: 'Use sql.js, edited', status: 'resolved', key: m.key });
    // Read back by anything that reads YAML, not only by git-mem.
    expect(serializeMemory(edited)).toMatch(/^reviewed_by: Ada$/m);
    expect(serializeMemory(edited)).toMatch(/^priority: 3$/m);
  });

  it('keep a timestamp git-mem cannot read as it was written, rather than an empty one', () => {
    const m = only(NOTE.replace('timestamp: 2026-01-01T00:00:00Z', 'timestamp: last tuesday'));
    expect(m.created).toBe('');
    expect(m.extra?.timestamp).toBe('last tuesday');
    expect(serializeMemory(m)).toMatch(/^timestamp: last tuesday$/m);
    expect(only(serializeMemory(m)).extra?.timestamp).toBe('last tuesday');
  });

  it('never take the place of a field git-mem writes', () => {
    const m = only(NOTE);
    const text = serializeMemory({ ...m, extra: { ...m.extra, summary: 'from extra', id: 'ffffffffffffffff' } });
    expect(only(text)).toMatchObject({ summary: 'Use sql.js for the index', key: '0123456789abcdef' });
  });
});

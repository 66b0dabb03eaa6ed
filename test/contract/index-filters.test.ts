/**
 * One filter, every path, through the index facade: a listing (the term
 * index), a search that matches every memory (the term index's ranking), the
 * candidates of semantic search (SQL over the SQLite index), and a listing and
 * a search after memories were appended without sql.js (the term index's
 * overlay) keep the same memories for every filter. Times with and without fractional seconds, copies of a memory on
 * several commits and tags that are prefixes of others are the cases where
 * two implementations drifted apart before.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildLexicalQuery } from '../../src/core/search/query.ts';
import type { Memory } from '../../src/core/memory.ts';
import { parseNote, serializeMemory, serializeNote } from '../../src/core/note-format.ts';
import { Index } from '../../src/stores/index/index.ts';
import { MemDir } from '../../src/stores/cache/mem-dir.ts';
import type { SearchFilter } from '../../src/stores/index/filter.ts';
import { MemoryNotesStore } from '../fakes/memory-notes-store.ts';

const objects = ['a', 'b', 'c', 'd'].map((c) => c.repeat(40));
const namespaces = ['decisions', 'learnings', 'blockers'];
const statuses = ['active', 'resolved', 'archived'] as const;
const tagSets = [[], ['db'], ['db', 'perf'], ['dbx'], ['perf']];

function memories(count: number, from = 0): Memory[] {
  return Array.from({ length: count }, (_, j) => {
    const i = from + j;
    // Whole seconds and fractions alternate: '…00.5Z' sorts before '…00Z' as text.
    const created = new Date(Date.UTC(2026, 0, 1, 0, 0, i) + (i % 2 ? 500 : 0)).toISOString().replace(/\.000Z$/, 'Z');
    return {
      // Keys differ in their first 8 digits, which the term index hashes to tell new keys from stored ones.
      key: `${(0x10000000 + i * 7919).toString(16)}00000000`,
      namespace: namespaces[i % 3]!,
      object: objects[i % 4]!,
      summary: `memory number ${i} about the cache`,
      body: `Shared words for every memory, and ${i}.`,
      created,
      updated: created,
      tags: tagSets[i % 5]!,
      status: statuses[Math.floor(i / 3) % 3]!,
      relatesTo: [],
      ...(i % 4 === 1 ? { spec: 'spec-a' } : {}),
    };
  });
}

/** A note with documents added at its end, as a capture writes it. */
function appendDocs(note: string | null | undefined, docs: readonly string[]): string {
  return serializeNote([...(note ? parseNote(note, 'decisions', objects[0]!).docs : []), ...docs.map((raw) => ({ raw }))]);
}

function write(notes: MemoryNotesStore, list: readonly Memory[]) {
  for (const ns of namespaces) {
    const mine = list.filter((m) => m.namespace === ns);
    const byObject = new Map<string, string[]>();
    for (const m of mine) byObject.set(m.object, [...(byObject.get(m.object) ?? []), serializeMemory(m)]);
    if (!byObject.size) continue;
    notes.update(ns, [...byObject.keys()], (current) => ({
      changes: new Map([...byObject].map(([o, docs]) => [o, appendDocs(current.get(o), docs)])),
      message: 'write',
    }));
  }
}

const filters: SearchFilter[] = [
  {},
  { namespaces: ['learnings'] },
  { namespaces: ['decisions', 'blockers'], statuses: ['active'] },
  { statuses: ['archived'] },
  { since: '2026-01-01T00:00:10Z' },
  { since: '2026-01-01T00:00:10.5Z', until: '2026-01-01T00:00:31Z' },
  { until: '2026-01-01T00:00:07Z' },
  { tags: ['db'] },
  { tags: ['db', 'perf'], statuses: ['active', 'resolved'] },
  { spec: 'spec-a' },
  { objects: [objects[1]!] },
  { objects: [objects[2]!, objects[3]!], namespaces: ['decisions'] },
];

const keys = (ms: readonly Memory[]) => ms.map((m) => m.key).sort();

describe('index filters: the same memories through every path', () => {
  it('list, search, semantic candidates and an appended overlay agree on every filter', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-filters-'));
    try {
      const notes = new MemoryNotesStore();
      const first = memories(40);
      write(notes, first);
      // A copy of memory 0 on another commit (a rewrite): it is attached to both.
      notes.update('decisions', [objects[3]!], (current) => ({ changes: new Map([[objects[3]!, appendDocs(current.get(objects[3]!), [serializeMemory(first[0]!)])]]), message: 'copy' }));
      const open = () => new Index({ notes, dir: new MemDir(dir), anchors: () => new Map(), notice: () => {} });
      const index = open();
      await index.refresh();
      const reader = await index.current();
      const query = buildLexicalQuery('shared words')!;
      for (const filter of filters) {
        const listed = keys(reader.list(filter));
        expect(listed.length, JSON.stringify(filter)).toBeGreaterThan(0);
        expect(keys(reader.search(query, filter).map((h) => h.memory)), JSON.stringify(filter)).toEqual(listed);
        expect((await index.candidates(filter)).map((c) => c.key).sort(), JSON.stringify(filter)).toEqual(listed);
      }
      await index.close();

      // Ten more memories: a new reader appends them to the term index alone (the overlay); the SQLite index then catches up.
      write(notes, memories(10, 40));
      const appending = open();
      const appended = await appending.current();
      expect(fs.existsSync(path.join(dir, 'terms.add'))).toBe(true);
      const caughtUp = open();
      await caughtUp.refresh();
      for (const filter of filters) {
        const listed = keys(appended.list(filter));
        expect(keys(appended.search(query, filter).map((h) => h.memory)), JSON.stringify(filter)).toEqual(listed);
        expect((await caughtUp.candidates(filter)).map((c) => c.key).sort(), JSON.stringify(filter)).toEqual(listed);
        expect(keys((await caughtUp.current()).list(filter)), JSON.stringify(filter)).toEqual(listed);
      }
      await appending.close();
      await caughtUp.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A service tested without git: edit and forget against the in-memory notes
 * store and the real SQLite index over it, with a fixed clock. What holds here
 * holds against git too (test/contract/notes-store.test.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { resolveNamespaces } from '../../src/core/namespaces.ts';
import type { Settings } from '../../src/services/settings.ts';
import { editMemory, forgetMemory } from '../../src/services/memories.ts';
import { Index } from '../../src/stores/index/index.ts';
import { MemDir } from '../../src/stores/cache/mem-dir.ts';
import { MemoryNotesStore } from '../fakes/memory-notes-store.ts';

const settings: Settings = {
  namespaces: resolveNamespaces([]).namespaces,
  invalidNamespaces: [],
  committerIdent: 'Test <test@example.com> 1700000000 +0000',
  author: 'Test <test@example.com>',
  autoCapture: true,
  pullOnStart: false,
  pushOnEnd: false,
  secrets: 'redact',
  secretsAllow: [],
  recallMode: 'lexical',
  queryEmbedding: 'static',
  hooksSemantic: true,
  modelDownload: false,
  modelUrl: '',
  pager: {},
  trust: [{ kind: 'all' }],
  sign: false,
  relevanceFloor: 0.7,
  connectThreshold: 0.4,
  connectCosine: 0.6,
  protectNamespaces: ['decisions'],
  lifecycleTimeoutMs: 60_000,
  captureWith: '',
  captureTimeoutMs: 5000,
};

function deps(notes: MemoryNotesStore) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-service-'));
  onTestFinished(() => fs.rmSync(dir, { recursive: true, force: true }));
  return {
    notes,
    settings,
    now: () => new Date('2026-02-01T00:00:00Z'),
    // The real index over the fake notes; a fresh one per call, as each command opens its own.
    get index() {
      return new Index({ notes, dir: new MemDir(dir), anchors: () => new Map(), notice: () => {} });
    },
  };
}

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const doc = `---\nid: 0123456789abcdef\ntype: decisions\ntimestamp: 2026-01-01T00:00:00Z\nsummary: Use the cache\n---\n\nBecause.\n`;

describe('editing and forgetting, with the stores faked', () => {
  it('an edit reaches every copy of a memory, from the newest revision', async () => {
    const notes = new MemoryNotesStore();
    notes.update('decisions', [A, B], () => ({ changes: new Map([[A, doc], [B, doc]]), message: 'two copies' }));
    const edited = await editMemory(deps(notes), '0123', { body: 'Because it is fast.' });
    expect(edited.body).toBe('Because it is fast.');
    const tip = notes.tips().get('decisions')!;
    const texts = notes.readTexts(notes.listNotes(tip).map((n) => n.blob));
    expect([...texts.values()].every((t) => t.includes('Because it is fast.') && t.includes('updated: 2026-02-01T00:00:00Z'))).toBe(true);
  });

  it('forget leaves a tombstone on every copy', async () => {
    const notes = new MemoryNotesStore();
    notes.update('decisions', [A, B], () => ({ changes: new Map([[A, doc], [B, doc]]), message: 'two copies' }));
    await forgetMemory(deps(notes), '0123');
    const listed = notes.listNotes(notes.tips().get('decisions')!);
    expect(listed.map((n) => n.object).sort()).toEqual([A, B]);
    const texts = notes.readTexts(listed.map((n) => n.blob));
    for (const n of listed) expect(texts.get(n.blob)).toBe('---\nid: "0123456789abcdef"\nforgotten: 2026-02-01T00:00:00Z\n---\n');
    await expect(editMemory(deps(notes), '0123', { body: 'x' })).rejects.toThrow(/^memory '0123' was forgotten \(git mem forget\)/);
  });
});

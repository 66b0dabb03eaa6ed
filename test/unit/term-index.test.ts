import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Memory } from '../../src/core/memory.ts';
import { ANALYZER_VERSION } from '../../src/core/search/analyzer.ts';
import { buildLexicalQuery } from '../../src/core/search/query.ts';
import { appendToTermIndex, buildTermIndex, writeTermIndex } from '../../src/stores/index/terms/build.ts';
import { keyHashesOf } from '../../src/stores/index/terms/format.ts';
import { adler32 } from '../../src/stores/index/terms/blocks.ts';
import zlib from 'node:zlib';
import { DEFAULT_LEXICAL } from '../../src/core/search/lexical.ts';
import { TermIndex } from '../../src/stores/index/terms/reader.ts';

let seq = 0;
function memory(summary: string, body = '', extra: Partial<Memory> = {}): Memory {
  seq++;
  const created = new Date(Date.UTC(2026, 0, 1) + seq * 60_000).toISOString().replace('.000', '');
  return { key: seq.toString(16).padStart(16, '0'), namespace: 'decisions', object: 'a'.repeat(40), summary, body, created, updated: created, tags: [], status: 'active', relatesTo: [], ...extra };
}

const source = { tips: { decisions: 'f'.repeat(40) }, generation: 'g1', copies: {} };

/** A term index of `rows` (row id → memory), optionally built on top of `previous`. */
function build(rows: Map<number, Memory>, previous: TermIndex | null = null, generation = source.generation): { index: TermIndex; loaded: number[] } {
  const loaded: number[] = [];
  const bytes = buildTermIndex({ ...source, generation }, [...rows.keys()], previous, (ids) => {
    loaded.push(...ids);
    return ids.map((rowid) => ({ rowid, memory: rows.get(rowid)! }));
  });
  return { index: TermIndex.fromBytes(bytes), loaded };
}

const search = (index: TermIndex, text: string, filter = {}) => index.search(buildLexicalQuery(text)!, filter).map((h) => h.memory.summary);

describe('term index', () => {
  const filler = 'Some unrelated words about the build, the release and the team calendar for next quarter.';

  it('ranks summary and tag matches above a body match, and stems and prefix-matches', () => {
    const rows = new Map<number, Memory>([
      [1, memory('Release calendar', `We looked at flaky tests last week. ${filler}`, { tags: ['release'] })],
      [2, memory('Flaky sync suite', filler, { tags: ['sync'] })],
      [3, memory('Quarter planning', filler, { tags: ['flaky'] })],
      [4, memory('Cached notes trees', filler)],
      [5, memory('Worktrees share the index', filler, { tags: ['worktree'] })],
    ]);
    const { index } = build(rows);
    // Summary and tags weigh the same (core/search/lexical.ts DEFAULT_LEXICAL), both above the body.
    const flaky = search(index, 'flaky');
    expect(flaky.slice(0, 2).sort()).toEqual(['Flaky sync suite', 'Quarter planning']);
    expect(flaky[2]).toBe('Release calendar');
    // (Then "Worktrees share the index", by a related word: cache is related to index, core/search/related-words.ts.)
    expect(search(index, 'caching')[0]).toBe('Cached notes trees');
    expect(index.search(buildLexicalQuery('caching', { related: false })!, {}).map((h) => h.memory.summary)).toEqual(['Cached notes trees']);
    expect(search(index, 'worktr')).toEqual(['Worktrees share the index']);
    expect(search(index, 'kubernetes')).toEqual([]);
    // Words that were operators in FTS query syntax are plain words.
    expect(search(index, 'flaky NEAR sync')[0]).toBe('Flaky sync suite');
  });

  it('returns whole memories, applies every filter, and breaks ties by newer first', () => {
    const a = memory('Retry the lock', 'x', { namespace: 'learnings', tags: ['ci', 'windows'], spec: 'storage', status: 'resolved' });
    const b = memory('Retry the lock', 'x', { namespace: 'decisions', tags: ['ci'] });
    const { index } = build(new Map([[1, a], [2, b]]));
    // Without feedback: it would add 'ci', which weighs differently beside a's second tag.
    const hits = index.search(buildLexicalQuery('retry lock')!, {}, { ...DEFAULT_LEXICAL, feedback: false });
    expect(hits.map((h) => h.memory)).toEqual([b, a]);
    expect(hits[0]!.score).toBe(hits[1]!.score);
    expect(search(index, 'retry', { namespaces: ['learnings'] })).toHaveLength(1);
    expect(search(index, 'retry', { namespaces: ['nope'] })).toEqual([]);
    expect(index.search(buildLexicalQuery('retry')!, { statuses: ['active'] })[0]!.memory).toEqual(b);
    expect(index.search(buildLexicalQuery('retry')!, { tags: ['ci', 'windows'] }).map((h) => h.memory)).toEqual([a]);
    expect(index.search(buildLexicalQuery('retry')!, { spec: 'storage' }).map((h) => h.memory)).toEqual([a]);
    expect(index.search(buildLexicalQuery('retry')!, { since: b.created }).map((h) => h.memory)).toEqual([b]);
    expect(index.search(buildLexicalQuery('retry')!, { until: a.created }).map((h) => h.memory)).toEqual([a]);
    expect(index.search(buildLexicalQuery('retry')!, { limit: 1 })).toHaveLength(1);
  });

  it('lists current memories newest first with the same filters, and counts them per namespace', () => {
    const commitA = 'a'.repeat(40);
    const commitB = 'b'.repeat(40);
    const older = memory('Older decision', '', { object: commitA });
    const blocker = memory('A blocker', '', { namespace: 'blockers', object: commitB, tags: ['ci'] });
    const newer = memory('Newer decision', '', { object: commitB, status: 'resolved' });
    // Same creation time as `newer`: ties go by key.
    const twin = memory('Twin decision', '', { object: commitA, created: newer.created });
    const { index } = build(new Map([[1, older], [2, blocker], [3, newer], [4, twin]]));
    const summaries = (filter = {}) => index.list(filter).map((m) => m.summary);
    expect(summaries()).toEqual(['Newer decision', 'Twin decision', 'A blocker', 'Older decision']);
    expect(summaries({ limit: 2 })).toEqual(['Newer decision', 'Twin decision']);
    expect(summaries({ namespaces: ['decisions'], statuses: ['active'] })).toEqual(['Twin decision', 'Older decision']);
    expect(summaries({ objects: [commitB] })).toEqual(['Newer decision', 'A blocker']);
    // The first 32 bits of an object only narrow the search; the whole id decides.
    expect(summaries({ objects: [`${'b'.repeat(8)}${'0'.repeat(32)}`] })).toEqual([]);
    expect(summaries({ tags: ['ci'] })).toEqual(['A blocker']);
    expect(summaries({ since: blocker.created })).toEqual(['Newer decision', 'Twin decision', 'A blocker']);
    expect(index.list({ limit: 1 })[0]).toEqual(newer);
    expect(Object.fromEntries(index.counts())).toEqual({ decisions: 3, blockers: 1 });
  });

  it('updated incrementally, ranks exactly as one built from scratch, tokenizing only new rows', () => {
    const words = 'index cache notes merge rebase commit branch worktree hook session token budget embedding vector lexical ranking'.split(' ');
    let r = 7;
    const word = () => words[(r = (r * 1103515245 + 12345) % 2147483648) % words.length]!;
    const rows = new Map<number, Memory>();
    let next = 1;
    for (; next <= 200; next++) rows.set(next, memory(`${word()} ${word()} ${word()}`, `${word()} ${word()} ${word()} ${word()}`, { tags: [word()] }));
    let { index } = build(rows);
    for (let round = 0; round < 5; round++) {
      // Some rows stop being current (edited, forgotten), new ones arrive.
      for (const id of [...rows.keys()].filter((_, i) => i % 17 === round)) rows.delete(id);
      const added: number[] = [];
      for (let i = 0; i < 10; i++, next++) {
        rows.set(next, memory(`${word()} ${word()}`, `${word()} ${word()} ${word()}`));
        added.push(next);
      }
      const step = build(rows, index);
      expect(step.loaded).toEqual(added);
      const fresh = build(rows).index;
      expect(step.index.docCount).toBe(rows.size);
      expect(step.index.list().map((m) => m.key)).toEqual(fresh.list().map((m) => m.key));
      expect(step.index.counts()).toEqual(fresh.counts());
      for (const q of ['index cache', 'rebase', 'vector ranking budget', 'hoo', 'session token notes']) {
        const got = step.index.search(buildLexicalQuery(q)!);
        const want = fresh.search(buildLexicalQuery(q)!);
        expect(got.map((h) => h.memory.key)).toEqual(want.map((h) => h.memory.key));
        got.forEach((h, i) => expect(h.score).toBeCloseTo(want[i]!.score, 9));
      }
      index = step.index;
    }
  });

  it('reuses nothing from an index of another generation (row ids mean nothing there)', () => {
    // Made-up words: no expansion relates them (Greek letters are each other's everyday neighbours).
    const rows = new Map([[1, memory('Qorvax')], [2, memory('Blenthar')]]);
    const { index } = build(rows);
    rows.set(1, memory('Zimquo'));
    expect(build(rows, index, 'g2').loaded).toEqual([1, 2]);
    expect(search(build(rows, index, 'g2').index, 'zimquo')).toEqual(['Zimquo']);
  });

  it('refuses a file of another index or analyzer version, and stops at postings that do not decode', () => {
    const bytes = buildTermIndex(source, [1, 2], null, (ids) => ids.map((rowid) => ({ rowid, memory: memory(`Flaky test ${rowid}`) })));
    const headerLength = new DataView(bytes.buffer).getUint32(8, true);
    const header = JSON.parse(new TextDecoder().decode(bytes.subarray(12, 12 + headerLength)));
    const patched = (from: string, to: string) => {
      const copy = bytes.slice();
      const text = new TextDecoder().decode(copy.subarray(12, 12 + headerLength));
      expect(text).toContain(from);
      copy.set(new TextEncoder().encode(text.replace(from, to)), 12);
      return copy;
    };
    expect(() => TermIndex.fromBytes(patched(`"analyzer":${ANALYZER_VERSION}`, `"analyzer":${ANALYZER_VERSION + 1}`))).toThrow(/another version/);
    expect(() => TermIndex.fromBytes(patched(`"indexVersion":"${header.indexVersion}"`, `"indexVersion":"${'0'.repeat(header.indexVersion.length)}"`))).toThrow(/another version/);
    // The first term's postings ('1', in byte order), overwritten with bytes that are no list.
    const damaged = bytes.slice();
    const postingsAt = Math.ceil((12 + headerLength) / 8) * 8 + header.sections.postings[0];
    new DataView(damaged.buffer).setUint32(postingsAt, 0xffffffff, true);
    const index = TermIndex.fromBytes(damaged);
    // Its other terms read as before; the damaged list stops the search, rather than answer from what is left.
    expect(search(index, 'flaky')).toHaveLength(2);
    expect(() => search(index, '1 flaky')).toThrow(/damaged/);
    expect(search(TermIndex.fromBytes(bytes), '1 flaky')).toHaveLength(2);
  });

  it('is written atomically and read back; a truncated or foreign file reads as none', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'git-mem-terms-'));
    const file = path.join(dir, 'terms.idx');
    expect(TermIndex.read(file)).toBeNull();
    const bytes = buildTermIndex(source, [1], null, () => [{ rowid: 1, memory: memory('Persisted summary', 'café ünïcode body') }]);
    writeTermIndex(file, bytes);
    expect(fs.readdirSync(dir)).toEqual(['terms.idx']);
    const back = TermIndex.read(file)!;
    expect(back.tips).toEqual(source.tips);
    expect(search(back, 'café')).toEqual(['Persisted summary']);
    fs.writeFileSync(file, bytes.subarray(0, bytes.byteLength - 9));
    expect(TermIndex.read(file)).toBeNull();
    fs.writeFileSync(file, 'SQLite format 3\0 and then some');
    expect(TermIndex.read(file)).toBeNull();
    fs.rmSync(dir, { recursive: true });
  });

  describe('built in steps, byte for byte the index built at once', () => {
    // Words drawn from a small vocabulary with multi-byte ones (byte order differs from UTF-16 order past U+FFFF).
    const words = ['cache', 'index', 'merge', 'rebase', 'zebra', 'ärger', 'naïve', 'über', '日本', '😀emoji', 'a', 'ab', 'abc', 'worktree', 'lock'];
    let r = 7;
    const pick = () => words[(r = (r * 1103515245 + 12345) % 2147483648) % words.length]!;
    const sentence = (n: number) => Array.from({ length: n }, pick).join(' ');
    const rows = new Map<number, Memory>(Array.from({ length: 60 }, (_, i) => [i + 1, memory(sentence(4), sentence(12), { tags: [pick()] })] as [number, Memory]));

    it('new documents appended to a previous index (rebuilt, or appended without row ids)', () => {
      const all = [...rows.keys()];
      const whole = buildTermIndex(source, all, null, (ids) => ids.map((rowid) => ({ rowid, memory: rows.get(rowid)! })));
      const first = build(new Map(all.slice(0, 35).map((id) => [id, rows.get(id)!]))).index;
      const stepped = buildTermIndex(source, all, first, (ids) => ids.map((rowid) => ({ rowid, memory: rows.get(rowid)! })));
      expect(Buffer.from(stepped).equals(Buffer.from(whole))).toBe(true);

      // Appended: the same index, but the new documents have row id 0 until the SQLite index reads them.
      const appended = TermIndex.fromBytes(appendToTermIndex(first, { ...source, keyHashes: keyHashesOf([...rows.values()].map((m) => m.key)) }, all.slice(35).map((id) => rows.get(id)!)));
      const full = TermIndex.fromBytes(whole);
      expect([...appended.rowids]).toEqual([...all.slice(0, 35), ...all.slice(35).map(() => 0)]);
      for (const q of ['cache merge', 'über', '日本 naïve', 'ab', '😀emoji', 'wor']) expect(search(appended, q)).toEqual(search(full, q));
      expect(appended.termCount).toBe(full.termCount);
      for (const m of rows.values()) expect(appended.mayHoldKey(m.key)).toBe(true);
      expect(appended.mayHoldKey('ffffffff00000000')).toBe(false);
    });

    it('an update copies unchanged postings lists as stored; a damaged list it must extend makes it build without the previous index', () => {
      const all = [...rows.keys()];
      const load = (ids: number[]) => ids.map((rowid) => ({ rowid, memory: rows.get(rowid)! }));
      const whole = buildTermIndex(source, all, null, load);
      const firstBytes = buildTermIndex(source, all.slice(0, 35), null, load);
      const headerLength = new DataView(firstBytes.buffer).getUint32(8, true);
      const header = JSON.parse(new TextDecoder().decode(firstBytes.subarray(12, 12 + headerLength)));
      const postingsAt = Math.ceil((12 + headerLength) / 8) * 8 + header.sections.postings[0];
      // Every list's bytes overwritten: the terms the new documents share cannot be extended.
      const damaged = firstBytes.slice();
      damaged.fill(0xff, postingsAt, postingsAt + header.sections.postings[1]);
      let loaded = 0;
      const stepped = buildTermIndex(source, all, TermIndex.fromBytes(damaged), (ids) => ((loaded = ids.length), load(ids)));
      expect(loaded).toBe(all.length);
      expect(Buffer.from(stepped).equals(Buffer.from(whole))).toBe(true);
      // A list no new document extends is copied as it is stored: readers stop at it, as at any damaged list.
      const fresh = memory('zzzunique', 'zzzother');
      const asked: number[] = [];
      const copied = TermIndex.fromBytes(
        buildTermIndex(source, [...all.slice(0, 35), 1000], TermIndex.fromBytes(damaged), (ids) => (asked.push(...ids), ids.map((rowid) => ({ rowid, memory: rowid === 1000 ? fresh : rows.get(rowid)! })))),
      );
      expect(asked).toEqual([1000]);
      expect(search(copied, 'zzzunique')).toEqual(['zzzunique']);
      expect(() => search(copied, 'cache')).toThrow(/damaged/);
    });

    it('a main index layered with an overlay of the rest answers as the index built at once', () => {
      const all = [...rows.keys()];
      const main = build(new Map(all.slice(0, 40).map((id) => [id, rows.get(id)!]))).index;
      const rest = all.slice(40).map((id) => rows.get(id)!);
      // The overlay brings a namespace and a status the main file does not have.
      rest[0] = { ...rest[0]!, namespace: 'research' };
      rest[1] = { ...rest[1]!, status: 'archived' };
      const overlay = TermIndex.fromBytes(appendToTermIndex(null, { ...source, base: { tips: source.tips, generation: source.generation } }, rest));
      const layered = TermIndex.layered(main, overlay);
      const whole = TermIndex.fromBytes(appendToTermIndex(null, source, [...all.slice(0, 40).map((id) => rows.get(id)!), ...rest]));
      for (const q of ['cache merge', 'über', '日本 naïve', 'ab', '😀emoji', 'wor', 'zebra lock']) {
        expect(search(layered, q)).toEqual(search(whole, q));
        expect(search(layered, q, { namespaces: ['research'] })).toEqual(search(whole, q, { namespaces: ['research'] }));
        expect(search(layered, q, { statuses: ['archived'] })).toEqual(search(whole, q, { statuses: ['archived'] }));
      }
      expect(layered.list({ limit: 70 }).map((m) => m.key)).toEqual(whole.list({ limit: 70 }).map((m) => m.key));
      expect([...layered.counts()].sort()).toEqual([...whole.counts()].sort());
      expect(layered.docCount).toBe(60);
      for (const m of rows.values()) expect(layered.mayHoldKey(m.key)).toBe(true);
      // Neither input changed.
      expect(main.docCount).toBe(40);
      expect(search(main, 'zebra lock').length).toBeLessThanOrEqual(search(whole, 'zebra lock').length);
    });

    it('an overlay that removes documents of the main file (edits, forgets) answers as the index built without them, scores too; folded, byte for byte', () => {
      const all = [...rows.keys()];
      const main = TermIndex.fromBytes(appendToTermIndex(null, source, all.slice(0, 40).map((id) => rows.get(id)!)));
      // Documents 3, 17 and 39 of the main file replaced (an edit: the new revision in the overlay) or gone (a forget).
      const edited = { ...rows.get(all[17]!)!, summary: 'zebra edited', status: 'resolved' as const };
      const rest = [...all.slice(40).map((id) => rows.get(id)!), edited];
      const deleted = Uint32Array.from([3, 17, 39]);
      const overlay = TermIndex.fromBytes(appendToTermIndex(null, { ...source, base: { tips: source.tips, generation: source.generation }, deleted }, rest));
      const layered = TermIndex.layered(main, overlay);
      const remaining = [...all.slice(0, 40).filter((_, d) => !deleted.includes(d)).map((id) => rows.get(id)!), ...rest];
      const whole = TermIndex.fromBytes(appendToTermIndex(null, source, remaining));
      const scored = (index: TermIndex, q: string, filter = {}) => index.search(buildLexicalQuery(q)!, filter).map((h) => `${h.memory.key} ${h.score}`);
      for (const q of ['cache merge', 'über', '日本 naïve', 'ab', '😀emoji', 'wor', 'zebra lock', 'zebra edited']) {
        expect(scored(layered, q)).toEqual(scored(whole, q));
        expect(scored(layered, q, { statuses: ['resolved'] })).toEqual(scored(whole, q, { statuses: ['resolved'] }));
      }
      expect(layered.list({ limit: 100 })).toEqual(whole.list({ limit: 100 }));
      expect([...layered.counts()]).toEqual([...whole.counts()]);
      expect(layered.memoryCount).toBe(remaining.length);
      expect(layered.facts()).toEqual(whole.facts());
      expect(layered.averageLengths).toEqual(whole.averageLengths);
      expect(layered.documentOf('decisions', edited.object, rows.get(all[3]!)!.key)).toBeUndefined();
      expect(layered.documentOf('decisions', edited.object, edited.key)).toBe(main.docCount + rest.length - 1);
      // Folded: the main file without its removed documents, then the overlay's: the file built at once.
      const folded = appendToTermIndex(main, source, rest, new Set(deleted));
      expect(Buffer.from(folded).equals(Buffer.from(appendToTermIndex(null, source, remaining)))).toBe(true);
    });

    it('compressed blocks: unchanged full blocks are copied, the rest deflated again, every document read back whole', () => {
      const many = new Map<number, Memory>(Array.from({ length: 150 }, (_, i) => [i + 1, memory(sentence(5), sentence(30), { tags: [pick()] })] as [number, Memory]));
      const all = [...many.keys()];
      const load = (ids: number[]) => ids.map((rowid) => ({ rowid, memory: many.get(rowid)! }));
      const first = build(many).index;
      // One memory dropped (document 99), one added: the full blocks before it copied, the rest deflated.
      const kept = [...all.filter((id) => id !== 100), 999];
      many.set(999, memory('a memory added later', sentence(30)));
      const stepped = buildTermIndex(source, kept, first, load);
      const whole = buildTermIndex(source, kept, null, load);
      expect(Buffer.from(stepped).equals(Buffer.from(whole))).toBe(true);
      const index = TermIndex.fromBytes(stepped);
      expect(Array.from({ length: index.docCount }, (_, d) => index.memory(d))).toEqual(kept.map((id) => many.get(id)));
      // A range across blocks reads as the documents one by one.
      const one = Array.from({ length: 70 }, (_, d) => Buffer.from(index.documentBytes(d + 20)).toString()).join('');
      expect(Buffer.from(index.documentRange(20, 90)).toString()).toBe(one);
      // The documents take less than half their JSON.
      const json = kept.reduce((n, id) => n + Buffer.byteLength(JSON.stringify(many.get(id))), 0);
      expect(stepped.byteLength).toBeLessThan(json);
    });

    it('a damaged block of documents is an error when read, not a wrong memory', () => {
      const bytes = buildTermIndex(source, [...rows.keys()], null, (ids) => ids.map((rowid) => ({ rowid, memory: rows.get(rowid)! })));
      const index = TermIndex.fromBytes(bytes);
      const at = bytes.byteLength - 40;
      const damaged = bytes.slice();
      damaged[at] = damaged[at]! ^ 0xff;
      damaged[at + 1] = damaged[at + 1]! ^ 0xff;
      const broken = TermIndex.fromBytes(damaged);
      expect(() => Array.from({ length: broken.docCount }, (_, d) => broken.memory(d))).toThrow();
      expect(index.memory(index.docCount - 1)).toEqual([...rows.values()].at(-1));
      // Any one bit flipped in the last block (raw DEFLATE alone can inflate a flip to other text of
      // the same length): each block carries its documents' Adler-32.
      const header = JSON.parse(Buffer.from(bytes.subarray(12, 12 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true))).toString()) as { sections: Record<string, [number, number]> };
      const dataStart = Math.ceil((12 + new DataView(bytes.buffer, bytes.byteOffset).getUint32(8, true)) / 8) * 8;
      const [docsAt, docsLength] = header.sections.docs!;
      const blocks = new Uint32Array(bytes.slice(dataStart + header.sections.docBlocks![0], dataStart + header.sections.docBlocks![0] + header.sections.docBlocks![1]).buffer);
      const lastBlock = dataStart + docsAt + blocks[blocks.length - 2]!;
      let caught = 0;
      for (let at = lastBlock; at < dataStart + docsAt + docsLength; at++) {
        for (const bit of [0, 3, 7]) {
          const flipped = bytes.slice();
          flipped[at] = flipped[at]! ^ (1 << bit);
          const reader = TermIndex.fromBytes(flipped);
          // Either the damage is found, or the bit was one DEFLATE never reads (the last byte's padding).
          let read: Memory[] | null = null;
          try {
            read = Array.from({ length: reader.docCount }, (_, d) => reader.memory(d));
          } catch {
            caught++;
          }
          if (read) expect(read).toEqual([...rows.values()]);
        }
      }
      expect(caught).toBeGreaterThan(100);
    });

    it('the Adler-32 of a block is zlib\'s', () => {
      let r = 3;
      for (const size of [0, 1, 100, 5552, 5553, 40_000]) {
        const data = Uint8Array.from({ length: size }, () => (r = (r * 1103515245 + 12345) % 2147483648) & 0xff);
        // zlib's format ends with the Adler-32 of the data, big-endian.
        const zlibbed = zlib.deflateSync(data);
        expect(adler32(data)).toBe(zlibbed.readUInt32BE(zlibbed.length - 4));
      }
    });

    it('documents dropped from a previous index renumber their postings and drop terms left empty', () => {
      const all = [...rows.keys()];
      const first = build(rows).index;
      const kept = all.filter((id) => id % 3 !== 0);
      const stepped = TermIndex.fromBytes(buildTermIndex(source, kept, first, () => []));
      const whole = build(new Map(kept.map((id) => [id, rows.get(id)!]))).index;
      for (const q of ['cache merge', 'über', '日本 naïve', 'ab', '😀emoji', 'zebra lock']) expect(search(stepped, q)).toEqual(search(whole, q));
      expect(stepped.termCount).toBe(whole.termCount);
      expect(stepped.docCount).toBe(kept.length);
    });
  });
});

describe('common words (lexical.ts COMMON_SHARE, COMMON_MIN_MEMORIES)', () => {
  // 1,200 memories that all say "We chose ...", one of them about sqlite.
  const rows = new Map<number, Memory>();
  for (let i = 1; i <= 1200; i++) rows.set(i, memory(`decision number ${i}`, i === 700 ? 'We chose sqlite for the cache.' : `We chose option ${i} over the others.`));
  const { index } = build(rows);

  it('order the matches of the other words and bring in none', () => {
    expect(search(index, 'why did we choose sqlite')).toEqual(['decision number 700']);
    // No memory holds "zorblax": the ones that merely say "chose" are not what was asked.
    expect(search(index, 'why did we choose zorblax')).toEqual([]);
  });

  it('are searched as any word when the query has no other, the two written together (choseoption) being no word of it', () => {
    expect(search(index, 'chose').length).toBeGreaterThan(0);
    expect(search(index, 'chose option').length).toBeGreaterThan(0);
  });

  it('count as any word in a collection under the minimum', () => {
    const few = new Map([...rows].slice(0, 900));
    expect(search(build(few).index, 'why did we choose zorblax').length).toBeGreaterThan(0);
  });
});

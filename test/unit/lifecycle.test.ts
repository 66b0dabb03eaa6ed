/**
 * The pure parts of the memory lifecycle: word similarity and its join, links,
 * the connection graph and its hub groups, extractive consolidation, the aging
 * rules, and which retired memories a pull archives again.
 */
import { describe, expect, it } from 'vitest';
import { agingVerdict, GC_REPRIEVES_MAX, hasSubstance, RECALLED_MIN } from '../../src/core/lifecycle/aging.ts';
import { connectionGraph, hubGroups } from '../../src/core/lifecycle/connections.ts';
import { consolidateExtractive, consolidationKey, rationaleLines } from '../../src/core/lifecycle/consolidation.ts';
import { linkedPairs, linkRef, refersTo, retire, retirementsDue, withLinks } from '../../src/core/lifecycle/links.ts';
import type { Memory } from '../../src/core/memory.ts';
import { contentTerms, holdsEveryWord, linkToSimilar, setCosine, similarPairs } from '../../src/core/search/similarity.ts';
import { prng } from '../helpers/prng.ts';

const OBJ = 'c0ffee'.padEnd(40, '0');
let n = 0;
function mem(summary: string, over: Partial<Memory> = {}): Memory {
  n++;
  return {
    key: n.toString(16).padStart(16, 'a'),
    namespace: 'learnings',
    object: OBJ,
    summary,
    body: '',
    created: `2026-01-${String((n % 28) + 1).padStart(2, '0')}T00:00:00Z`,
    updated: '2026-01-01T00:00:00Z',
    tags: [],
    status: 'active',
    relatesTo: [],
    ...over,
  };
}

describe('similarity', () => {
  it('stems and drops stop words, so word forms and filler do not matter', () => {
    expect([...contentTerms(mem('We retried the uploads'))].sort()).toEqual([...contentTerms(mem('retry upload'))].sort());
    const similarity = (a: string, b: string) => setCosine(contentTerms(mem(a)), contentTerms(mem(b)));
    expect(similarity('Retry uploads with backoff', 'uploads are retried with backoff')).toBe(1);
    expect(similarity('Retry uploads with backoff', 'CSS grid breaks in Safari')).toBe(0);
  });

  it('the join finds exactly the pairs at or above the threshold (checked against all pairs)', () => {
    const r = prng(7);
    const vocab = Array.from({ length: 60 }, (_, i) => `word${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`);
    const docs = Array.from({ length: 120 }, () => new Set(Array.from({ length: 2 + Math.floor(r() * 6) }, () => vocab[Math.floor(r() * vocab.length)]!)));
    const brute: string[] = [];
    for (let a = 0; a < docs.length; a++)
      for (let b = a + 1; b < docs.length; b++) {
        const shared = [...docs[a]!].filter((t) => docs[b]!.has(t)).length;
        if (shared / Math.sqrt(docs[a]!.size * docs[b]!.size) >= 0.5) brute.push(`${a},${b}`);
      }
    const joined = similarPairs(docs, 0.5, 1).map((p) => `${p.a},${p.b}`);
    expect(brute.length).toBeGreaterThan(10);
    expect(joined.sort()).toEqual(brute.sort());
  });

  it('links a memory to its closest look-alikes of the same namespace only, up to the maximum', () => {
    const m = mem('Retry storage uploads with exponential backoff');
    const close = mem('Storage uploads need exponential backoff retries');
    const far = mem('CSS grid breaks in Safari');
    const other = mem('Retry storage uploads with exponential backoff', { namespace: 'decisions' });
    const linked = linkToSimilar(m, [close, far, other], 0.4, linkRef, 5);
    expect(linked.relatesTo).toEqual([linkRef(close)]);
    expect(linkToSimilar(m, [close], 0.4, linkRef, 0).relatesTo).toEqual([]);
  });

  it('holdsEveryWord is strict: every word, stemmed, and nothing merely alike', () => {
    expect(holdsEveryWord(mem('Shipped the importer'), 'importer')).toBe(true);
    expect(holdsEveryWord(mem('Shipped the exporter'), 'importer')).toBe(false);
    expect(holdsEveryWord(mem('Uploads retried', { body: 'storage' }), 'upload storage')).toBe(true);
    expect(holdsEveryWord(mem('Uploads retried'), 'upload storage')).toBe(false);
    // Identifiers as the index reads them: whole, and as their parts.
    const code = mem('Index created_at', { body: 'getUserById is slow' });
    for (const q of ['created_at', 'getUserById', 'user created']) expect(holdsEveryWord(code, q), q).toBe(true);
    expect(holdsEveryWord(code, 'updated_at')).toBe(false);
  });
});

describe('links', () => {
  it('a link names a memory by namespace and key prefix, or a full id', () => {
    const m = mem('x');
    expect(refersTo(linkRef(m), m)).toBe(true);
    expect(refersTo(`learnings:${OBJ.slice(0, 7)}:${m.key.slice(0, 10)}`, m)).toBe(true);
    expect(refersTo(m.key.slice(0, 6), m)).toBe(true);
    expect(refersTo(`decisions:${m.key}`, m)).toBe(false);
    expect(refersTo('not an id', m)).toBe(false);
  });

  it('resolves the links among memories to pairs, each once', () => {
    const a = mem('a');
    const b = mem('b', { relatesTo: [linkRef(a)] });
    const c = mem('c', { consolidates: [linkRef(a)], relatesTo: [linkRef(a)] });
    const d = mem('d', { relatesTo: ['learnings:ffffffffffffffff'] });
    expect(linkedPairs([a, b, c, d])).toEqual([[0, 1], [0, 2]]);
  });
});

describe('retire and withLinks', () => {
  it('archive with the link, add it to relates_to once, and keep the links already held', () => {
    const m = mem('x', { relatesTo: ['learnings:aaaa'] });
    const r = retire(m, { supersededBy: 'learnings:bbbb' }, '2026-05-01T00:00:00Z');
    expect(r).toMatchObject({ status: 'archived', supersededBy: 'learnings:bbbb', updated: '2026-05-01T00:00:00Z', relatesTo: ['learnings:aaaa', 'learnings:bbbb'] });
    expect(retire(r, { supersededBy: 'learnings:bbbb' }, r.updated).relatesTo).toEqual(r.relatesTo);
    expect(withLinks(m, ['learnings:aaaa', 'learnings:cccc', 'learnings:cccc']).relatesTo).toEqual(['learnings:aaaa', 'learnings:cccc']);
    expect(withLinks(m, ['learnings:aaaa'])).toBe(m);
  });
});

describe('hub groups', () => {
  it('a chain of look-alikes does not become one group: every member is joined to the hub', () => {
    // 0-1-2-3-4-5 in a chain, and 6 joined to 2, 3 and 7: 2 and 3 are hubs.
    const edges: Array<[number, number]> = [[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [2, 6], [3, 6], [6, 7]];
    const neighbours = Array.from({ length: 8 }, () => new Map<number, number>());
    for (const [a, b] of edges) {
      neighbours[a]!.set(b, 0.5);
      neighbours[b]!.set(a, 0.5);
    }
    const groups = hubGroups({ neighbours }, 3);
    for (const { hub, members } of groups) {
      expect(members).toContain(hub);
      for (const j of members) if (j !== hub) expect(neighbours[hub]!.has(j), `${hub}-${j}`).toBe(true);
    }
    const all = groups.flatMap((g) => g.members);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBeLessThan(8);
  });

  it('connects by stored link as well as by words, and forms no group below the minimum size', () => {
    const a = mem('Retry storage uploads with exponential backoff');
    const b = mem('Storage uploads need exponential backoff retries');
    const c = mem('Totally different words here', { relatesTo: [linkRef(a)] });
    const d = mem('CSS grid breaks in Safari');
    const graph = connectionGraph([a, b, c, d], 0.4);
    expect([...graph.neighbours[0]!.keys()].sort()).toEqual([1, 2]);
    expect(graph.neighbours[3]!.size).toBe(0);
    expect(hubGroups(graph, 3)).toEqual([{ hub: 0, members: [0, 1, 2] }]);
    expect(hubGroups(graph, 4)).toEqual([]);
  });
});

describe('extractive consolidation', () => {
  it('takes the summary of the hub, every original summary and the rationale lines, and the union of tags', () => {
    const a = mem('Retry storage uploads with exponential backoff', { body: 'Because the API throttles.\nSome detail.', tags: ['storage'] });
    const b = mem('Storage uploads need exponential backoff retries', { tags: ['retry'] });
    const c = mem('Exponential backoff avoids 503 errors', { body: '- Use jitter so that clients do not sync up', tags: ['storage'] });
    const draft = consolidateExtractive([c, a, b], a);
    expect(draft.summary).toBe(a.summary);
    expect(draft.central).toBe(a);
    for (const m of [a, b, c]) expect(draft.body).toContain(m.summary);
    expect(draft.body).toContain('Because the API throttles.');
    expect(draft.body).toContain('Use jitter so that clients do not sync up');
    expect(draft.body).not.toContain('Some detail.');
    expect(draft.tags.sort()).toEqual(['retry', 'storage']);
    // The same originals give the same key, in any order; other originals another.
    expect(draft.key).toBe(consolidateExtractive([b, c, a], b).key);
    expect(draft.key).not.toBe(consolidationKey([a, b]));
    expect(rationaleLines('x\n* instead of polling, we subscribe\n* instead of polling, we subscribe')).toEqual(['instead of polling, we subscribe']);
  });
});

describe('aging', () => {
  const rules = { cutoffMs: Date.parse('2026-03-01T00:00:00Z'), protectedNamespaces: new Set(['decisions']) };
  const old = (summary: string, over: Partial<Memory> = {}) => mem(summary, { created: '2026-01-01T00:00:00Z', ...over });

  it('judges only old, active, unprotected, isolated memories', () => {
    expect(agingVerdict(old('meh'), false, rules)).toBe('judge');
    expect(agingVerdict(old('meh', { namespace: 'decisions' }), false, rules)).toBe('protected-namespace');
    expect(agingVerdict(old('meh', { tags: ['Keep'] }), false, rules)).toBe('kept-tag');
    expect(agingVerdict(old('meh', { status: 'resolved' }), false, rules)).toBe('not-active');
    expect(agingVerdict(mem('meh', { created: '2026-04-01T00:00:00Z' }), false, rules)).toBe('young');
    expect(agingVerdict(old('meh', { reprieves: GC_REPRIEVES_MAX }), false, rules)).toBe('kept-for-good');
    expect(agingVerdict(old('meh'), true, rules)).toBe('connected');
    expect(agingVerdict(old('meh'), false, rules, RECALLED_MIN)).toBe('recalled');
    expect(agingVerdict(old('meh'), false, rules, RECALLED_MIN - 1)).toBe('judge');
    expect(agingVerdict(old('meh', { supersedes: ['learnings:aaaa'] }), false, rules)).toBe('connected');
  });

  it('substance: a reason, a code identifier or path, a link, or length', () => {
    expect(hasSubstance(mem('tests flaky today'))).toBe(false);
    expect(hasSubstance(mem('pin node', { body: 'because npm ci breaks' }))).toBe(true);
    expect(hasSubstance(mem('see parseNote'))).toBe(true);
    expect(hasSubstance(mem('check src/core/merge.ts'))).toBe(true);
    expect(hasSubstance(mem('max_retries too low'))).toBe(true);
    expect(hasSubstance(mem('see https://example.com/x'))).toBe(true);
    expect(hasSubstance(mem('word '.repeat(30)))).toBe(true);
  });
});

describe('retirements after a merge', () => {
  const original = mem('Retry uploads');
  const other = mem('Backoff on 503');
  const consolidated = mem('Retry uploads with backoff', { consolidates: [linkRef(original), linkRef(other)] });
  const lookupIn = (ms: Memory[]) => (ref: string) => ms.find((m) => refersTo(ref, m));

  it('archives again what a consolidation or a supersession names but came back without the link', () => {
    const edited = { ...original, body: 'Edited elsewhere.' }; // active, no link: edited by a clone that did not know
    const older = mem('Deploy with Heroku');
    const newer = mem('Deploy with Fly.io', { supersedes: [linkRef(older)] });
    const due = retirementsDue([consolidated, newer], lookupIn([edited, other, older]));
    expect(due.map((d) => d.memory.key).sort()).toEqual([edited.key, other.key, older.key].sort());
    expect(due.find((d) => d.memory.key === edited.key)).toMatchObject({ by: { consolidatedInto: linkRef(consolidated) }, memory: { body: 'Edited elsewhere.' } });
    expect(due.find((d) => d.memory.key === older.key)).toMatchObject({ by: { supersededBy: linkRef(newer) } });
  });

  it('leaves alone what carries the link: archived, or restored on purpose by someone who knew', () => {
    const archived = { ...original, status: 'archived' as const, consolidatedInto: linkRef(consolidated) };
    const restored = { ...other, status: 'active' as const, consolidatedInto: linkRef(consolidated) };
    expect(retirementsDue([consolidated], lookupIn([archived, restored]))).toEqual([]);
    // A link to a memory that is not here (forgotten, not pulled yet) changes nothing.
    expect(retirementsDue([consolidated], () => undefined)).toEqual([]);
  });
});

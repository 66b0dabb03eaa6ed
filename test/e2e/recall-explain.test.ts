import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTestModel } from '../helpers/tiny-model.mjs';
import { makeRepo, mem, memHook, memOk, sandbox } from './helpers.ts';

interface Match {
  word: string;
  kind: 'term' | 'prefix' | 'synonym' | 'related' | 'feedback' | 'phrase';
  general?: true;
  everyday?: true;
  terms: string[];
  fields: Record<string, { tf: number; part: number }>;
  idf: number;
  weight: number;
  score: number;
}
interface Explained {
  id: string;
  summary: string;
  score: number;
  explain: { matches: Match[]; bm25f: number; placement: { reach: string; weight: number }; score: number; floor: { share: number; min: number; kept: boolean } };
}

const explained = (repo: string, env: NodeJS.ProcessEnv, query: string[]) => JSON.parse(memOk(repo, env, ['recall', '--mode', 'lexical', '--explain', '--json', ...query])) as Explained[];

describe('git mem recall --explain', () => {
  it('says which words matched in which field, by synonym or feedback, the parts of the score and the floor', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'decisions', 'Chose sql.js for the local database', '-m', 'No native modules; canary builds ran on every platform.', '--tags', 'storage']);
    memOk(repo, box.env, ['capture', 'learnings', 'Deploy the db migrations before the app', '-m', 'A canary deploy caught the missing column.']);
    memOk(repo, box.env, ['capture', 'patterns', 'Rebuild the index when the schema changes']);
    for (let i = 0; i < 8; i++) memOk(repo, box.env, ['capture', 'progress', `Unrelated note number ${i} about the release calendar`]);

    const hits = explained(repo, box.env, ['db']);
    const sqljs = hits.find((h) => h.summary.startsWith('Chose sql.js'))!;
    expect(sqljs.explain.matches[0]).toEqual(expect.objectContaining({ word: 'db', kind: 'synonym', terms: ['databas'], weight: 0.8, fields: { summary: expect.objectContaining({ tf: 1 }) } }));
    const deploy = hits.find((h) => h.summary.startsWith('Deploy'))!;
    expect(deploy.explain.matches[0]).toMatchObject({ word: 'db', kind: 'term', fields: { summary: { tf: 1 } } });
    // The parts add up to the score recall ranked by (placement: on HEAD's history, weight 1).
    for (const h of hits) {
      expect(h.explain.matches.reduce((s, m) => s + m.score, 0)).toBeCloseTo(h.explain.bm25f, 3);
      expect(h.explain.placement).toEqual({ reach: 'head', weight: 1 });
      // (The hit's score and the explanation's are rounded to different digits: 2.4815 and 2.482.)
      expect(h.explain.score).toBeCloseTo(h.score, 2);
    }
    // Feedback: "canary", in the bodies of the two best hits, adds a little to both (weight 0.2, core/search/feedback.ts).
    for (const h of [sqljs, deploy]) expect(h.explain.matches[1]).toMatchObject({ word: 'canari', kind: 'feedback', weight: 0.2, fields: { body: { tf: 1 } } });

    // The floor: the hooks inject only hits at mem.hooks.relevanceFloor of the best or above.
    const schema = explained(repo, box.env, ['sql.js', 'index']);
    expect(schema[0]!.explain.floor.kept).toBe(true);
    const dropped = schema.filter((h) => !h.explain.floor.kept);
    expect(dropped.map((h) => h.summary)).toContain('Rebuild the index when the schema changes');
    for (const h of schema) expect(h.explain.floor.kept).toBe(h.score >= h.explain.floor.min);

    // As text: indented lines under each hit.
    const text = mem(repo, box.env, ['recall', '--mode', 'lexical', '--explain', 'db']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/\n {4}db → databas \(synonym\) ×0\.8: summary tf 1 \([\d.]+\); idf [\d.]+ = [\d.]+\n/);
    expect(text.stdout).toMatch(/\n {4}relevance floor 0\.\d+ × best = [\d.]+: (kept|dropped) by the hooks/);
    // What was known then (--at) is explained the same way.
    const then = JSON.parse(memOk(repo, box.env, ['recall', '--at', '2100-01-01', '--explain', '--json', 'db'])) as Explained[];
    expect(then.map((h) => h.explain.matches[0]!.kind).sort()).toEqual(['synonym', 'term']);
    // Hybrid: the ranks fused, and no floor (the hooks recall lexically).
    const model = path.join(box.root, 'model');
    writeTestModel(model);
    const hybrid = JSON.parse(memOk(repo, { ...box.env, GIT_MEM_MODEL_PATH: model }, ['recall', '--mode', 'hybrid', '--explain', '--json', 'db'])) as Array<Explained & { explain: { fused: { lexical: number | null; semantic: number | null } } }>;
    const fusedSqljs = hybrid.find((h) => h.summary.startsWith('Chose sql.js'))!;
    expect(fusedSqljs.explain.fused.lexical).toBeGreaterThanOrEqual(1);
    expect(fusedSqljs.explain.matches[0]).toMatchObject({ kind: 'synonym' });
    expect(hybrid.every((h) => h.explain.floor === undefined)).toBe(true);
    // Without --explain, nothing of it.
    expect(memOk(repo, box.env, ['recall', '--mode', 'lexical', '--json', 'db'])).not.toContain('"explain"');
  });

  it('under GIT_MEM_TRACE, the prompt hook says per hit whether it was injected or dropped by the floor, and why', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'decisions', 'Chose sql.js over better-sqlite3 for the search index', '-m', 'sql.js is WASM: no native build.']);
    memOk(repo, box.env, ['capture', 'patterns', 'Rebuild the index when the schema changes']);
    memOk(repo, box.env, ['capture', 'learnings', 'Webhook retries need idempotency keys']);
    const payload = { session_id: 'trace', transcript_path: path.join(repo, '..', 'missing.jsonl'), cwd: repo, hook_event_name: 'UserPromptSubmit', permission_mode: 'default', prompt: 'Remind me why did we pick sql.js for the index?' };
    const r = await memHook(repo, { ...box.env, GIT_MEM_TRACE: '1' }, 'UserPromptSubmit', payload);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith('git-mem trace: prompt recall'));
    expect(lines[0]).toMatch(/^git-mem trace: prompt recall "Remind me why did we pick sql\.js for the index\?": 2 hits$/);
    expect(lines.find((l) => l.includes('injected'))).toMatch(/decisions:\w+:\w+ injected: sql: summary tf 1 .*relevance floor 0\.\d+ × best = [\d.]+: kept by the hooks/);
    expect(lines.find((l) => l.includes('dropped'))).toMatch(/patterns:\w+:\w+ dropped by the relevance floor: index: summary tf 1 .*: dropped by the hooks/);
    // The reply is what it is without the trace.
    expect(r.stdout).toContain('Chose sql.js over better-sqlite3');
    expect(r.stdout).not.toContain('Rebuild the index');
  });

  it('reads a time in the query as a weight on memories created then, and says so', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const at = (date: string) => ({ ...box.env, GIT_MEM_NOW: date });
    // The older memory matches the words better (both in its summary); the newer was written last week.
    memOk(repo, at('2026-09-01T10:00:00Z'), ['capture', 'blockers', 'Flaky upload tests time out on CI', '-m', 'Raised the timeout.']);
    memOk(repo, at('2026-11-18T10:00:00Z'), ['capture', 'learnings', 'Upload retries need jitter', '-m', 'The flaky runs were retries in lockstep.']);
    for (let i = 0; i < 6; i++) memOk(repo, at('2026-08-01T10:00:00Z'), ['capture', 'progress', `Unrelated note ${i} about the release calendar`]);
    const now = at('2026-11-26T13:00:00Z');
    const plain = explained(repo, now, ['flaky', 'upload']);
    expect(plain[0]!.summary).toBe('Flaky upload tests time out on CI');
    const recent = explained(repo, now, ['flaky', 'upload', 'last', 'week']) as Array<Explained & { explain: { time: { asked: string; weight: number } } }>;
    expect(recent[0]!.summary).toBe('Upload retries need jitter');
    expect(recent[0]!.explain.time).toEqual({ asked: 'last week', weight: 1.5 });
    expect(recent[1]!.explain.time).toEqual({ asked: 'last week', weight: 1 });
    // "week" and "last" are not searched for: the scores are those of the words of the topic.
    expect(recent.flatMap((h) => h.explain.matches.map((m) => m.word))).not.toContain('week');
    // A time and no topic: the memories of that time, newest first.
    const week = explained(repo, now, ['what', 'happened', 'last', 'week']) as Array<Explained & { explain: { byTime: boolean } }>;
    expect(week.map((h) => h.summary)).toEqual(['Upload retries need jitter']);
    expect(week[0]!.explain).toMatchObject({ matches: [], byTime: true, time: { asked: 'last week', weight: 1.5 } });
    expect(memOk(repo, now, ['recall', '--mode', 'lexical', '--explain', 'since', 'August'])).toMatch(/created in the time asked about; the query names no topic/);
    // A date word that asks about no time changes nothing.
    expect(explained(repo, now, ['flaky', 'upload', 'weekly']).map((h) => h.id)).toEqual(plain.map((h) => h.id));
  });

  it('finds a memory by a related word below one that says the word, and says which', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    // "segfault" is among the words related to "crash" (core/search/related-words.ts, built from public commit messages).
    memOk(repo, box.env, ['capture', 'learnings', 'The importer segfaults on empty input files', '-m', 'Guarded the read of the first block.']);
    memOk(repo, box.env, ['capture', 'learnings', 'The importer crash on empty input files is fixed']);
    for (let i = 0; i < 6; i++) memOk(repo, box.env, ['capture', 'progress', `Unrelated note ${i} about the release calendar`]);
    const hits = explained(repo, box.env, ['crash']);
    expect(hits.map((h) => h.summary)).toEqual(['The importer crash on empty input files is fixed', 'The importer segfaults on empty input files']);
    const related = hits[1]!.explain.matches[0]!;
    expect(related).toMatchObject({ word: 'crash', kind: 'related', terms: ['segfault'], fields: { summary: { tf: 1 } } });
    expect(related.weight).toBeGreaterThan(0);
    expect(related.weight).toBeLessThan(0.8);
    // A neighbour in developer text, not a general synonym.
    expect(related.general).toBeUndefined();
    expect(hits[0]!.explain.matches[0]).toMatchObject({ word: 'crash', kind: 'term' });
    expect(memOk(repo, box.env, ['recall', '--mode', 'lexical', '--explain', 'crash'])).toMatch(/\n {4}crash → segfault \(related word\) ×0\.\d+: summary tf 1 /);
  });

  it('finds a memory by a general-English synonym (WordNet) at its fixed weight, and says it is one', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    // "move" is one of "relocate"'s WordNet synonyms in the related-words table, listed without a similarity.
    memOk(repo, box.env, ['capture', 'decisions', 'Move the build cache to the shared volume', '-m', 'The runners fill their own disks.']);
    memOk(repo, box.env, ['capture', 'decisions', 'Relocate the build cache to the shared volume']);
    for (let i = 0; i < 6; i++) memOk(repo, box.env, ['capture', 'progress', `Unrelated note ${i} about the release calendar`]);
    const hits = explained(repo, box.env, ['relocate']);
    expect(hits.map((h) => h.summary)).toEqual(['Relocate the build cache to the shared volume', 'Move the build cache to the shared volume']);
    expect(hits[0]!.explain.matches[0]).toMatchObject({ word: 'reloc', kind: 'term' });
    expect(hits[0]!.explain.matches[0]!.general).toBeUndefined();
    // RELATED_WEIGHT 1.5 × GENERAL_SIMILARITY 0.35 of the word's own.
    expect(hits[1]!.explain.matches[0]).toMatchObject({ word: 'reloc', kind: 'related', general: true, terms: ['move'], weight: 0.525, fields: { summary: { tf: 1 } } });
    // What it added is part of the sum (feedback words from the first hit add the rest).
    expect(hits[1]!.explain.matches.reduce((sum, m) => sum + m.score, 0)).toBeCloseTo(hits[1]!.explain.bm25f, 3);
    expect(memOk(repo, box.env, ['recall', '--mode', 'lexical', '--explain', 'relocate'])).toMatch(/\n {4}reloc → move \(general synonym\) ×0\.525: summary tf 1 /);
  });

  it('finds a memory by an everyday neighbour (GloVe) at its weight × cosine, and says it is one', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    // "denied" is among "refuses"' everyday neighbours (core/search/everyday-words.ts), not its related words.
    memOk(repo, box.env, ['capture', 'blockers', 'The scanner crashes when camera permission is denied']);
    memOk(repo, box.env, ['capture', 'blockers', 'The scanner crashes when the user refuses camera permission']);
    for (let i = 0; i < 6; i++) memOk(repo, box.env, ['capture', 'progress', `Unrelated note ${i} about the release calendar`]);
    const hits = explained(repo, box.env, ['refuses']);
    expect(hits.map((h) => h.summary)).toEqual(['The scanner crashes when the user refuses camera permission', 'The scanner crashes when camera permission is denied']);
    expect(hits[0]!.explain.matches[0]).toMatchObject({ word: 'refus', kind: 'term' });
    const everyday = hits[1]!.explain.matches[0]!;
    expect(everyday).toMatchObject({ word: 'refus', kind: 'related', everyday: true, terms: ['deni'], fields: { summary: { tf: 1 } } });
    expect(everyday.general).toBeUndefined();
    // EVERYDAY_WEIGHT 0.5 × a cosine of 0.65 or more.
    expect(everyday.weight).toBeGreaterThanOrEqual(0.325);
    expect(everyday.weight).toBeLessThanOrEqual(0.5);
    expect(hits[1]!.explain.matches.reduce((sum, m) => sum + m.score, 0)).toBeCloseTo(hits[1]!.explain.bm25f, 3);
    expect(memOk(repo, box.env, ['recall', '--mode', 'lexical', '--explain', 'refuses'])).toMatch(/\n {4}refus → deni \(everyday neighbour\) ×0\.\d+: summary tf 1 /);
  });

  it('ranks a memory holding a quoted phrase above one holding its words apart, and says why', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    memOk(repo, box.env, ['capture', 'learnings', 'Connection drops when the worker pool restarts', '-m', 'The pool closes every connection it holds on restart.']);
    memOk(repo, box.env, [
      'capture',
      'decisions',
      'Raise the connection pool size to 50',
      '-m',
      'Under load the API waited on the database; the pool was the limit and the database had room for more clients, so the size went from 20 to 50.',
    ]);
    for (let i = 0; i < 6; i++) memOk(repo, box.env, ['capture', 'progress', `Unrelated note ${i} about the release calendar`]);
    // Unquoted, the words' scores decide: the memory saying both twice comes first.
    expect(explained(repo, box.env, ['connection', 'pool']).map((h) => h.summary)).toEqual(['Connection drops when the worker pool restarts', 'Raise the connection pool size to 50']);
    const hits = explained(repo, box.env, ['"connection pool"']);
    expect(hits.map((h) => h.summary)).toEqual(['Raise the connection pool size to 50', 'Connection drops when the worker pool restarts']);
    const phrase = hits[0]!.explain.matches.find((m) => m.kind === 'phrase');
    // What it adds is the best words-only score (the other memory's), so the sum is still the score.
    expect(phrase).toMatchObject({ word: 'connection pool', kind: 'phrase', fields: { summary: { tf: 1 } } });
    expect(phrase!.score).toBeCloseTo(hits[1]!.explain.bm25f, 3);
    expect(hits[0]!.explain.matches.reduce((sum, m) => sum + m.score, 0)).toBeCloseTo(hits[0]!.explain.bm25f, 3);
    expect(hits[1]!.explain.matches.some((m) => m.kind === 'phrase')).toBe(false);
    expect(memOk(repo, box.env, ['recall', '--mode', 'lexical', '--explain', '"connection pool"'])).toMatch(/\n {4}"connection pool" \(phrase\): summary 1 = \d/);
  });
});

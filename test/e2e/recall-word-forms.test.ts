/** Issue 35, second round: word forms, compounds and names, through the binary. */
import { describe, expect, it } from 'vitest';
import { makeRepo, memOk, sandbox } from './helpers.ts';

describe('recall across word forms', () => {
  it('finds a memory by another spelling, an irregular form, a compound written apart, and weighs a name', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const capture = (ns: string, summary: string, ...rest: string[]) => memOk(repo, box.env, ['capture', ns, summary, ...rest]).split(/\s+/)[0]!;
    const normalised = capture('decisions', 'Emails are normalised before lookup');
    const built = capture('progress', 'The docs site built from scratch nightly');
    const nora = capture('progress', 'Nora: spring trip to Lisbon');
    for (let i = 0; i < 2; i++) capture('progress', `Nora: lunch plans for day ${i}`);
    capture('progress', 'Tom: travel budget for spring');
    // Shorter and newer memories sharing words with the queries: without the word forms, they rank first.
    capture('decisions', 'Emails are queued');
    capture('progress', 'The docs site moved');
    const lockfile = capture('learnings', 'CI fails with an outdated lockfile');
    const hits = (query: string) => JSON.parse(memOk(repo, box.env, ['recall', '--mode', 'lexical', '--json', '--explain', query])) as Array<{ id: string; explain?: unknown }>;
    const first = (query: string) => hits(query)[0]?.id;

    // British and American spellings meet: normalized finds normalised.
    expect(first('emails normalized')).toBe(normalised);
    // An irregular past form meets its base word: build finds built.
    expect(first('docs site build')).toBe(built);
    // A capitalised name weighs more than a rarer word another memory shares with the query.
    expect(first('where did Nora travel in spring')).toBe(nora);
    // "lock file" is also searched as lockfile, a word of the query matched as such (not a related word).
    const [hit] = hits('lock file');
    expect(hit?.id).toBe(lockfile);
    expect(JSON.stringify(hit?.explain)).toMatch(/"word":"lockfil","kind":"term"/);
  });
});

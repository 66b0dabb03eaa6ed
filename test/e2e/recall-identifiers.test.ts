/** Issue 38: an identifier typed whole finds the memory that holds it before those that only say its parts. */
import { describe, expect, it } from 'vitest';
import { makeRepo, memOk, sandbox } from './helpers.ts';

describe('recall of an identifier', () => {
  it('ranks the memory holding the exact identifier above one that only holds its split parts', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const capture = (ns: string, summary: string, ...rest: string[]) => memOk(repo, box.env, ['capture', ns, summary, ...rest]).split(/\s+/)[0]!;
    const exact = capture(
      'decisions',
      'Pre-bundle dependencies by default',
      '-m',
      'Breaking change: the option optimizeDeps.commonJSWhitelist was removed. Dependencies written for Node are now pre-bundled by default, so most projects need no config for them at all any more.',
    );
    // Every part, in the summary, the tags and the body: more words of the query, none of them the identifier.
    const parts = capture('progress', 'Extract common tests for the js whitelist', '-m', 'The common js whitelist tests now live in one file.', '--tags', 'common,js,whitelist');
    for (let i = 0; i < 8; i++) capture('learnings', `Build step ${i} runs the bundler`, '-m', `Step ${i} of the js build.`);
    const hits = JSON.parse(memOk(repo, box.env, ['recall', '--mode', 'lexical', '--json', 'commonJSWhitelist'])) as Array<{ id: string }>;
    expect(hits.map((h) => h.id).slice(0, 2)).toEqual([exact, parts]);
  });
});

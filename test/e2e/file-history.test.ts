/**
 * Issue 38: a file's context comes from its own history, bounded by count and not by the wall
 * clock, with the memories on its commits ahead of memories that only share a directory's word.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, memHook as hook, memOk } from './helpers.ts';
import { context, payload, pythonProject, summaries } from './python-project.ts';

/** A note as older tools and imports wrote them: no recorded paths, so the commit's files are its scope. */
function note(id: string, ns: string, summary: string): string {
  return ['---', `id: ${id.padEnd(32, '0')}`, `type: ${ns}`, 'timestamp: 2023-03-01T10:00:00Z', `summary: ${summary}`, '---', '', summary, ''].join('\n');
}

describe('File context from the file\'s history', () => {
  it('gives a file untouched for years the memories of the commits that touched it, ahead of path-word matches', async () => {
    const { box, repo, write, commit } = pythonProject();
    // Two and three years ago: outside any window counted back from today.
    const at = (date: string) => ({ ...box.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
    const commitAt = (message: string, date: string) => {
      git(repo, at(date), ['add', '.']);
      git(repo, at(date), ['commit', '-qm', message]);
      return git(repo, box.env, ['rev-parse', 'HEAD']).trim();
    };
    write('src/node/typeUtils.ts', 'export type Maybe<T> = T | undefined\n');
    const small = commitAt('Add type helpers', '2022-06-01T10:00:00Z');
    for (let i = 0; i < 6; i++) write(`src/node/m${i}.ts`, `export const m${i} = ${i}\n`);
    write('src/node/typeUtils.ts', 'export type Maybe<T> = T | null | undefined\n');
    const big = commitAt('Reformat everything', '2023-06-01T10:00:00Z');
    const add = (commitId: string, id: string, ns: string, summary: string) => git(repo, box.env, ['notes', `--ref=refs/notes/mem/${ns}`, 'add', '-f', '-m', note(id, ns, summary), commitId]);
    add(small, 'a1', 'decisions', 'Keep the helpers free of runtime imports');
    add(big, 'b2', 'patterns', 'Formatting is done by the formatter alone');
    // Recent work elsewhere whose words match the file's directories, or its name's words apart.
    for (const [i, summary] of ['Update the node resolve plugin', 'Bump node to 22 in the node test matrix', 'Types from the utils package are re-exported'].entries()) {
      write(`lib/other${i}.js`, `${i}\n`);
      commit(`Other work ${i}`);
      memOk(repo, box.env, ['capture', 'learnings', summary]);
    }
    const file = path.join(repo, 'src/node/typeUtils.ts');
    const read = async (n: number) => summaries(context(await hook(repo, box.env, 'PreToolUse', payload(repo, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: file }, tool_use_id: `toolu_${n}` }))));
    const first = await read(1);
    expect(first).toEqual(['Keep the helpers free of runtime imports']);
    // The big commit's memory is weaker (a commit of seven files says little about this one); offered next, never a path-word match.
    expect(await read(2)).toEqual(['Formatting is done by the formatter alone']);
    expect(await read(3)).toEqual([]);
  });

  it('at an older checkout, offers the memories of the file\'s commits up to it, not those of later changes', async () => {
    const { box, repo, write } = pythonProject();
    // A day apart: commit time stands for ancestry (services/history/file-history.ts).
    const commit = (message: string, date: string) => {
      const env = { ...box.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
      git(repo, env, ['add', '.']);
      git(repo, env, ['commit', '-qm', message]);
    };
    write('src/css.py', 'A = 1\n');
    commit('Add css', '2026-01-01T10:00:00Z');
    memOk(repo, box.env, ['capture', 'decisions', 'Inline small stylesheets']);
    git(repo, box.env, ['tag', 'v1']);
    write('src/css.py', 'A = 2\n');
    commit('Change css', '2026-01-02T10:00:00Z');
    memOk(repo, box.env, ['capture', 'decisions', 'Minify the style tag']);
    const file = path.join(repo, 'src/css.py');
    const read = async (session: string) =>
      summaries(context(await hook(repo, box.env, 'PreToolUse', { ...payload(repo, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: file }, tool_use_id: `toolu_${session}` }), session_id: session })));
    expect((await read('at-head')).sort()).toEqual(['Inline small stylesheets', 'Minify the style tag']);
    git(repo, box.env, ['checkout', '-q', 'v1']);
    expect(await read('at-v1')).toEqual(['Inline small stylesheets']);
  });

  it('finds the commits of files whose names quote, escape or contain another\'s (the cache is searched as bytes)', async () => {
    const { box, repo, write } = pythonProject();
    const names = ['src/a"b.py', 'src/é.py', 'src/x\\y.py', 'src/"c.py"', 'src/c.py', 'lib/src/c.py', 'src/[1,"d"].py', 'src/tab\there.py'];
    for (const [i, name] of names.entries()) {
      write(name, `A = ${i}\n`);
      const date = `2024-0${(i % 9) + 1}-01T10:00:00Z`;
      const env = { ...box.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
      git(repo, env, ['add', '.']);
      git(repo, env, ['commit', '-qm', `Add file ${i}`]);
      memOk(repo, box.env, ['capture', 'decisions', `Rule number ${i} for its file`]);
    }
    for (const [i, name] of names.entries()) {
      const file = path.join(repo, name);
      const got = summaries(context(await hook(repo, box.env, 'PreToolUse', { ...payload(repo, 'PreToolUse', { tool_name: 'Read', tool_input: { file_path: file }, tool_use_id: `toolu_${i}` }), session_id: `s${i}` })));
      expect(got[0], name).toBe(`Rule number ${i} for its file`);
    }
  });
});

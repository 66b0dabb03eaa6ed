// Appending to a large note (issue 36): an import without commits leaves thousands of memories in
// HEAD's note, and a capture into it appends its document to the note's text without rewriting
// it. Only the documents the index has not seen are read, for the links and the duplicate check.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

const N = 2000;
const REF = 'refs/notes/mem/learnings';

function bigNote() {
  const box = sandbox();
  const env = { ...box.env, GIT_MEM_RECALL_MODE: 'lexical' };
  const repo = makeRepo(box);
  const lines = Array.from({ length: N }, (_, i) => JSON.stringify({ namespace: 'learnings', summary: `Imported learning ${i} about subject ${i % 97}`, body: `Detail ${i} of area ${i % 31}.`, created: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString() }));
  const file = path.join(box.root, 'import.jsonl');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  memOk(repo, env, ['import', file]);
  return { box, env, repo, file, lines };
}

const noteText = (repo: string, env: NodeJS.ProcessEnv) => git(repo, env, ['notes', '--ref', REF, 'show', 'HEAD']);
const ids = (text: string) => text.match(/^id: /gm)?.length ?? 0;
const relates = (repo: string, env: NodeJS.ProcessEnv, id: string) => JSON.parse(memOk(repo, env, ['show', id, '--json'])).relates_to as string[];

describe('a capture into a note of many memories', () => {
  it('appends its document and leaves the note text before it byte for byte; every memory is kept', () => {
    const { env, repo } = bigNote();
    const before = noteText(repo, env);
    expect(ids(before)).toBe(N);
    const id = memOk(repo, env, ['capture', 'learnings', 'Retry storage uploads with exponential backoff on 503']);
    const after = noteText(repo, env);
    expect(after.startsWith(before.trimEnd() + '\n\n')).toBe(true);
    expect(ids(after)).toBe(N + 1);
    expect(after).toContain('summary: Retry storage uploads with exponential backoff on 503');
    const stats = JSON.parse(memOk(repo, env, ['stats', '--json']));
    expect(stats.namespaces.find((n: { name: string }) => n.name === 'learnings').total).toBe(N + 1);
    expect(memOk(repo, env, ['show', id])).toContain('exponential backoff');
  });

  it('links by words to the memories of the note, those the index has seen and those written since', () => {
    const { env, repo } = bigNote();
    // Indexed: found by the index search.
    const seen = memOk(repo, env, ['capture', 'learnings', 'Storage uploads need exponential backoff retries', '-m', 'The storage API answers 503 when it throttles.']);
    memOk(repo, env, ['recall', 'storage']);
    // Written by another tool after the index caught up: only the note holds it.
    const key = 'abcdef0123456789';
    git(repo, env, ['notes', '--ref', REF, 'append', '-m', `---\nid: ${key}\ntype: learnings\ntimestamp: 2026-01-02T00:00:00Z\nsummary: Exponential backoff for storage uploads avoids 503 errors\n---`, 'HEAD']);
    const id = memOk(repo, env, ['capture', 'learnings', 'Retry storage uploads with exponential backoff on 503', '-m', 'Because the storage API throttles bursts.']);
    const links = relates(repo, env, id).map((r) => r.split(':')[1]);
    expect(links).toContain(key);
    expect(links.some((k) => k?.startsWith(seen.split(':')[2]!))).toBe(true);
    expect(links.length).toBeLessThanOrEqual(5);
  });

  it('an import of the same memories again adds only the new one', () => {
    const { box, env, repo, file, lines } = bigNote();
    const again = path.join(box.root, 'again.jsonl');
    fs.writeFileSync(again, [...lines.slice(N - 10), JSON.stringify({ namespace: 'learnings', summary: 'One more learning', body: 'Only this is new.' }), fs.readFileSync(file, 'utf8').split('\n')[5]].join('\n') + '\n');
    const r = JSON.parse(memOk(repo, env, ['import', again, '--json']));
    expect(r).toMatchObject({ imported: 1, unchanged: 11 });
    expect(ids(noteText(repo, env))).toBe(N + 1);
  });

  it('a note with CRLF line ends or odd spacing still gains the memory and keeps the others', () => {
    const box = sandbox();
    const env = { ...box.env, GIT_MEM_RECALL_MODE: 'lexical' };
    const repo = makeRepo(box);
    const docs = ['---\r\nid: 1111111111111111\r\ntype: learnings\r\nsummary: first\r\n---\r\n\r\nbody one', '---\r\nid: 2222222222222222\r\ntype: learnings\r\nsummary: second\r\n---'];
    const note = path.join(box.root, 'note.txt');
    fs.writeFileSync(note, `\n\n${docs.join('\r\n\r\n\r\n')}\r\n\r\n`);
    git(repo, env, ['notes', '--ref', REF, 'add', '-F', note, 'HEAD']);
    const r = mem(repo, env, ['capture', 'learnings', 'third']);
    expect(r.code).toBe(0);
    const list = JSON.parse(memOk(repo, env, ['list', '--json'])).map((m: { summary: string }) => m.summary).sort();
    expect(list).toEqual(['first', 'second', 'third']);
  });
});

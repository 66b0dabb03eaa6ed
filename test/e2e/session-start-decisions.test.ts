/** Issue 38: SessionStart's decisions are what the README says: the active ones, newest first, whatever their age. */
import { describe, expect, it } from 'vitest';
import { git, memHook as hook, memOk } from './helpers.ts';
import { context, payload, pythonProject, summaries } from './python-project.ts';

function decision(id: string, timestamp: string, summary: string): string {
  return ['---', `id: ${id.padEnd(32, '0')}`, 'type: decisions', `timestamp: ${timestamp}`, `summary: ${summary}`, '---', '', summary, ''].join('\n');
}

describe('SessionStart decisions', () => {
  it('lists active decisions newest first, a five-month-old one too, under Active Decisions with their dates', async () => {
    const { box, repo, write, commit } = pythonProject();
    write('app.py', 'print(1)\n');
    commit('Start');
    const day = 86400 * 1000;
    const old = new Date(Date.now() - 150 * day).toISOString().replace(/\.\d+Z$/, 'Z');
    git(repo, box.env, ['notes', '--ref=refs/notes/mem/decisions', 'add', '-f', '-m', decision('d1', old, 'Use SQLite for the local cache'), 'HEAD']);
    memOk(repo, box.env, ['capture', 'decisions', 'Deploy from the main branch only']);
    const text = context(await hook(repo, box.env, 'SessionStart', payload(repo, 'SessionStart', { source: 'startup' })));
    const section = /<decisions title="([^"]+)">([\s\S]*?)<\/decisions>/.exec(text);
    expect(section?.[1]).toBe('Active Decisions');
    expect(summaries(section?.[2] ?? '')).toEqual(['Deploy from the main branch only', 'Use SQLite for the local cache']);
    expect(section?.[2]).toContain(`date="${old.slice(0, 10)}"`);
  });
});

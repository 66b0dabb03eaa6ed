import { describe, expect, it } from 'vitest';
import { BUILTIN_NAMESPACES, NAMESPACE_NAME, NOTES_REF_PREFIX, notesRef, resolveNamespaces } from '../../src/core/namespaces.ts';

const BUILTIN = ['inception', 'elicitation', 'research', 'decisions', 'progress', 'blockers', 'reviews', 'learnings', 'retrospective', 'patterns'];

describe('built-in namespaces', () => {
  it('are the ten of the earlier system, in its order, each described', () => {
    expect(BUILTIN_NAMESPACES.map((n) => n.name)).toEqual(BUILTIN);
    for (const n of BUILTIN_NAMESPACES) expect(n.description.trim().length).toBeGreaterThan(0);
  });

  it('all satisfy the name rule', () => {
    for (const name of BUILTIN) expect(NAMESPACE_NAME.test(name)).toBe(true);
  });
});

describe('notesRef', () => {
  it('is refs/notes/mem/<namespace>', () => {
    expect(NOTES_REF_PREFIX).toBe('refs/notes/mem/');
    expect(notesRef('decisions')).toBe('refs/notes/mem/decisions');
    expect(notesRef('my-ns')).toBe('refs/notes/mem/my-ns');
  });
});

describe('resolveNamespaces', () => {
  it('gives the built-ins, marked builtin, with no extras', () => {
    const { namespaces, invalid } = resolveNamespaces([]);
    expect(namespaces.map((n) => n.name)).toEqual(BUILTIN);
    expect(namespaces.every((n) => n.builtin)).toBe(true);
    expect(invalid).toEqual([]);
  });

  it('appends valid extras once, after the built-ins, not builtin', () => {
    const { namespaces, invalid } = resolveNamespaces(['todo', 'api-notes2', 'todo', 'decisions']);
    expect(namespaces.map((n) => n.name)).toEqual([...BUILTIN, 'todo', 'api-notes2']);
    expect(namespaces.slice(-2).map((n) => n.builtin)).toEqual([false, false]);
    expect(namespaces.filter((n) => n.name === 'decisions')).toEqual([{ ...BUILTIN_NAMESPACES[3], builtin: true }]);
    expect(invalid).toEqual([]);
  });

  it('reports invalid names and does not use them', () => {
    const bad = ['Todo', '1abc', 'a_b', '', 'has space', '-lead', 'a/b', 'ns:x', 'über'];
    const { namespaces, invalid } = resolveNamespaces([...bad, 'ok']);
    expect(invalid).toEqual(bad);
    expect(namespaces.map((n) => n.name)).toEqual([...BUILTIN, 'ok']);
  });

  it('does not let callers mutate the built-in list', () => {
    const first = resolveNamespaces([]).namespaces;
    first[0]!.description = 'changed';
    expect(BUILTIN_NAMESPACES[0]!.description).not.toBe('changed');
    expect(resolveNamespaces([]).namespaces[0]!.description).not.toBe('changed');
  });
});

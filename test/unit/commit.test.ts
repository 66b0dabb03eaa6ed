import { describe, expect, it } from 'vitest';
import { parseCommit, parseSignature } from '../../src/core/commit.ts';

describe('parseSignature', () => {
  it('keeps the signer offset in the ISO date', () => {
    expect(parseSignature('Ada Lovelace <ada@example.com> 1700000000 +0200')).toEqual({ name: 'Ada Lovelace', email: 'ada@example.com', date: '2023-11-15T00:13:20+02:00' });
    expect(parseSignature('B <b@x> 1700000000 -0530')?.date).toBe('2023-11-14T16:43:20-05:30');
    expect(parseSignature('garbage')).toBeNull();
  });
});

describe('parseCommit', () => {
  it('reads tree, parents, author and the subject as git %s does', () => {
    const text = [
      'tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904',
      'parent 1111111111111111111111111111111111111111',
      'parent 2222222222222222222222222222222222222222',
      'author A U Thor <a@example.com> 1700000000 +0000',
      'committer C O Mitter <c@example.com> 1700000100 +0000',
      'gpgsig -----BEGIN PGP SIGNATURE-----',
      ' ',
      ' abc',
      ' -----END PGP SIGNATURE-----',
      '',
      'Merge branch one',
      'into main',
      '',
      'Body text.',
      '',
    ].join('\n');
    const c = parseCommit(text);
    expect(c.tree).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
    expect(c.parents).toEqual(['1111111111111111111111111111111111111111', '2222222222222222222222222222222222222222']);
    expect(c.author).toEqual({ name: 'A U Thor', email: 'a@example.com', date: '2023-11-14T22:13:20+00:00' });
    expect(c.committer?.name).toBe('C O Mitter');
    expect(c.subject).toBe('Merge branch one into main');
  });

  it('copes with a commit without a message', () => {
    const c = parseCommit('tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904\nauthor A <a@x> 1 +0000\ncommitter A <a@x> 1 +0000\n');
    expect(c.parents).toEqual([]);
    expect(c.subject).toBe('');
  });
});

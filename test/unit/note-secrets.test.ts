import { describe, expect, it } from 'vitest';
import { docDigest, noteSecrets, secretLines } from '../../src/core/redact/note-secrets.ts';
import { allowDigest } from '../../src/core/redact/redact.ts';
import { prePushRefs } from '../../src/services/note-secrets.ts';

// Built from pieces, so that no scanner finds a secret in this file.
const KEY = 'AKIA' + 'Q3VZ7K2MWD5TRX4N';
const OBJECT = 'a'.repeat(40);
const doc = (id: string | null, summary: string, body: string) => `---\n${id ? `id: "${id}"\n` : ''}type: decision\nsummary: ${summary}\n---\n\n${body}\n`;

describe('noteSecrets', () => {
  it('names each document of a note that holds a secret, by its id, with the kinds found', () => {
    const text = [doc('1111222233334444', 'Clean', 'Nothing.'), doc('5555666677778888', 'Creds', `key ${KEY} and https://${'deploy:'}${'Hunter2-Zq9xWv7'}@git.example.com/x`)].join('\n');
    const found = noteSecrets(text, 'decisions', OBJECT, 'b'.repeat(40));
    expect(found).toEqual([
      { namespace: 'decisions', object: OBJECT, id: `decisions:aaaaaaa:5555666677`, memory: true, types: ['aws_access_key', 'url_credentials'], blob: 'b'.repeat(40), doc: expect.any(String) },
    ]);
    expect(found[0]!.doc).not.toContain(KEY);
  });

  it('a document with no id gets its derived one; text with no front matter is named by its note', () => {
    const [derived] = noteSecrets(doc(null, 'Creds', `key ${KEY}`), 'decisions', OBJECT, 'b');
    expect(derived!.id).toMatch(/^decisions:aaaaaaa:[0-9a-f]{10}$/);
    const [plain] = noteSecrets(`just a note: ${KEY}\n`, 'decisions', OBJECT, 'b');
    expect(plain).toMatchObject({ id: 'decisions:aaaaaaa', memory: false, types: ['aws_access_key'] });
  });

  it('redaction markers, documented examples and allowed values are no secrets', () => {
    expect(noteSecrets(doc('1111222233334444', 'x', 'key [REDACTED:aws_access_key] and AKIAIOSFODNN7EXAMPLE'), 'decisions', OBJECT, 'b')).toEqual([]);
    expect(noteSecrets(doc('1111222233334444', 'x', `key ${KEY}`), 'decisions', OBJECT, 'b', [allowDigest(KEY)])).toEqual([]);
  });

  it('secretLines says which findings are only in history', () => {
    const [f] = noteSecrets(doc('1111222233334444', 'x', `key ${KEY}`), 'decisions', OBJECT, 'b');
    expect(secretLines([f!], new Set(['b']))).toEqual(['  decisions:aaaaaaa:1111222233  aws_access_key']);
    expect(secretLines([f!, f!], new Set())).toEqual(['  decisions:aaaaaaa:1111222233  aws_access_key (no longer in the notes, only in a notes commit not yet pushed)']);
    expect(f!.doc).toBe(docDigest(doc('1111222233334444', 'x', `key ${KEY}`)));
  });
});

describe('prePushRefs', () => {
  const sha = (c: string) => c.repeat(40);
  it('keeps the lines that push a refs/notes/mem ref, not deletions nor other refs', () => {
    const input = [
      `refs/heads/main ${sha('1')} refs/heads/main ${sha('2')}`,
      `refs/notes/mem/decisions ${sha('3')} refs/notes/mem/decisions ${sha('0')}`,
      `refs/notes/mem/progress ${sha('0')} refs/notes/mem/progress ${sha('4')}`,
      `refs/notes/mem/gotchas ${sha('5')} refs/notes/mem/gotchas ${sha('6')}`,
      '',
    ].join('\n');
    expect(prePushRefs(input)).toEqual([
      { namespace: 'decisions', local: sha('3'), remote: null },
      { namespace: 'gotchas', local: sha('5'), remote: sha('6') },
    ]);
    expect(prePushRefs('')).toEqual([]);
  });
});

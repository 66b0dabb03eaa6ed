import { describe, expect, it } from 'vitest';
import { redactIdent } from '../../src/core/ident.ts';

const upper = (t: string) => t.toUpperCase();

describe('redactIdent', () => {
  it('cleans the name and the email, keeping the time', () => {
    expect(redactIdent('Ada Lovelace <ada@example.com> 1700000000 +0100', upper)).toBe('ADA LOVELACE <ADA@EXAMPLE.COM> 1700000000 +0100');
  });

  it('never lets a cleaned text break the header', () => {
    expect(redactIdent('a <b> 1 +0000', () => 'x<y>\nz')).toBe('xyz <xyz> 1 +0000');
  });

  it('keeps an empty name, and an ident of another shape as it is', () => {
    expect(redactIdent('<a@b> 1 -0500', upper)).toBe('<A@B> 1 -0500');
    expect(redactIdent('not an ident', upper)).toBe('not an ident');
  });
});

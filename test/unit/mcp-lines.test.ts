import { describe, expect, it } from 'vitest';
import { LineSplitter, OVERSIZED } from '../../src/mcp/lines.ts';

const b = (s: string) => Buffer.from(s);

describe('LineSplitter', () => {
  it('joins lines across chunks, and a character split between them', () => {
    const s = new LineSplitter(100);
    const euro = b('€');
    expect(s.push(b('{"a":'))).toEqual([]);
    expect(s.push(Buffer.concat([b('"'), euro.subarray(0, 1)]))).toEqual([]);
    expect(s.push(Buffer.concat([euro.subarray(1), b('"}\n{}\n{"b"')]))).toEqual(['{"a":"€"}', '{}']);
    expect(s.end()).toBe('{"b"');
  });

  it('reports a line over the cap once, as it passes it, drops it, and reads the next', () => {
    const s = new LineSplitter(10);
    expect(s.push(b('x'.repeat(8)))).toEqual([]);
    expect(s.push(b('x'.repeat(8)))).toEqual([OVERSIZED]);
    expect(s.push(b('x'.repeat(1000)))).toEqual([]);
    expect(s.push(b('xx\n{"ok":1}\n'))).toEqual(['{"ok":1}']);
    expect(s.push(b(`${'y'.repeat(11)}\n`))).toEqual([OVERSIZED]);
    expect(s.push(b('z'.repeat(20)))).toEqual([OVERSIZED]);
    expect(s.end()).toBeNull();
  });

  it('takes a line of exactly the cap', () => {
    expect(new LineSplitter(4).push(b('abcd\n'))).toEqual(['abcd']);
  });
});

import { describe, expect, it } from 'vitest';
import { packFrequencies } from '../../src/core/search/bm25f.ts';
import { appendPostings, decodePostings, encodePostings, lastDocument } from '../../src/stores/index/terms/codec.ts';

describe('postings codec', () => {
  let r = 11;
  const next = (n: number) => (r = (r * 1103515245 + 12345) % 2147483648) % n;

  /** Lists of ascending documents with frequencies small (most) and large (a few, and the maxima). */
  function lists(terms: number): { pairs: Uint32Array; offsets: Uint32Array } {
    const pairs: number[] = [];
    const offsets = [0];
    for (let t = 0; t < terms; t++) {
      let doc = next(3) === 0 ? 4_000_000_000 : next(50);
      const count = next(40);
      for (let i = 0; i < count && doc <= 0xffffffff; i++) {
        const big = next(10) === 0;
        pairs.push(doc, packFrequencies(big ? next(300) : next(3), big ? next(300) : next(2), big ? 65535 : next(9)));
        doc += 1 + (next(5) === 0 ? next(100_000) : next(4));
      }
      offsets.push(pairs.length / 2);
    }
    return { pairs: Uint32Array.from(pairs), offsets: Uint32Array.from(offsets) };
  }

  it('reads each list\'s last document without decoding it, and appends pairs as the whole list encoded would hold them', () => {
    const { pairs, offsets } = lists(300);
    const { bytes, byteOffsets } = encodePostings(pairs, offsets);
    for (let t = 0; t < 300; t++) {
      const count = offsets[t + 1]! - offsets[t]!;
      const list = bytes.subarray(byteOffsets[t]!, byteOffsets[t + 1]!);
      expect(lastDocument(list, count)).toBe(count ? pairs[2 * offsets[t + 1]! - 2]! : -1);
      // Cut short: no document.
      if (list.length) expect(lastDocument(list.subarray(0, list.length - 1), count)).toBeNaN();
      // The list split anywhere: its head encoded, the rest appended after the head's last document.
      const cut = offsets[t]! + Math.floor(count / 2);
      const head = encodePostings(pairs.subarray(2 * offsets[t]!, 2 * cut), Uint32Array.from([0, cut - offsets[t]!]));
      const out: number[] = [];
      appendPostings(pairs.subarray(2 * cut, 2 * offsets[t + 1]!), cut > offsets[t]! ? pairs[2 * cut - 2]! : -1, out);
      expect(Buffer.concat([head.bytes, Uint8Array.from(out)]).equals(Buffer.from(list))).toBe(true);
    }
  });

  it('decodes every list as it was, in about a quarter of the bytes', () => {
    const { pairs, offsets } = lists(300);
    const { bytes, byteOffsets } = encodePostings(pairs, offsets);
    for (let t = 0; t < 300; t++) {
      const count = offsets[t + 1]! - offsets[t]!;
      const out = new Uint32Array(2 * count);
      expect(decodePostings(bytes.subarray(byteOffsets[t]!, byteOffsets[t + 1]!), count, out)).toBe(count);
      expect([...out]).toEqual([...pairs.subarray(2 * offsets[t]!, 2 * offsets[t + 1]!)]);
    }
    // Small frequencies and gaps, as most are: two bytes a pair instead of eight.
    const small = encodePostings(Uint32Array.from([0, packFrequencies(1, 0, 2), 3, packFrequencies(0, 1, 1)]), Uint32Array.from([0, 2]));
    expect(small.bytes.length).toBe(4);
  });

  // The generated lists above never reach a summary frequency of 4-7 with small tags: where the one-byte form ends.
  it('round-trips every frequency either side of the one-byte form (summary and tags 3 and 4, body 7 and 8)', () => {
    const pairs: number[] = [];
    for (const summary of [0, 1, 3, 4, 7, 8, 255]) for (const tags of [0, 3, 4, 7, 255]) for (const body of [0, 7, 8, 65535]) pairs.push(pairs.length / 2, packFrequencies(summary, tags, body));
    const { bytes } = encodePostings(Uint32Array.from(pairs), Uint32Array.from([0, pairs.length / 2]));
    const out = new Uint32Array(pairs.length);
    expect(decodePostings(bytes, pairs.length / 2, out)).toBe(pairs.length / 2);
    expect([...out]).toEqual(pairs);
  });

  it('a damaged or cut list gives the pairs before the damage, never more', () => {
    const pairs = Uint32Array.from([5, packFrequencies(1, 0, 1), 9, packFrequencies(200, 3, 1000), 12, packFrequencies(0, 0, 1)]);
    const { bytes } = encodePostings(pairs, Uint32Array.from([0, 3]));
    const out = new Uint32Array(6);
    expect(decodePostings(bytes.subarray(0, bytes.length - 1), 3, out)).toBe(2);
    expect([...out.subarray(0, 4)]).toEqual([...pairs.subarray(0, 4)]);
    expect(decodePostings(new Uint8Array([0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), 3, out)).toBe(0);
  });
});

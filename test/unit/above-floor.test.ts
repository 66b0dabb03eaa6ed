import { describe, expect, it } from 'vitest';
import { aboveFloor } from '../../src/core/search/floor.ts';

describe('aboveFloor', () => {
  it('keeps the hits at the floor share of the best or above, asking for the floor only with two hits or more', () => {
    const hits = [{ score: 10 }, { score: 7 }, { score: 6.9 }, { score: 1 }];
    expect(aboveFloor(hits, () => 0.7)).toEqual([{ score: 10 }, { score: 7 }]);
    expect(aboveFloor(hits, () => 0)).toEqual(hits);
    const never = () => {
      throw new Error('floor asked');
    };
    expect(aboveFloor([{ score: 3 }], never)).toEqual([{ score: 3 }]);
    expect(aboveFloor([], never)).toEqual([]);
  });
});

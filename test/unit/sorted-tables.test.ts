import { describe, expect, it } from 'vitest';
import { encodeSortedTables, SortedTables } from '../../src/stores/cache/sorted-tables.ts';
import { prng } from '../helpers/prng.ts';

const hex = (rand: () => number, n: number) => Array.from({ length: n }, () => Math.floor(rand() * 16).toString(16)).join('');

describe('sorted tables', () => {
  it('written over a table read, its lines copied, gives the file written from every row, over random tables', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rand = prng(seed);
      const odd = ['é', '😀', '！', ''];
      const key = () => `${hex(rand, 1 + Math.floor(rand() * 6))}${odd[Math.floor(rand() * odd.length)]}`;
      const before = new Map<string, [string, number]>();
      for (let i = rand() * 200; i > 0; i--) before.set(key(), [rand() < 0.5 ? 'head' : 'branch', Math.floor(rand() * 100)]);
      const added = new Map<string, [string, number]>();
      // New keys, and keys of the base with other values.
      for (let i = rand() * 40; i > 0; i--) added.set(rand() < 0.3 && before.size ? [...before.keys()][Math.floor(rand() * before.size)]! : key(), ['tag', i]);
      const base = SortedTables.parse(encodeSortedTables(1, {}, [['t', before]]), 1)!.table<[string, number]>('t');
      const keep = rand() < 0.5 ? undefined : (value: Buffer) => value.toString().startsWith('["head"');
      const expected = new Map([...before].filter(([k, v]) => !keep || added.has(k) || v[0] === 'head'));
      for (const [k, v] of added) expected.set(k, v);
      const merged = encodeSortedTables(1, { h: 1 }, [['t', { base, rows: added, ...(keep ? { keep } : {}) }]]);
      expect(merged.equals(encodeSortedTables(1, { h: 1 }, [['t', expected]]))).toBe(true);
      // Raw rows: every key with its value's JSON, in key order, as entries() decodes them.
      const raw: Array<[string, unknown]> = [];
      SortedTables.parse(merged, 1)!.table('t').forEachRaw((k, v) => raw.push([k, JSON.parse(v.toString())]));
      expect(raw).toEqual([...SortedTables.parse(merged, 1)!.table('t').entries()]);
      // No base (none read yet): the rows alone.
      expect(encodeSortedTables(1, {}, [['t', { base: null, rows: added }]]).equals(encodeSortedTables(1, {}, [['t', added]]))).toBe(true);
    }
  });

  it('finds every row by binary search, and no key it lacks, over random tables', () => {
    for (let seed = 1; seed <= 30; seed++) {
      const rand = prng(seed);
      const size = Math.floor(rand() * 300);
      const places = new Map<string, [string, number]>();
      const files = new Map<string, [number, ...string[]]>();
      while (places.size < size) places.set(hex(rand, 40), [rand() < 0.5 ? 'head' : 'branch', Math.floor(rand() * 2e9)]);
      // Keys of several lengths and bytes beyond ASCII: byte order, not length, decides.
      // (UTF-16 order, a plain sort's, puts '😀' before '！'; byte order after.)
      const odd = ['é', '😀', '！', ''];
      for (let i = 0; i < size / 2; i++) files.set(`${hex(rand, 1 + Math.floor(rand() * 12))}${odd[Math.floor(rand() * odd.length)]}`, [i, `src/${hex(rand, 3)}.ts`, 'a\tb "c"\n']);
      const buf = encodeSortedTables(3, { refs: 'r', nested: { a: [1] } }, [
        ['places', places],
        ['files', files],
        ['none', []],
      ]);
      const read = SortedTables.parse(buf, 3)!;
      expect(read.header.refs).toBe('r');
      expect(read.header.nested).toEqual({ a: [1] });
      const p = read.table<[string, number]>('places');
      const f = read.table<[number, ...string[]]>('files');
      expect(p.size).toBe(places.size);
      for (const [k, v] of places) expect(p.get(k)).toEqual(v);
      for (const [k, v] of files) expect(f.get(k)).toEqual(v);
      for (let i = 0; i < 50; i++) {
        const absent = hex(rand, 40);
        if (!places.has(absent)) expect(p.get(absent)).toBeUndefined();
      }
      expect(p.get('')).toBeUndefined();
      expect(read.table('none').get('x')).toBeUndefined();
      expect([...read.table('missing').entries()]).toEqual([]);
      const keys = [...f.keys()];
      expect(keys).toEqual([...files.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
      expect(new Map(f.entries())).toEqual(files);
    }
  });

  it('gives the rows whose value holds a text, never a key that merely contains it', () => {
    const rows = new Map<string, string[]>([
      ['"src/css.ts"', ['x.ts']],
      ['b', ['src/css.ts', 'y.ts']],
      ['c', ['lib/src/css.tsx']],
      ['d', ['src/css.ts']],
    ]);
    const t = SortedTables.parse(encodeSortedTables(1, {}, [['t', rows]]), 1)!.table<string[]>('t');
    expect([...t.containing(JSON.stringify('src/css.ts'))].map(([k]) => k)).toEqual(['b', 'd']);
    expect([...t.containing('nowhere')]).toEqual([]);
  });

  it('reads a file of another version, a damaged header or a cut file as nothing', () => {
    const buf = encodeSortedTables(2, {}, [['t', new Map([['a', 1], ['b', 2]])]]);
    expect(SortedTables.parse(buf, 2)?.table('t').get('b')).toBe(2);
    expect(SortedTables.parse(buf, 1)).toBeNull();
    expect(SortedTables.parse(buf.subarray(0, buf.length - 1), 2)).toBeNull();
    expect(SortedTables.parse(Buffer.from('{"version":2,"tables":[["t",1,5]]}\nab'), 2)).toBeNull();
    expect(SortedTables.parse(Buffer.from('not json\n'), 2)).toBeNull();
    expect(SortedTables.parse(Buffer.alloc(0), 2)).toBeNull();
  });

  it('finds a text in the value of a row whose key holds it too', () => {
    const t = SortedTables.parse(encodeSortedTables(1, {}, [['t', new Map([['"a"', ['a']], ['b', ['a']]])]]), 1)!.table<string[]>('t');
    expect([...t.containing(JSON.stringify('a'))].map(([k]) => k)).toEqual(['"a"', 'b']);
  });

  it('reads a damaged row as absent and the others as written, never throwing (a JsonFile reads damage as nothing)', () => {
    const rows = new Map([['a', [1]], ['b', [2]], ['c', [3]], ['d', [4]]]);
    const good = encodeSortedTables(1, {}, [['t', rows], ['u', rows]]);
    // Same length, so the header still matches: a value that is no JSON, and a line without its tab.
    const text = good.toString('latin1');
    const damaged = Buffer.from(text.replace('b\t[2]', 'b\tx2]').replace('c\t[3]', 'c [3]'), 'latin1');
    expect(damaged.length).toBe(good.length);
    const read = SortedTables.parse(damaged, 1)!;
    const t = read.table<number[]>('t');
    expect(t.get('a')).toEqual([1]);
    expect(t.get('b')).toBeUndefined();
    expect(t.get('c')).toBeUndefined();
    expect(t.get('d')).toEqual([4]);
    expect([...t.entries()].map(([k]) => k)).toEqual(['a', 'd']);
    expect([...t.keys()]).toEqual(['a', 'b', 'd']);
    expect([...t.containing('2')]).toEqual([]);
    expect([...read.table('u').entries()].map(([k]) => k)).toEqual(['a', 'b', 'c', 'd']);
    // A table whose last line lost its newline: read as nothing, not walked past its end.
    expect(SortedTables.parse(Buffer.from(text.replace(/\n$/, ' '), 'latin1'), 1)).toBeNull();
    expect(SortedTables.parse(Buffer.from(text.replace('d\t[4]\na', 'd\t[4] a'), 'latin1'), 1)).toBeNull();
  });
});

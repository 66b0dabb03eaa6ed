import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BLOB_MODE, isTree, parseTree, serializeTree, TREE_MODE, type TreeEntry } from '../../src/stores/git/tree.ts';

const gitHash = (type: string, content: Buffer) =>
  createHash('sha1').update(Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content])).digest('hex');

// Computed with git 2.39: printf 'hello\n' | git hash-object --stdin, and git mktree.
const HELLO_BLOB = 'ce013625030ba8dba906f756967f9e9ca394464a';
const TREE_WITH_X = 'e31a96220fbfbe7601ecc086a36b96dc27a8867e'; // 100644 blob HELLO_BLOB  x
const MIXED_TREE = '46407300e488c9bc9c1ad3a892a70b41db04f202'; // entries a/, a.txt, a-b, a0

describe('serializeTree', () => {
  it('gives git\'s empty tree for no entries', () => {
    expect(serializeTree([]).length).toBe(0);
    expect(gitHash('tree', serializeTree([]))).toBe('4b825dc642cb6eb9a060e54bf8d69288fbee4904');
  });

  it('writes `<mode> <name>\\0<binary oid>` per entry', () => {
    const buf = serializeTree([{ mode: BLOB_MODE, name: 'x', oid: HELLO_BLOB }]);
    expect(buf).toEqual(Buffer.concat([Buffer.from('100644 x\0'), Buffer.from(HELLO_BLOB, 'hex')]));
    expect(gitHash('tree', buf)).toBe(TREE_WITH_X);
  });

  it("sorts a tree named 'a' as 'a/': after 'a-b' and 'a.txt', before 'a0'", () => {
    const entries: TreeEntry[] = [
      { mode: BLOB_MODE, name: 'a0', oid: HELLO_BLOB },
      { mode: TREE_MODE, name: 'a', oid: TREE_WITH_X },
      { mode: BLOB_MODE, name: 'a.txt', oid: HELLO_BLOB },
      { mode: BLOB_MODE, name: 'a-b', oid: HELLO_BLOB },
    ];
    const buf = serializeTree(entries);
    expect(parseTree(buf, 20).map((e) => e.name)).toEqual(['a-b', 'a.txt', 'a', 'a0']);
    // Byte for byte what git mktree writes for the same entries.
    expect(gitHash('tree', buf)).toBe(MIXED_TREE);
  });

  it("sorts a blob named 'a' before 'a.txt' (no trailing slash for blobs)", () => {
    const entries: TreeEntry[] = [
      { mode: BLOB_MODE, name: 'a.txt', oid: HELLO_BLOB },
      { mode: BLOB_MODE, name: 'a', oid: HELLO_BLOB },
    ];
    expect(parseTree(serializeTree(entries), 20).map((e) => e.name)).toEqual(['a', 'a.txt']);
  });

  it('sorts by bytes, not locale (upper case before lower case, UTF-8 last)', () => {
    const names = ['b', 'B', 'a', 'Z', '_', 'é', '0'];
    const entries = names.map((name) => ({ mode: BLOB_MODE, name, oid: HELLO_BLOB }));
    expect(parseTree(serializeTree(entries), 20).map((e) => e.name)).toEqual(['0', 'B', 'Z', '_', 'a', 'b', 'é']);
  });

  it('sorts notes fan-out directories among flat notes as git does', () => {
    const flat = 'ab' + '0'.repeat(38);
    const entries: TreeEntry[] = [
      { mode: BLOB_MODE, name: flat, oid: HELLO_BLOB },
      { mode: TREE_MODE, name: 'ab', oid: TREE_WITH_X },
    ];
    // 'ab/' (0x2f) sorts before 'ab0…' (0x30).
    expect(parseTree(serializeTree(entries), 20).map((e) => e.name)).toEqual(['ab', flat]);
  });

  it('does not reorder its input array', () => {
    const entries: TreeEntry[] = [
      { mode: BLOB_MODE, name: 'b', oid: HELLO_BLOB },
      { mode: BLOB_MODE, name: 'a', oid: HELLO_BLOB },
    ];
    serializeTree(entries);
    expect(entries.map((e) => e.name)).toEqual(['b', 'a']);
  });
});

describe('parseTree', () => {
  it('round-trips sha1 entries (sorted)', () => {
    const entries: TreeEntry[] = [
      { mode: TREE_MODE, name: 'dir', oid: TREE_WITH_X },
      { mode: BLOB_MODE, name: 'file name with spaces.md', oid: HELLO_BLOB },
      { mode: '100755', name: 'run.sh', oid: 'ffffffffffffffffffffffffffffffffffffffff' },
      { mode: '120000', name: 'link', oid: '0000000000000000000000000000000000000001' },
      { mode: BLOB_MODE, name: 'ünïcode.txt', oid: '1234567890abcdef1234567890abcdef12345678' },
    ];
    const parsed = parseTree(serializeTree(entries), 20);
    expect(parsed).toEqual(
      [...entries].sort((a, b) => Buffer.compare(Buffer.from(a.name + (isTree(a) ? '/' : '')), Buffer.from(b.name + (isTree(b) ? '/' : '')))),
    );
    expect(parsed).toHaveLength(5);
  });

  it('round-trips sha256 (32-byte) object ids', () => {
    const oid256 = createHash('sha256').update('x').digest('hex');
    const entries: TreeEntry[] = [
      { mode: BLOB_MODE, name: 'a', oid: oid256 },
      { mode: TREE_MODE, name: 'b', oid: createHash('sha256').update('y').digest('hex') },
    ];
    const buf = serializeTree(entries);
    expect(buf.length).toBe('100644 a\0'.length + 32 + '40000 b\0'.length + 32);
    expect(parseTree(buf, 32)).toEqual(entries);
  });

  it('parses a tree as git writes it', () => {
    const raw = Buffer.concat([Buffer.from('40000 sub\0'), Buffer.from(TREE_WITH_X, 'hex'), Buffer.from('100644 x\0'), Buffer.from(HELLO_BLOB, 'hex')]);
    expect(parseTree(raw, 20)).toEqual([
      { mode: TREE_MODE, name: 'sub', oid: TREE_WITH_X },
      { mode: BLOB_MODE, name: 'x', oid: HELLO_BLOB },
    ]);
  });

  it('gives no entries for an empty buffer', () => {
    expect(parseTree(Buffer.alloc(0), 20)).toEqual([]);
  });
});

describe('isTree', () => {
  it('is true only for mode 40000', () => {
    expect(isTree({ mode: TREE_MODE, name: 'd', oid: TREE_WITH_X })).toBe(true);
    expect(isTree({ mode: BLOB_MODE, name: 'f', oid: HELLO_BLOB })).toBe(false);
    expect(isTree({ mode: '160000', name: 'submodule', oid: HELLO_BLOB })).toBe(false);
  });
});

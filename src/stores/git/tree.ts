/** Git's binary tree format. */
export const TREE_MODE = '40000';
export const BLOB_MODE = '100644';

export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
}

export function isTree(e: TreeEntry): boolean {
  return e.mode === TREE_MODE;
}

export function parseTree(buf: Buffer, oidBytes: number): TreeEntry[] {
  const entries: TreeEntry[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const space = buf.indexOf(32, pos);
    const nul = buf.indexOf(0, space);
    if (space < 0 || nul < 0) break;
    entries.push({
      mode: buf.toString('utf8', pos, space),
      name: buf.toString('utf8', space + 1, nul),
      oid: buf.toString('hex', nul + 1, nul + 1 + oidBytes),
    });
    pos = nul + 1 + oidBytes;
  }
  return entries;
}

/** Git orders entries by name, comparing a tree's name as if it ended in '/'. */
function sortKey(e: TreeEntry): string {
  return isTree(e) ? `${e.name}/` : e.name;
}

export function serializeTree(entries: readonly TreeEntry[]): Buffer {
  const sorted = [...entries].sort((a, b) => Buffer.compare(Buffer.from(sortKey(a)), Buffer.from(sortKey(b))));
  return Buffer.concat(sorted.flatMap((e) => [Buffer.from(`${e.mode} ${e.name}\0`), Buffer.from(e.oid, 'hex')]));
}

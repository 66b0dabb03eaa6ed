/**
 * Git objects in-process: hashing and writing loose objects (no process per note),
 * reading any object, loose or packed, through one `git cat-file --batch`.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import type { Repo } from './repo.ts';

export type ObjectType = 'blob' | 'tree' | 'commit';

function frame(type: ObjectType, content: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`${type} ${content.length}\0`), content]);
}

export function hashObject(format: Repo['objectFormat'], type: ObjectType, content: Buffer): string {
  return createHash(format).update(frame(type, content)).digest('hex');
}

/** Writes a loose object atomically (temp file, then rename) and returns its id. */
export function writeObject(repo: Repo, type: ObjectType, content: Buffer | string): string {
  const data = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const framed = frame(type, data);
  const oid = createHash(repo.objectFormat).update(framed).digest('hex');
  const dir = path.join(repo.objectsDir, oid.slice(0, 2));
  const file = path.join(dir, oid.slice(2));
  if (fs.existsSync(file)) return oid;
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `tmp_obj_${process.pid}_${randomBytes(4).toString('hex')}`);
  fs.writeFileSync(tmp, deflateSync(framed), { mode: 0o444 });
  fs.renameSync(tmp, file);
  return oid;
}

export interface GitObject {
  type: string;
  content: Buffer;
}

/** Reads many objects with one process. Missing objects are absent from the result. */
export function readObjects(repo: Repo, oids: readonly string[]): Map<string, GitObject> {
  const out = new Map<string, GitObject>();
  const unique = [...new Set(oids)];
  if (unique.length === 0) return out;
  const buf = repo.git.buffer(['cat-file', '--batch'], { input: unique.join('\n') + '\n' });
  let pos = 0;
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos);
    if (nl < 0) break;
    const header = buf.toString('utf8', pos, nl).split(' ');
    pos = nl + 1;
    if (header[1] === 'missing' || header.length < 3) continue;
    const size = Number(header[2]);
    out.set(header[0]!, { type: header[1]!, content: buf.subarray(pos, pos + size) });
    pos += size + 1;
  }
  return out;
}

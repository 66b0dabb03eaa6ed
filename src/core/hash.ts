// Hashing is pure computation; node:crypto is the one platform import core allows.
import { createHash } from 'node:crypto';

export function sha1Hex(text: string | Uint8Array): string {
  return createHash('sha1').update(text).digest('hex');
}

export function sha256Hex(text: string | Uint8Array): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The layout of git-mem's binary caches (the vectors, the static query
 * table): an 8-byte magic, the length of a JSON header (u32, little-endian),
 * the header, then sections the owner lays out from `bodyAt` (4-byte aligned
 * where typed arrays are laid over them). Only the frame lives here; each
 * owner checks its own header and sections.
 */

/** The frame of a file whose body is `bodyBytes` long: the buffer to fill, the header written, and where the body starts. */
export function headedFile(magic: Buffer, header: object, bodyLength: (bodyAt: number) => number): { out: Uint8Array; bodyAt: number } {
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const bodyAt = magic.length + 4 + json.length;
  const out = new Uint8Array(bodyAt + bodyLength(bodyAt));
  out.set(magic, 0);
  new DataView(out.buffer).setUint32(magic.length, json.length, true);
  out.set(json, magic.length + 4);
  return { out, bodyAt };
}

/** The header and where the body starts, or null when the bytes are not such a file (another magic, truncated, unreadable header). The bytes come back 4-byte aligned (copied when they were not). */
export function readHeadedFile<H>(bytes: Uint8Array, magic: Buffer): { bytes: Uint8Array; header: H; bodyAt: number } | null {
  if (bytes.byteLength < magic.length + 4 || !Buffer.from(bytes.buffer, bytes.byteOffset, magic.length).equals(magic)) return null;
  // Typed views need 4-byte alignment from the buffer's start.
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const length = new DataView(aligned.buffer, aligned.byteOffset, aligned.byteLength).getUint32(magic.length, true);
  const bodyAt = magic.length + 4 + length;
  if (bodyAt > aligned.byteLength) return null;
  try {
    const header = JSON.parse(Buffer.from(aligned.buffer, aligned.byteOffset + magic.length + 4, length).toString('utf8')) as H;
    return header && typeof header === 'object' ? { bytes: aligned, header, bodyAt } : null;
  } catch {
    return null;
  }
}

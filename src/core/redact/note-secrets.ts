/**
 * Secrets in notes as they are, before they leave the machine: git-mem redacts
 * what it writes, but a note written by plain `git notes`, an older version or
 * another tool is pushed as it is. Each document of a note is run through the
 * same rules as redaction (redact.ts, secret-rules.ts); what they find is
 * named by the memory that holds it and the rule's type. Pure: the caller
 * reads the note blobs (services/note-secrets.ts).
 */
import { sha1Hex } from '../hash.ts';
import { parseNote } from '../note-format.ts';
import { formatId } from '../memory.ts';
import { redact } from './redact.ts';

export interface NoteSecret {
  namespace: string;
  /** The object the note is attached to. */
  object: string;
  /** The memory's id as git-mem prints it; for text that is no memory (a hand-written note), `<namespace>:<short object>`. */
  id: string;
  /** Whether the text is a memory or tombstone git-mem can edit or forget by its id. */
  memory: boolean;
  /** The rules' types, one entry per kind found (aws_access_key, private_key, password_url…). */
  types: string[];
  /** The note blob it was found in. */
  blob: string;
  /** A digest of the document's text (not the text: it holds the secret), to tell whether the remote has that very document. */
  doc: string;
}

/** The digest `doc` holds: of the document's trimmed text. */
export function docDigest(raw: string): string {
  return sha1Hex(raw.trim());
}

/** Digests of every document of a note. */
export function noteDocDigests(text: string, namespace: string, object: string): string[] {
  return parseNote(text, namespace, object).docs.map((d) => docDigest(d.raw));
}

/** The secrets in one note's text, one entry per document that holds any; `allow`: mem.secrets.allow digests. */
export function noteSecrets(text: string, namespace: string, object: string, blob: string, allow: readonly string[] = []): NoteSecret[] {
  // Most notes hold nothing a rule looks for: one pass over the whole note says so.
  if (redact(text, { allow }).found.length === 0) return [];
  const out: NoteSecret[] = [];
  for (const doc of parseNote(text, namespace, object).docs) {
    const found = redact(doc.raw, { allow }).found;
    if (found.length === 0) continue;
    const key = doc.kind === 'memory' ? doc.memory.key : doc.kind === 'tombstone' ? doc.tombstone.key : null;
    out.push({
      namespace,
      object,
      id: key ? formatId({ namespace, object, key }) : `${namespace}:${object.slice(0, 7)}`,
      memory: key !== null,
      types: [...new Set(found)],
      blob,
      doc: docDigest(doc.raw),
    });
  }
  return out;
}

/** One line per finding: `decisions:1a2b3c4:5d6e7f8a9b  aws_access_key`; `current`: the blobs of the notes as they are now (the others are history). */
export function secretLines(found: readonly NoteSecret[], current: ReadonlySet<string>): string[] {
  const now = new Set(found.filter((f) => current.has(f.blob)).map((f) => f.id));
  const seen = new Set<string>();
  const lines: string[] = [];
  for (const f of found) {
    const where = [...(f.memory ? [] : ['a note with no memory front matter']), ...(now.has(f.id) ? [] : ['no longer in the notes, only in a notes commit not yet pushed'])];
    const line = `  ${f.id}  ${f.types.join(', ')}${where.length ? ` (${where.join('; ')})` : ''}`;
    if (!seen.has(line)) lines.push(line);
    seen.add(line);
  }
  return lines;
}

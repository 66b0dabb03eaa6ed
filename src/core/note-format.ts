/**
 * The note format: one note (per object and namespace) holds one or more
 * documents `---\n<YAML front matter>\n---\n\n<body>`, joined by a blank line,
 * exactly as the earlier Python system appended them.
 *
 * A body can never open a document: a body line that reads as a fence (`---`,
 * after any backslashes) is written with one more backslash, and the reader
 * takes one off again in documents that carry an `id` (every document git-mem
 * writes). Documents without one (the earlier Python system's) are read as
 * they are.
 */
import { parseFrontMatter, writeFrontMatter } from './front-matter.ts';
import { sha1Hex } from './hash.ts';
import { isStatus, KEY_LENGTH, type Memory, type Tombstone } from './memory.ts';
import { normalizeTimestamp } from './time.ts';

export type NoteDoc =
  | { kind: 'memory'; raw: string; memory: Memory }
  | { kind: 'tombstone'; raw: string; tombstone: Tombstone }
  /** Text that is not a memory (invalid YAML, a hand-written note): kept verbatim, never rewritten. */
  | { kind: 'other'; raw: string; /** Text before the first document (a hand-written note): no header of its own. */ leading?: boolean };

export interface ParsedNote {
  docs: NoteDoc[];
  warnings: string[];
  /** Binary content: must never be rewritten as text. */
  binary: boolean;
}

const FENCE = /^---[ \t]*$/;
/** A body line that is a fence once its backslashes are gone (a `\r` is read as a line end's). */
const ESCAPABLE = /^\\*---[ \t\r]*$/;
const ESCAPED = /^\\+---[ \t]*$/;

/** The body as stored: no line of it can be read as a fence. */
export function escapeBody(body: string): string {
  return body.includes('---') ? body.split('\n').map((l) => (ESCAPABLE.test(l) ? `\\${l}` : l)).join('\n') : body;
}

/** The body as written by its author, from the stored text. */
export function unescapeBody(stored: string): string {
  return stored.includes('---') ? stored.split('\n').map((l) => (ESCAPED.test(l) ? l.slice(1) : l)).join('\n') : stored;
}
const MEMORY_FIELD = /^(?:id|type|summary|timestamp):/;

/** A deterministic key for documents written without an `id` (older notes), from namespace and content only, so it survives rebases. */
export function deriveKey(namespace: string, raw: string): string {
  return sha1Hex(`${namespace}\0${raw.trim()}`).slice(0, KEY_LENGTH);
}

function isHeader(fm: Record<string, unknown>): boolean {
  return 'type' in fm || 'id' in fm || 'summary' in fm;
}

interface Header {
  start: number;
  end: number;
  fm: Record<string, unknown> | 'invalid';
}

function findHeaders(lines: string[]): Header[] {
  const headers: Header[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!FENCE.test(lines[i]!) || (i > 0 && lines[i - 1]!.trim() !== '')) continue;
    let j = i + 1;
    while (j < lines.length && !FENCE.test(lines[j]!)) j++;
    if (j >= lines.length) continue;
    const fm = parseFrontMatter(lines.slice(i + 1, j));
    // An unparsable block is a (broken) header where a document must start, or where it names memory fields.
    const broken = fm === 'invalid' && ((headers.length === 0 && lines.slice(0, i).every((l) => !l.trim())) || lines.slice(i + 1, j).some((l) => MEMORY_FIELD.test(l)));
    if (broken || (fm && fm !== 'invalid' && isHeader(fm))) {
      headers.push({ start: i, end: j, fm: fm as Header['fm'] });
      i = j;
    }
  }
  return headers;
}

function asString(v: unknown): string | undefined {
  if (v === null || v === undefined) return undefined;
  const s = String(v).trim();
  return s ? s : undefined;
}

function asList(v: unknown): string[] {
  if (Array.isArray(v)) return v.map((x) => String(x).trim()).filter(Boolean);
  if (typeof v === 'string') return v.split(',').map((x) => x.trim()).filter(Boolean);
  return [];
}

/** Front-matter fields with a meaning here; any other is kept in `extra`. */
const KNOWN_FIELDS = new Set(['id', 'type', 'timestamp', 'created', 'updated', 'summary', 'spec', 'phase', 'tags', 'status', 'relates_to', 'author', 'source', 'confidence', 'paths', 'commit_subject', 'patch_id', 'consolidates', 'consolidated_into', 'supersedes', 'superseded_by', 'reprieves']);

function toDoc(fm: Record<string, unknown>, stored: string, raw: string, namespace: string, object: string): NoteDoc {
  const body = 'id' in fm ? unescapeBody(stored) : stored;
  const key = (asString(fm.id) ?? deriveKey(namespace, raw)).toLowerCase();
  if ('forgotten' in fm) {
    const updated = normalizeTimestamp(fm.forgotten) ?? normalizeTimestamp(fm.updated) ?? '';
    return { kind: 'tombstone', raw, tombstone: { key, namespace, object, updated } };
  }
  if (!('type' in fm) && !('summary' in fm)) return { kind: 'other', raw };
  const created = normalizeTimestamp(fm.timestamp) ?? normalizeTimestamp(fm.created) ?? '';
  const memory: Memory = {
    key,
    namespace,
    object,
    summary: asString(fm.summary) ?? body.split('\n')[0]?.slice(0, 100) ?? '',
    body,
    created,
    updated: normalizeTimestamp(fm.updated) ?? created,
    tags: asList(fm.tags),
    status: isStatus(fm.status) ? fm.status : 'active',
    relatesTo: asList(fm.relates_to),
  };
  const optional = { spec: asString(fm.spec), phase: asString(fm.phase), author: asString(fm.author), source: asString(fm.source) };
  for (const [k, v] of Object.entries(optional)) if (v) (memory as unknown as Record<string, unknown>)[k] = v;
  if (typeof fm.confidence === 'number') memory.confidence = fm.confidence;
  const paths = asList(fm.paths);
  if (paths.length) memory.paths = paths;
  const commitSubject = asString(fm.commit_subject);
  if (commitSubject) memory.commitSubject = commitSubject;
  const patchId = asString(fm.patch_id);
  if (patchId && /^[0-9a-f]{40,64}$/.test(patchId)) memory.patchId = patchId;
  const consolidates = asList(fm.consolidates);
  if (consolidates.length) memory.consolidates = consolidates;
  const supersedes = asList(fm.supersedes);
  if (supersedes.length) memory.supersedes = supersedes;
  const consolidatedInto = asString(fm.consolidated_into);
  if (consolidatedInto) memory.consolidatedInto = consolidatedInto;
  const supersededBy = asString(fm.superseded_by);
  if (supersededBy) memory.supersededBy = supersededBy;
  if (typeof fm.reprieves === 'number' && Number.isInteger(fm.reprieves) && fm.reprieves > 0) memory.reprieves = fm.reprieves;
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fm)) if (!KNOWN_FIELDS.has(k)) extra[k] = v;
  // A timestamp that cannot be read is kept as written, not replaced by an empty one.
  if (!created && fm.timestamp !== undefined && fm.timestamp !== null) extra.timestamp = fm.timestamp;
  if (Object.keys(extra).length) memory.extra = extra;
  return { kind: 'memory', raw, memory };
}

/** Splits a note into documents. Never throws: what cannot be read is reported in `warnings` and kept verbatim. */
export function parseNote(text: string, namespace: string, object: string): ParsedNote {
  const warnings: string[] = [];
  if (text.includes('\0')) {
    return { docs: [{ kind: 'other', raw: text }], warnings: [`note on ${object.slice(0, 7)} in ${namespace} has binary content; skipped`], binary: true };
  }
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  const headers = findHeaders(lines);
  const docs: NoteDoc[] = [];
  const leading = lines.slice(0, headers[0]?.start ?? lines.length).join('\n').trim();
  if (leading) {
    docs.push({ kind: 'other', raw: leading, leading: true });
    if (headers.length === 0) warnings.push(`note on ${object.slice(0, 7)} in ${namespace} has no memory front matter; skipped`);
  }
  headers.forEach((h, n) => {
    const stop = headers[n + 1]?.start ?? lines.length;
    const raw = lines.slice(h.start, stop).join('\n').trimEnd();
    if (h.fm === 'invalid') {
      warnings.push(`note on ${object.slice(0, 7)} in ${namespace} has invalid YAML front matter; skipped`);
      docs.push({ kind: 'other', raw });
      return;
    }
    const body = lines.slice(h.end + 1, stop).join('\n').replace(/^\n+/, '').trimEnd();
    docs.push(toDoc(h.fm, body, raw, namespace, object));
  });
  return { docs, warnings, binary: false };
}

/** Where a document git-mem wrote opens: a fence at the start or after a blank line, then its `id` (quoted or not). */
const ID_OPENING = /(?:^|\n\n)---[ \t]*\nid:[ \t]*(["']?)([0-9A-Za-z]+)\1[ \t]*\n/g;

/**
 * parseNote, reading only the documents `skip` does not rule out by key: the
 * note is cut before each opening fence followed by an `id` line (every
 * document git-mem writes opens so, and its body cannot hold such a line), and
 * each part is read as a note of its own unless its key is skipped. Text
 * before the first such opening is always read. For the duplicate check of
 * an append to a large note, which needs only the documents its caller has
 * not seen elsewhere.
 */
export function parseNoteExcept(text: string, namespace: string, object: string, skip: (key: string) => boolean): ParsedNote {
  // Line ends other than \n and binary content: as parseNote reads them.
  if (text.includes('\r') || text.includes('\0')) return parseNote(text, namespace, object);
  const starts: Array<{ at: number; key: string }> = [];
  for (const m of text.matchAll(ID_OPENING)) starts.push({ at: m.index + (m[0].startsWith('\n\n') ? 2 : 0), key: m[2]!.toLowerCase() });
  const out: ParsedNote = { docs: [], warnings: [], binary: false };
  const read = (from: number, to: number) => {
    const part = parseNote(text.slice(from, to), namespace, object);
    out.docs.push(...part.docs);
    out.warnings.push(...part.warnings);
  };
  const parts = starts.flatMap((s, i) => (skip(s.key) ? [] : [{ from: s.at, to: starts[i + 1]?.at ?? text.length }]));
  const first = starts[0]?.at ?? text.length;
  if (text.slice(0, first).trim()) read(0, first);
  for (const p of parts) read(p.from, p.to);
  return out;
}

/** ID_OPENING at one place (sticky), from its fence. */
const ID_OPENING_AT = /---[ \t]*\nid:[ \t]*(["']?)([0-9A-Za-z]+)\1[ \t]*\n/y;

/**
 * The documents appended to a note since the caller last saw it: parseNote of
 * the documents from its end back to the first one `seen` holds (at most
 * `last` of them; also the text before the first document, when the walk
 * reaches it). Only the tail is read: the note is walked back from its end.
 * For links at capture, where a note of 10,000 documents the index has seen
 * must cost nothing but the few appended since.
 */
export function parseNoteTail(text: string, namespace: string, object: string, seen: (key: string) => boolean, last: number): ParsedNote {
  if (text.includes('\r') || text.includes('\0')) return parseNote(text, namespace, object);
  const parts: Array<{ from: number; to: number }> = [];
  let to = text.length;
  let reachedStart = true;
  for (let pos = text.length; pos > 0 && parts.length < last; ) {
    const newline = text.lastIndexOf('\n---', pos - 1);
    const at = newline < 0 ? 0 : newline + 1;
    // A fence at the start of the text, or after a blank line, opening an id.
    if (at === 0 || text[newline - 1] === '\n') {
      ID_OPENING_AT.lastIndex = at;
      const m = ID_OPENING_AT.exec(text);
      if (m && at < to) {
        if (seen(m[2]!.toLowerCase())) {
          reachedStart = false;
          break;
        }
        parts.push({ from: at, to });
        to = at;
      }
    }
    if (newline < 0) break;
    pos = newline;
  }
  if (parts.length >= last) reachedStart = false;
  const out: ParsedNote = { docs: [], warnings: [], binary: false };
  const read = (from: number, until: number) => {
    const part = parseNote(text.slice(from, until), namespace, object);
    out.docs.push(...part.docs);
    out.warnings.push(...part.warnings);
  };
  if (reachedStart && text.slice(0, to).trim()) read(0, to);
  for (const p of parts.reverse()) read(p.from, p.to);
  return out;
}

/**
 * A note with documents appended, the note's own text kept as it is (nothing
 * of it is parsed or rewritten): what serializeNote writes for the note's
 * documents and these, when the note is as git-mem writes them.
 */
export function appendToNote(note: string | null, docs: readonly string[]): string {
  const added = docs.map((d) => d.trim()).join('\n\n');
  // Line ends other than \n: rewritten as parseNote reads them, as before.
  if (note?.includes('\r')) return serializeNote([...parseNote(note, '', '').docs, { raw: added }]);
  const old = note?.trim() ?? '';
  return `${old ? `${old}\n\n` : ''}${added}\n`;
}

/**
 * What a note gained at its end, when an append is all that changed and the
 * old part reads the same with it (so only the new text needs parsing; it
 * parses as its own note): the text after the old content, starting at a
 * blank line. Null otherwise, and whenever the old text's last `---` line
 * could open a front matter that the new text would close (preceded by a
 * blank line: a horizontal rule in a body, say); then the whole note must be read.
 */
export function appendedText(before: string, after: string): string | null {
  const old = before.trimEnd();
  if (!old || before.includes('\r') || after.includes('\r') || after.includes('\0')) return null;
  if (!after.startsWith(old) || !after.startsWith('\n\n', old.length)) return null;
  // The old text's last `---` line, found from its end (a note can hold hundreds of memories: no split of it all).
  // Each line is [start, end); `end` only decreases, down to the first line.
  for (let end = old.length; ; ) {
    const newline = end > 0 ? old.lastIndexOf('\n', end - 1) : -1;
    const start = newline + 1;
    if (FENCE.test(old.slice(start, end))) {
      // The first line, or one after a blank line: it could open a front matter.
      if (start === 0 || old.slice(start >= 2 ? old.lastIndexOf('\n', start - 2) + 1 : 0, start - 1).trim() === '') return null;
      break;
    }
    if (newline < 0) break;
    end = newline;
  }
  return after.slice(old.length);
}

/** Field names follow the earlier system (type, timestamp, summary, spec, phase, tags, status, relates_to), so its readers still understand ours. */
function frontMatterOf(m: Memory): string {
  const fields: Record<string, unknown> = { id: m.key, type: m.namespace, timestamp: m.created || m.extra?.timestamp || '', updated: m.updated, summary: m.summary };
  if (m.spec) fields.spec = m.spec;
  if (m.phase) fields.phase = m.phase;
  if (m.tags.length) fields.tags = m.tags;
  if (m.status !== 'active') fields.status = m.status;
  if (m.relatesTo.length) fields.relates_to = m.relatesTo;
  if (m.author) fields.author = m.author;
  if (m.source) fields.source = m.source;
  if (m.confidence !== undefined) fields.confidence = m.confidence;
  if (m.paths?.length) fields.paths = m.paths;
  if (m.commitSubject) fields.commit_subject = m.commitSubject;
  if (m.patchId) fields.patch_id = m.patchId;
  if (m.consolidates?.length) fields.consolidates = m.consolidates;
  if (m.consolidatedInto) fields.consolidated_into = m.consolidatedInto;
  if (m.supersedes?.length) fields.supersedes = m.supersedes;
  if (m.supersededBy) fields.superseded_by = m.supersededBy;
  if (m.reprieves) fields.reprieves = m.reprieves;
  for (const [k, v] of Object.entries(m.extra ?? {})) if (!(k in fields)) fields[k] = v;
  return `---\n${writeFrontMatter(fields)}---\n`;
}

function withBody(frontMatter: string, body: string): string {
  return `${frontMatter}${body.trim() ? `\n${body.trimEnd()}` : ''}`.trimEnd();
}

/** A memory as one document of a note, its body escaped. */
export function serializeMemory(m: Memory): string {
  return withBody(frontMatterOf(m), escapeBody(m.body));
}

/** A memory as people read it (show, recall, hydrate): the same document with the body as its author wrote it. */
export function memoryText(m: Memory): string {
  return withBody(frontMatterOf(m), m.body);
}

export function serializeTombstone(t: Tombstone): string {
  return `---\n${writeFrontMatter({ id: t.key, forgotten: t.updated })}---`;
}

export function serializeNote(docs: ReadonlyArray<{ raw: string }>): string {
  return docs.map((d) => d.raw.trim()).join('\n\n') + '\n';
}

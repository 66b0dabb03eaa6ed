/**
 * Memory ids for shell completion, read straight from the index file with Bun's built-in SQLite:
 * no sql.js, no refresh (the file may lag the notes until the next command that reads it;
 * completion does not wait). A file written by another index version gives nothing.
 */
import fs from 'node:fs';
import { formatId } from '../../../core/memory.ts';
import { INDEX_VERSION } from './schema.ts';

export interface IdCandidate {
  value: string;
  description: string;
}

/**
 * Current memories whose id (or, for a bare hex prefix, key) starts with `prefix`, newest first.
 * A key candidate is the key part of the id alone.
 */
export async function indexedIdCandidates(file: string, prefix: string, max: number): Promise<IdCandidate[]> {
  if (!fs.existsSync(file)) return [];
  let sqlite: typeof import('bun:sqlite');
  try {
    sqlite = await import('bun:sqlite');
  } catch {
    return []; // not running under Bun
  }
  const db = new sqlite.Database(file, { readonly: true });
  try {
    const version = db.query("SELECT value FROM meta WHERE key = 'version'").get() as { value: string } | null;
    if (version?.value !== INDEX_VERSION) return [];
    type Row = { ns: string; object: string; key: string; summary: string; created: string };
    // Each query walks one index of the schema (schema.ts) where it can; `+current` keeps SQLite
    // from choosing a scan of every row for the condition on current.
    const select = 'SELECT ns, object, key, summary, created FROM memories WHERE';
    const [ns = '', object, key] = prefix.split(':');
    const out: IdCandidate[] = [];
    if (/^[0-9a-f]+$/.test(prefix)) {
      const rows = db.query(`${select} key >= ?1 AND key < ?2 AND +current = 1 LIMIT ${max}`).all(prefix, `${prefix}g`) as Row[];
      rows.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
      for (const r of rows) {
        // The key as ids show it (its first digits), which every id argument accepts; a hand-written key is no bare id.
        if (!/^[0-9a-f]+$/.test(r.key)) continue;
        const id = formatId({ namespace: r.ns, object: r.object, key: r.key });
        out.push({ value: id.slice(id.lastIndexOf(':') + 1), description: `${r.ns}: ${r.summary}` });
      }
    }
    const rows =
      prefix === ''
        ? db.query(`${select} current = 1 ORDER BY created DESC LIMIT ${max}`).all() // newest first
        : key !== undefined || object !== undefined
          ? db.query(`${select} ns = ?1 AND object >= ?2 AND object < ?3 AND +current = 1 ORDER BY ns, object LIMIT ${max}`).all(ns, object ?? '', `${object ?? ''}g`)
          : db.query(`${select} ns >= ?1 AND ns < ?2 AND +current = 1 ORDER BY ns, object LIMIT ${max}`).all(ns, `${ns}\u{10ffff}`);
    for (const r of rows as Row[]) out.push({ value: formatId({ namespace: r.ns, object: r.object, key: r.key }), description: r.summary });
    return out.filter((c) => c.value.startsWith(prefix));
  } catch {
    return [];
  } finally {
    db.close();
  }
}

/**
 * `git-mem __complete <what> [prefix]`: the dynamic part of shell completion
 * (commands and options are written into the completion scripts). Answers in
 * a few milliseconds: no yargs, no index refresh, no model. Prints one
 * candidate a line, `value<TAB>description`; prints nothing on any failure.
 *
 *   namespaces  built-in namespaces, plus GIT_MEM_NAMESPACES or git config mem.namespaces
 *   ids         memory ids from the index file as it is (a bare hex prefix completes keys)
 *   remotes     git remotes
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { formatId } from '../core/memory.ts';
import { BUILTIN_NAMESPACES, NAMESPACE_NAME } from '../core/namespaces.ts';

export const COMPLETE_KINDS = ['namespaces', 'ids', 'remotes'] as const;
const MAX_IDS = 200;

export interface Candidate {
  value: string;
  description: string;
}

function git(cwd: string, env: NodeJS.ProcessEnv, args: string[]): string | null {
  const r = spawnSync('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return r.status === 0 ? r.stdout : null;
}

/** The same list Settings.namespaces holds, from one cheap `git config` call. */
export function namespaceCandidates(cwd: string, env: NodeJS.ProcessEnv): Candidate[] {
  const configured = env.GIT_MEM_NAMESPACES ?? git(cwd, env, ['config', '--get-all', 'mem.namespaces']) ?? '';
  const out: Candidate[] = BUILTIN_NAMESPACES.map((n) => ({ value: n.name, description: n.description }));
  for (const name of configured.split(/[\s,]+/)) {
    if (NAMESPACE_NAME.test(name) && !out.some((c) => c.value === name)) out.push({ value: name, description: 'Configured namespace' });
  }
  return out;
}

/**
 * Current memories whose id (or, for a hex prefix, key) starts with `prefix`, newest first, read
 * straight from the index file with Bun's built-in SQLite (the index may lag
 * the notes until the next command that reads it; completion does not wait).
 */
export async function idCandidates(cwd: string, env: NodeJS.ProcessEnv, prefix: string): Promise<Candidate[]> {
  const common = git(cwd, env, ['rev-parse', '--path-format=absolute', '--git-common-dir'])?.trim();
  if (!common) return [];
  const file = path.join(common, 'mem', 'index.sqlite');
  if (!fs.existsSync(file)) return [];
  let sqlite: typeof import('bun:sqlite');
  try {
    sqlite = await import('bun:sqlite');
  } catch {
    return []; // not running under Bun
  }
  // A hex prefix may be a key (completed to the key part of the id, which every id argument accepts) or a namespace's start.
  const hex = /^[0-9a-f]+$/.test(prefix);
  const db = new sqlite.Database(file, { readonly: true });
  try {
    type Row = { ns: string; object: string; key: string; summary: string; created: string };
    // Each query walks one index of the schema (stores/index/schema.ts); `+current` keeps SQLite
    // from scanning memories_created instead, which reads every row of a large index.
    const select = 'SELECT ns, object, key, summary, created FROM memories WHERE';
    const [ns = '', object, key] = prefix.split(':');
    const out: Candidate[] = [];
    if (hex) {
      const rows = db.query(`${select} key >= ?1 AND key < ?2 AND +current = 1 LIMIT ${MAX_IDS}`).all(prefix, `${prefix}g`) as Row[];
      rows.sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
      for (const r of rows) {
        const id = formatId({ namespace: r.ns, object: r.object, key: r.key });
        out.push({ value: id.slice(id.lastIndexOf(':') + 1), description: `${r.ns}: ${r.summary}` });
      }
    }
    const rows =
      prefix === ''
        ? db.query(`${select} current = 1 ORDER BY created DESC LIMIT ${MAX_IDS}`).all() // newest first
        : key !== undefined || object !== undefined
          ? db.query(`${select} ns = ?1 AND object >= ?2 AND object < ?3 AND +current = 1 ORDER BY ns, object LIMIT ${MAX_IDS}`).all(ns, object ?? '', `${object ?? ''}g`)
          : db.query(`${select} ns >= ?1 AND ns < ?2 AND +current = 1 ORDER BY ns, object LIMIT ${MAX_IDS}`).all(ns, `${ns}\u{10ffff}`);
    for (const r of rows as Row[]) out.push({ value: formatId({ namespace: r.ns, object: r.object, key: r.key }), description: r.summary });
    return out.filter((c) => c.value.startsWith(prefix));
  } catch {
    return [];
  } finally {
    db.close();
  }
}

export function remoteCandidates(cwd: string, env: NodeJS.ProcessEnv): Candidate[] {
  return (git(cwd, env, ['remote']) ?? '')
    .split('\n')
    .filter(Boolean)
    .map((r) => ({ value: r, description: 'remote' }));
}

/** Runs `__complete`; always exits 0. */
export async function runComplete(args: readonly string[], cwd: string, env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<number> {
  const [kind, prefix = ''] = args;
  let candidates: Candidate[] = [];
  try {
    if (kind === 'namespaces') candidates = namespaceCandidates(cwd, env);
    else if (kind === 'ids') candidates = await idCandidates(cwd, env, prefix);
    else if (kind === 'remotes') candidates = remoteCandidates(cwd, env);
  } catch {
    candidates = [];
  }
  const lines = candidates.filter((c) => c.value.startsWith(prefix)).map((c) => `${c.value}\t${c.description.replace(/[\t\n]+/g, ' ')}`);
  if (lines.length) write(`${lines.join('\n')}\n`);
  return 0;
}

/**
 * Trust in shared memory: where each revision of a memory came from (its
 * provenance, read from the notes history by services/trust/provenance.ts) and the
 * policy that decides which revisions the hooks and MCP may inject without a
 * review. Pure.
 */
import { sha1Hex } from './hash.ts';
import type { Memory } from './memory.ts';

/** What git says of a notes commit's signature (`%G?`): good from a trusted key, good from a key of unknown trust, bad, or none. */
export type Signature = 'good' | 'unknown-key' | 'bad' | 'none';

/** The notes commit that brought a revision into this clone's notes, as git records it. */
export interface Provenance {
  commit: string;
  /** Author of that commit: `Name <email>`. */
  author: string;
  email: string;
  /** Committer time (s). */
  time: number;
  signature: Signature;
  /** Who signed it, as git names the key's owner (the allowed signers' principal, or the gpg uid). */
  signer?: string;
  /** Written by git-mem in this clone (its reflog of the notes refs says so), not fetched. */
  local: boolean;
  /** The remote whose notes first held it, when fetched. */
  remote?: string;
}

/**
 * The rules of `mem.trust`, any of which makes a revision trusted:
 * `local` (written in this clone), `signed` (signed by a key git trusts:
 * gpg's trust or `gpg.ssh.allowedSignersFile`), `author:<email>`,
 * `remote:<name>`, `all` (every revision, the behaviour before trust existed).
 */
export type TrustRule = { kind: 'local' } | { kind: 'signed' } | { kind: 'all' } | { kind: 'author'; email: string } | { kind: 'remote'; name: string };

/** Safe where contributors fetch notes from forks: what you wrote, and what a key you allow signed. A team loosens it in one line: `git config mem.trust all`. */
export const DEFAULT_TRUST = 'local,signed';

/** `mem.trust` values (comma- or space-separated, several config lines allowed) → rules; an unknown word is an error naming it. */
export function parseTrust(values: readonly string[]): TrustRule[] {
  const words = values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
  const rules: TrustRule[] = [];
  for (const w of words.length ? words : DEFAULT_TRUST.split(',')) {
    const lower = w.toLowerCase();
    if (lower === 'local' || lower === 'signed' || lower === 'all') rules.push({ kind: lower });
    else if (lower.startsWith('author:') && w.length > 7) rules.push({ kind: 'author', email: w.slice(7).toLowerCase() });
    else if (lower.startsWith('remote:') && w.length > 7) rules.push({ kind: 'remote', name: w.slice(7) });
    else throw new Error(`mem.trust: '${w}' is not a rule (local, signed, all, author:<email>, remote:<name>)`);
  }
  return rules;
}

/** Whether a revision of this provenance is trusted; unknown provenance (not found in the notes history) only under `all`. */
export function isTrusted(p: Provenance | undefined, rules: readonly TrustRule[]): boolean {
  return rules.some((r) => {
    if (r.kind === 'all') return true;
    if (!p) return false;
    if (r.kind === 'local') return p.local;
    if (r.kind === 'signed') return p.signature === 'good';
    if (r.kind === 'author') return p.email.toLowerCase() === r.email;
    return p.remote === r.name;
  });
}

/**
 * A revision's identity: what it says, not where it sits. Two documents with
 * the same words but another status, date or body are other revisions, so a
 * writer cannot borrow a trusted revision's provenance by copying its id.
 */
export function revisionId(m: Pick<Memory, 'namespace' | 'key' | 'updated' | 'summary' | 'body' | 'status' | 'tags'>): string {
  return sha1Hex(JSON.stringify([m.namespace, m.key, m.updated, m.summary, m.body, m.status, [...m.tags].sort()]));
}

/** `%G?` → Signature: G good; U good but the key's trust is unknown; X/Y expired but good then; B/R/E bad, revoked or not checkable; N none. */
export function signatureOf(code: string): Signature {
  if (code === 'G') return 'good';
  if (code === 'U' || code === 'X' || code === 'Y') return 'unknown-key';
  if (code === 'N' || code === '') return 'none';
  return 'bad';
}

/** One word for what a reader sees next to a memory. */
export function describeProvenance(p: Provenance | undefined): string {
  if (!p) return 'provenance unknown';
  const by = p.local ? 'written here' : `from ${p.remote ?? 'elsewhere'}`;
  const signed = p.signature === 'good' ? `, signed${p.signer ? ` by ${p.signer}` : ''}` : p.signature === 'bad' ? ', BAD signature' : p.signature === 'unknown-key' ? ', signed by an unknown key' : '';
  return `${by} by ${p.author}${signed}`;
}

/**
 * Provenance of every revision: the notes commit that first brought it into
 * this clone's notes, who made that commit, whether a key git trusts signed
 * it, and whether this clone wrote it or a remote brought it
 * (core/trust.ts). Read from git itself, once per incoming notes commit:
 * when a notes ref moved, only the commits it gained are read (one `git log`
 * with their signatures checked, their notes in one `cat-file`), and each
 * revision they hold for the first time is attributed to them.
 *
 * Kept under `<git common dir>/mem/provenance/`: `state.json` (the tips read
 * so far) and shards by revision and by commit (ProvenanceFiles), so that
 * showing a few memories reads a few small files. A cache like the others: rebuilt from the notes history
 * when lost (what this clone wrote is told by the notes refs' reflog; without
 * one, by the committer's email being yours).
 */
import type { Memory } from '../../core/memory.ts';
import { NOTES_REF_PREFIX } from '../../core/namespaces.ts';
import { parseNote } from '../../core/note-format.ts';
import { type Provenance, revisionId, signatureOf } from '../../core/trust.ts';
import { ProvenanceFiles } from '../../stores/cache/provenance-files.ts';
import { heldByRemotes, notesCommits, writtenHere } from '../../stores/git/notes-history.ts';
import { readObjects } from '../../stores/git/objects.ts';
import type { Deps } from '../deps.ts';

/** What this file's functions use. */
export type ProvenanceDeps = Pick<Deps, 'repo' | 'notes' | 'settings'>;

/** This user's email, from `Name <email>`: for clones whose notes refs keep no reflog. */
function emailOf(author: string): string {
  return /<([^>]*)>\s*$/.exec(author)?.[1]?.toLowerCase() ?? '';
}

/** Repositories whose provenance this process has brought up to date: once is enough (a command or hook is short). */
const refreshed = new WeakSet<object>();

/** Reads what the notes refs gained since the last time; a no-op (one `for-each-ref`) when nothing did. */
function refresh(deps: ProvenanceDeps, files: ProvenanceFiles): void {
  if (refreshed.has(deps.repo)) return;
  refreshed.add(deps.repo);
  const state = files.readState();
  const tips = deps.notes.tips();
  const changed = [...tips].filter(([ns, tip]) => state.tips[ns] !== tip);
  if (changed.length === 0) return;
  for (const [ns, tip] of changed) {
    const before = state.tips[ns];
    const commits = notesCommits(deps.repo, tip, before ? [before] : []);
    const written = writtenHere(deps.repo, `${NOTES_REF_PREFIX}${ns}`);
    const remotes = heldByRemotes(
      deps.repo,
      commits.map((c) => c.commit),
      ns,
      commits.length && before ? [before] : [],
    );
    const blobs = readObjects(deps.repo, commits.flatMap((c) => c.changes.flatMap((ch) => [ch.oldBlob, ch.blob].filter((b): b is string => b !== null))));
    const text = (blob: string | null) => (blob ? (blobs.get(blob)?.content.toString('utf8') ?? '') : '');
    for (const c of commits) {
      // The reflog tells; before what it still lists (expired entries, a clone without one), a commit made with your email counts as yours.
      const yours = c.committerEmail.toLowerCase() === emailOf(deps.settings.author);
      const local = written ? written.commits.has(c.commit) || (yours && c.time < written.since) : yours;
      const remote = local ? undefined : [...remotes].find(([, held]) => held.has(c.commit))?.[0];
      const p: Provenance = {
        commit: c.commit,
        author: c.author,
        email: c.email,
        time: c.time,
        signature: signatureOf(c.signature),
        ...(c.signer ? { signer: c.signer } : {}),
        local,
        ...(remote ? { remote } : {}),
      };
      for (const ch of c.changes) {
        if (!ch.blob) continue;
        const old = new Set(revisionsIn(text(ch.oldBlob), ns, ch.object));
        for (const id of revisionsIn(text(ch.blob), ns, ch.object)) if (!old.has(id)) files.add(id, p);
      }
    }
    state.tips[ns] = tip;
  }
  try {
    if (deps.repo.mem.writable()) files.save(state);
  } catch {
    // A cache: read again next time.
  }
}

function revisionsIn(text: string, namespace: string, object: string): string[] {
  if (!text) return [];
  return parseNote(text, namespace, object).docs.flatMap((d) => (d.kind === 'memory' ? [revisionId(d.memory)] : []));
}

const readers = new WeakMap<object, ProvenanceFiles>();

/** key → provenance of each memory's current revision (absent: not found in the notes history). */
export function provenanceOf(deps: ProvenanceDeps, memories: readonly Memory[]): Map<string, Provenance> {
  const out = new Map<string, Provenance>();
  if (memories.length === 0) return out;
  // One reader per repository, as refresh is once per repository: a long-lived process (git mem ui) parses each shard once.
  let files = readers.get(deps.repo);
  if (!files) {
    files = new ProvenanceFiles(deps.repo.mem);
    readers.set(deps.repo, files);
  }
  refresh(deps, files);
  for (const m of memories) {
    const p = files.get(revisionId(m));
    if (p) out.set(m.key, p);
  }
  return out;
}

/**
 * The provenance cache's files (services/trust/provenance.ts says what they hold):
 * `<git common dir>/mem/provenance/state.json`, the notes tips read so far,
 * and shards by revision and by commit.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Provenance } from '../../core/trust.ts';
import { writeFileAtomic } from '../../io/atomic-write.ts';
import type { MemDir } from './mem-dir.ts';

const VERSION = 2;

export interface ProvenanceState {
  version: number;
  /** namespace → the notes tip read up to. */
  tips: Record<string, string>;
}

/** A notes commit → what git says of it. Revisions are kept by the first 16 hex digits of their id (64 bits: enough within one repository) → that commit. */
type CommitShard = Record<string, Omit<Provenance, 'commit'>>;

/**
 * The files: `rev-XX.json` and `commit-XX.json`, 256 of each by the first
 * two hex digits of the id, so that a hook showing a few memories reads a
 * few small files, and 1,000 incoming revisions rewrite shards holding only
 * ids (about 6 MB at 100,000 memories), not every provenance record.
 */
export class ProvenanceFiles {
  private readonly shards = new Map<string, Record<string, unknown>>();
  private readonly dirty = new Set<string>();
  private readonly dir: string;
  constructor(mem: MemDir) {
    this.dir = mem.file('provenance');
  }

  readState(): ProvenanceState {
    try {
      const s = JSON.parse(fs.readFileSync(path.join(this.dir, 'state.json'), 'utf8')) as ProvenanceState;
      if (s.version === VERSION && s.tips) return s;
    } catch {
      // None yet: read from the start.
    }
    return { version: VERSION, tips: {} };
  }

  private shard<T>(name: string): Record<string, T> {
    let s = this.shards.get(name);
    if (!s) {
      try {
        s = JSON.parse(fs.readFileSync(path.join(this.dir, `${name}.json`), 'utf8')) as Record<string, unknown>;
      } catch {
        s = {};
      }
      this.shards.set(name, s);
    }
    return s as Record<string, T>;
  }

  get(id: string): Provenance | undefined {
    const commit = this.shard<string>(`rev-${id.slice(0, 2)}`)[id.slice(0, 16)];
    const facts = commit ? this.shard<CommitShard[string]>(`commit-${commit.slice(0, 2)}`)[commit] : undefined;
    return commit && facts ? { commit, ...facts } : undefined;
  }

  /** Kept only when the revision has none yet: the first commit that brought it. */
  add(id: string, p: Provenance): void {
    const revs = `rev-${id.slice(0, 2)}`;
    const shard = this.shard<string>(revs);
    if (shard[id.slice(0, 16)]) return;
    shard[id.slice(0, 16)] = p.commit;
    this.dirty.add(revs);
    const commits = `commit-${p.commit.slice(0, 2)}`;
    const known = this.shard<CommitShard[string]>(commits);
    if (!known[p.commit]) {
      const { commit: _, ...facts } = p;
      known[p.commit] = facts;
      this.dirty.add(commits);
    }
  }

  save(state: ProvenanceState): void {
    fs.mkdirSync(this.dir, { recursive: true });
    for (const name of this.dirty) writeFileAtomic(path.join(this.dir, `${name}.json`), JSON.stringify(this.shards.get(name)));
    writeFileAtomic(path.join(this.dir, 'state.json'), JSON.stringify(state));
    this.dirty.clear();
  }
}

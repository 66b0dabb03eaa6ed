/**
 * An in-memory NotesStore: notes commits as a graph in memory, blobs hashed as
 * git hashes them, the same compare-and-swap rule. Services and the index can
 * run against it without git; test/contract/notes-store.test.ts holds it to the
 * same behaviour as GitNotesStore.
 */
import { createHash, randomBytes } from 'node:crypto';
import { ConflictError } from '../../src/core/errors.ts';
import type { MergeOutcome, NoteDiff, NoteMerger, NoteRef, NotesRequest, NotesStore, UpdateResult } from '../../src/stores/git/notes-store.ts';

interface Commit {
  parents: string[];
  /** object → blob id */
  notes: Map<string, string>;
}

export class MemoryNotesStore implements NotesStore {
  private readonly blobs = new Map<string, Buffer>();
  private readonly commits = new Map<string, Commit>();
  private readonly refs = new Map<string, string>();

  tips(): Map<string, string> {
    return new Map(this.refs);
  }

  /** Points a namespace's ref at a commit, as `git update-ref` would (tests build diverging histories with it). */
  setTip(namespace: string, commit: string | null): void {
    if (commit === null) this.refs.delete(namespace);
    else this.refs.set(namespace, commit);
  }

  listNotes(commit: string): NoteRef[] {
    return [...this.commit(commit).notes].map(([object, blob]) => ({ object, blob }));
  }

  diffNotes(from: string, to: string): NoteDiff[] {
    const a = this.commit(from).notes;
    const b = this.commit(to).notes;
    const out: NoteDiff[] = [];
    for (const object of new Set([...a.keys(), ...b.keys()])) {
      const oldBlob = a.get(object) ?? null;
      const blob = b.get(object) ?? null;
      if (oldBlob !== blob) out.push({ object, oldBlob, blob });
    }
    return out;
  }

  readTexts(blobs: readonly string[]): Map<string, string> {
    const out = new Map<string, string>();
    for (const id of blobs) {
      const b = this.blobs.get(id);
      if (b) out.set(id, b.toString('utf8'));
    }
    return out;
  }

  readChangedTexts(changes: ReadonlyArray<{ oldBlob: string | null; blob: string }>): Map<string, string> {
    return this.readTexts(changes.flatMap((c) => (c.oldBlob ? [c.oldBlob, c.blob] : [c.blob])));
  }

  update(namespace: string, objects: readonly string[], modify: NotesRequest['modify']): UpdateResult | null {
    return this.updateAll([{ namespace, objects, modify }])[0] ?? null;
  }

  updateAll(requests: readonly NotesRequest[]): UpdateResult[] {
    for (let attempt = 0; attempt < 80; attempt++) {
      const prepared: Array<{ namespace: string; previous: string | null; commit: string }> = [];
      for (const r of requests) {
        const previous = this.refs.get(r.namespace) ?? null;
        const notes = previous ? this.commit(previous).notes : new Map<string, string>();
        const current = new Map(r.objects.map((o) => [o, notes.has(o) ? this.blobs.get(notes.get(o)!)!.toString('utf8') : null] as const));
        const next = r.modify(current);
        if (!next || next.changes.size === 0) continue;
        const updated = new Map(notes);
        for (const [object, text] of next.changes) {
          if (text === null) updated.delete(object);
          else updated.set(object, this.writeBlob(Buffer.from(text)));
        }
        if (sameNotes(updated, notes)) continue;
        prepared.push({ namespace: r.namespace, previous, commit: this.writeCommit(previous ? [previous] : [], updated) });
      }
      if (prepared.length === 0) return [];
      if (prepared.every((p) => (this.refs.get(p.namespace) ?? null) === p.previous)) {
        for (const p of prepared) this.refs.set(p.namespace, p.commit);
        return prepared.map((p) => ({ commit: p.commit, previous: p.previous }));
      }
    }
    throw new ConflictError('notes kept changing', 'try again');
  }

  merge(namespace: string, theirs: string, mergeNote: NoteMerger): MergeOutcome {
    for (;;) {
      const ours = this.refs.get(namespace) ?? null;
      if (ours === theirs) return { kind: 'up-to-date', commit: theirs, incoming: 0, merged: 0 };
      if (ours && this.ancestors(ours).has(theirs)) return { kind: 'up-to-date', commit: ours, incoming: 0, merged: 0 };
      const diff = (ours ? this.diffNotes(ours, theirs) : this.listNotes(theirs).map((n) => ({ ...n, oldBlob: null }))).filter((d) => d.blob);
      const notes = new Map(ours ? this.commit(ours).notes : []);
      let incoming = 0;
      let merged = 0;
      for (const d of diff) {
        const oursBytes = d.oldBlob ? this.blobs.get(d.oldBlob)! : null;
        const theirBytes = this.blobs.get(d.blob!)!;
        const result = mergeNote(d.object, oursBytes, theirBytes);
        incoming += result.incoming;
        merged += result.merged;
        if (result.text === oursBytes) continue;
        notes.set(d.object, result.text === theirBytes ? d.blob! : this.writeBlob(Buffer.from(result.text)));
      }
      const fastForward = !ours || this.ancestors(theirs).has(ours);
      const commit = fastForward ? theirs : this.writeCommit([ours, theirs], notes);
      if ((this.refs.get(namespace) ?? null) !== ours) continue;
      this.refs.set(namespace, commit);
      return { kind: fastForward ? 'fast-forward' : 'merged', commit, incoming, merged };
    }
  }

  private commit(id: string): Commit {
    const c = this.commits.get(id);
    if (!c) throw new Error(`no notes commit ${id}`);
    return c;
  }

  private ancestors(id: string): Set<string> {
    const seen = new Set<string>();
    const todo = [id];
    while (todo.length) {
      const c = todo.pop()!;
      if (seen.has(c)) continue;
      seen.add(c);
      todo.push(...this.commit(c).parents);
    }
    return seen;
  }

  private writeBlob(content: Buffer): string {
    const id = createHash('sha1').update(`blob ${content.length}\0`).update(content).digest('hex');
    this.blobs.set(id, content);
    return id;
  }

  private writeCommit(parents: string[], notes: Map<string, string>): string {
    const id = randomBytes(20).toString('hex');
    this.commits.set(id, { parents, notes });
    return id;
  }
}

function sameNotes(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);
}

/**
 * The index: what services read memories through. It keeps two caches of the
 * notes in the git common dir (docs/index.md) and decides which answers:
 *
 * - the term index (terms.idx, and terms.add appended since) for current
 *   memories: search, listing, counts. It catches up without sql.js when the
 *   notes only gained memories (terms/catch-up.ts);
 * - the SQLite index (index.sqlite, sql.js, loaded only when asked) for what
 *   only the revisions know: ids, copies, semantic candidates, tombstones.
 *
 * Services never choose a file: they ask this.
 */
import type { Memory, IdQuery, Status } from '../../core/memory.ts';
import type { LexicalOptions } from '../../core/search/lexical.ts';
import type { LexicalQuery } from '../../core/search/query.ts';
import type { TermMatch } from '../../core/search/bm25f.ts';
import type { NotesStore } from '../git/notes-store.ts';
import type { MemDir } from '../cache/mem-dir.ts';
import type { SearchFilter } from './filter.ts';
import type { RevisionIndex, RefreshOptions } from './revisions/revision-index.ts';
import { type IdCandidate, indexedIdCandidates } from './revisions/id-completion.ts';
export type { IdCandidate } from './revisions/id-completion.ts';
import { catchUp, readTermIndex, type TermFiles } from './terms/catch-up.ts';
import { buildTermIndex } from './terms/build.ts';
import { overlayFileOf } from './terms/format.ts';
import { TermIndex } from './terms/reader.ts';

export type { RefreshOptions } from './revisions/revision-index.ts';

/** Current memories, as a reader sees them (the term index, with its overlay). */
export interface MemoryReader {
  /** Current memories. */
  readonly memoryCount: number;
  readonly termCount: number;
  /** `<namespace>:<key>` → the objects a memory has copies on, when more than one. */
  readonly copies: ReadonlyMap<string, readonly string[]>;
  /** Ranked lexical search, best first, at most `filter.limit`. */
  search(query: LexicalQuery, filter?: SearchFilter, options?: LexicalOptions, explain?: boolean): Array<{ memory: Memory; score: number; matches?: TermMatch[] }>;
  /** Newest first (ties by key), at most `filter.limit`. */
  list(filter?: SearchFilter): Memory[];
  /** Current memories per namespace. */
  counts(): Map<string, number>;
  /** Namespace, status and creation time of every current memory, without reading the memories. */
  facts(): Array<{ namespace: string; status: Status; created: number }>;
  /** The first 32 bits (terms/format.ts objectKey) of the object of every current memory, without reading the memories. */
  objectPrefixes(): Set<number>;
  /** The objects of the current memories whose object's first 32 bits are among `prefixes`. */
  objectsWithPrefixes(prefixes: ReadonlySet<number>): string[];
  /** Whether the notes may hold this key already (any revision, or a tombstone); false means surely not. */
  mayHoldKey(key: string): boolean;
  /** Whether the notes may hold more of this key than its current memory (other revisions, copies, a tombstone); false means surely not. */
  mayHaveRevisions(key: string): boolean;
  /** Current memories by id (a key prefix, perhaps a namespace and a commit hint), by key, at most 20. */
  find(query: IdQuery): Memory[];
  /** The first `limit` current memories, in the order of `keys`, with one of these keys, passing the filter and `accept`. */
  firstWithKeys(keys: readonly string[], filter: SearchFilter, limit: number, accept?: (memory: Memory) => boolean): Memory[];
  /** Whether it reflects the notes refs at these tips. */
  reflects(tips: Record<string, string>): boolean;
  /** Releases its file descriptors. */
  close(): void;
}

/** A memory as shown: naming the copy chosen for it (services/history/anchors.ts) as its object. */
function anchored(memory: Memory, anchors: () => ReadonlyMap<string, string>): Memory {
  const anchor = anchors().get(`${memory.namespace}:${memory.key}`);
  return anchor && anchor !== memory.object ? { ...memory, object: anchor } : memory;
}

/** The term index with each memory it returns anchored: the one place where anchors are applied. */
class AnchoredReader implements MemoryReader {
  constructor(
    private readonly terms: TermIndex,
    private readonly anchors: () => ReadonlyMap<string, string>,
  ) {}
  get memoryCount() {
    return this.terms.memoryCount;
  }
  get termCount() {
    return this.terms.termCount;
  }
  get copies() {
    return this.terms.copies;
  }
  search(query: LexicalQuery, filter?: SearchFilter, options?: LexicalOptions, explain?: boolean) {
    return this.terms.search(query, filter, options, explain).map((hit) => ({ ...hit, memory: anchored(hit.memory, this.anchors) }));
  }
  list(filter?: SearchFilter): Memory[] {
    return this.terms.list(filter).map((m) => anchored(m, this.anchors));
  }
  find(query: IdQuery): Memory[] {
    return this.terms.find(query).map((m) => anchored(m, this.anchors));
  }
  firstWithKeys(keys: readonly string[], filter: SearchFilter, limit: number, accept?: (memory: Memory) => boolean): Memory[] {
    return this.terms.firstWithKeys(keys, filter, limit, accept).map((m) => anchored(m, this.anchors));
  }
  counts() {
    return this.terms.counts();
  }
  facts() {
    return this.terms.facts();
  }
  objectPrefixes() {
    return this.terms.objectPrefixes();
  }
  objectsWithPrefixes(prefixes: ReadonlySet<number>) {
    return this.terms.objectsWithPrefixes(prefixes);
  }
  mayHoldKey(key: string) {
    return this.terms.mayHoldKey(key);
  }
  mayHaveRevisions(key: string) {
    return this.terms.mayHaveRevisions(key);
  }
  reflects(tips: Record<string, string>) {
    return this.terms.reflects(tips);
  }
  close() {
    this.terms.close();
  }
}

export interface IndexStats {
  /** Current memories per namespace. */
  namespaces: Map<string, number>;
  memories: number;
  /** Stored revisions (a memory can have older ones from merges or rebases) and tombstones. */
  revisions: number;
  tombstones: number;
  /** Whether opening it read anything from the notes. */
  updated: boolean;
  /** Whether the files hold what this says (false: built in memory, the folder unwritable or its lock held elsewhere). */
  written: boolean;
}

export interface IndexOptions {
  notes: NotesStore;
  /** The cache folder (stores/cache/mem-dir.ts): index.sqlite, and the term index (terms.idx, terms.add) beside it; when it cannot be written, both are kept in memory. */
  dir: MemDir;
  /** The copy of each memory to show, `<namespace>:<key>` → object, chosen from its copies (services/history/anchors.ts). */
  anchors: (copies: ReadonlyMap<string, readonly string[]>) => ReadonlyMap<string, string>;
  /** One-line notices (a rebuilt index, skipped notes). */
  notice: (message: string) => void;
}

/** The term index caught up by appending, or null when it cannot be (a damaged file too: the full path rebuilds it). */
function appended(catchUp: () => TermIndex | null): TermIndex | null {
  try {
    return catchUp();
  } catch {
    return null;
  }
}

export class Index {
  private revisionsOpen?: Promise<RevisionIndex>;
  private currentOpen?: Promise<MemoryReader>;
  /** The term index once opened, by current() (anchored) or asIs() (as stored). */
  private opened?: MemoryReader | null;
  private anchorsChosen?: ReadonlyMap<string, string>;

  constructor(private readonly options: IndexOptions) {}

  /** A reader of these memories alone, in memory (`recall --at`: the notes as they were). */
  static ofMemories(memories: readonly Memory[]): MemoryReader {
    const bytes = buildTermIndex({ tips: {}, generation: 'memories', copies: {} }, memories.map((_, i) => i + 1), null, (ids) => ids.map((rowid) => ({ rowid, memory: memories[rowid - 1]! })));
    return TermIndex.fromBytes(bytes);
  }

  private get file(): string {
    return this.options.dir.file('index');
  }

  get termFile(): string {
    return this.options.dir.file('terms');
  }

  private get termFiles(): TermFiles {
    return { termFile: this.termFile, overlayFile: overlayFileOf(this.termFile), lockFile: `${this.file}.lock`, writable: () => this.options.dir.writable() };
  }

  /**
   * Current memories, caught up with the notes refs: the term index as it is
   * when it matches them; appended to, without sql.js, when the notes only
   * gained memories; else brought up to date by the SQLite index. Read once per process.
   */
  current(): Promise<MemoryReader> {
    this.currentOpen ??= (async () => {
      const terms = await (async () => {
        // The SQLite index already open has checked the refs: ask it, with no second look at them.
        if (this.revisionsOpen) return (await this.revisionsOpen).termIndex();
        const file = TermIndex.read(this.termFile);
        const tips = Object.fromEntries(this.options.notes.tips());
        if (file?.reflects(tips)) return file;
        const advanced = file && appended(() => catchUp(file, this.options.notes, tips, this.termFiles));
        if (advanced) return advanced;
        file?.close();
        return (await this.revisions()).termIndex();
      })();
      const reader = new AnchoredReader(terms, this.anchorMap(terms.copies));
      this.opened = reader;
      return reader;
    })();
    return this.currentOpen;
  }

  /**
   * Current memories as the files hold them, without catching up with the
   * notes (null when there are none): for the write path, where a capture links
   * to what was indexed rather than pay for a catch-up, and for doctor.
   */
  asIs(): MemoryReader | null {
    if (this.opened === undefined) this.opened = readTermIndex(this.termFiles);
    return this.opened;
  }

  /** Starts loading sql.js, for a caller that will soon need the SQLite index (it overlaps other work). */
  prepare(): void {
    import('./sqljs.ts')
      .then((m) => m.loadSqlJs())
      .catch(() => {});
  }

  /** The SQLite index, caught up with the notes refs. sql.js is loaded only here; `refresh` applies to the first call. */
  private revisions(refresh?: RefreshOptions): Promise<RevisionIndex> {
    this.revisionsOpen ??= import('./revisions/revision-index.ts').then(async ({ RevisionIndex }) => {
      const index = await RevisionIndex.open({ file: this.file, termFile: this.termFile, notes: this.options.notes, notice: this.options.notice, writable: () => this.options.dir.writable() }, refresh);
      return index;
    });
    return this.revisionsOpen;
  }

  /**
   * Brings both caches up to date with the notes (`rebuild`: from scratch,
   * with `progress`), and says what they hold. The SQLite index is opened once
   * a process, and caught up then: the options count on the first call.
   */
  async refresh(options: RefreshOptions = {}): Promise<IndexStats> {
    const index = await this.revisions(options);
    // The term index too: it may be missing or stale while the SQLite index is current.
    index.termIndex();
    return this.stats();
  }

  async stats(): Promise<IndexStats> {
    const index = await this.revisions();
    return { ...index.stats(), ...index.opened };
  }

  /** Current memories whose key starts with the query's key prefix (a commit prefix narrows ambiguous ones). */
  async find(query: IdQuery): Promise<Memory[]> {
    return (await this.current()).find(query);
  }

  /** Current memories by row id (as candidates() gives them), in that order; ids no longer present are skipped. */
  async byIds(ids: readonly number[]): Promise<Memory[]> {
    const index = await this.revisions();
    const anchors = this.anchorMap(index.copies());
    return index.byIds(ids).map((m) => anchored(m, anchors));
  }

  /** Semantic search's candidates: current memories matching the filter, with the hash of the text it embeds. */
  async candidates(filter: SearchFilter): Promise<Array<{ id: number; key: string; hash: string }>> {
    return (await this.revisions()).embeddingCandidates(filter);
  }

  /** Current memories that carry lifecycle links (consolidations, supersessions, reprieves). */
  async withLifecycle(): Promise<Memory[]> {
    return (await this.revisions()).withLifecycle();
  }

  /** Every object holding a revision of the memory (its copies), in object order. */
  async copiesOf(namespace: string, key: string): Promise<string[]> {
    const current = await this.current();
    // A key with one revision: that memory's object (the term index knows it); else the revisions say.
    if (!current.mayHaveRevisions(key)) return current.find({ namespace, keyPrefix: key }).filter((m) => m.key === key).map((m) => m.object);
    return (await this.revisions()).copiesOf(namespace, key);
  }

  /** Every stored document (each revision, each tombstone) by namespace, key and object: where copies sit. */
  async documents(): Promise<Array<{ namespace: string; key: string; object: string; created: string; paths: string[] }>> {
    return (await this.revisions()).documents();
  }

  /** Memories whose copies on several objects hold different revisions, or a tombstone beside a revision. */
  async divergentCopies(): Promise<Array<{ namespace: string; key: string; objects: string[] }>> {
    return (await this.revisions()).divergentCopies();
  }

  /** Which of these keys the notes hold, as a memory or a tombstone, on any commit: `<namespace>:<key>`. */
  async presentKeys(keys: readonly string[]): Promise<Set<string>> {
    return (await this.revisions()).presentKeys(keys);
  }

  /**
   * Ids for shell completion, from the SQLite index file in the repository's
   * cache folder, as it is: no catching up, no sql.js, no notes read
   * (completion does not wait for them).
   */
  static idCandidates(dir: MemDir, prefix: string, max: number): Promise<IdCandidate[]> {
    return indexedIdCandidates(dir.file('index'), prefix, max);
  }

  /** Memories and tombstones stored in a namespace's notes, every revision counted. */
  async documentCount(namespace: string): Promise<number> {
    return (await this.revisions()).documentCount(namespace);
  }

  /** Which copy of each memory to show, worked out once per process, the first time a memory is shown (a command that shows none never groups rows by memory). */
  private anchorMap(copies: ReadonlyMap<string, readonly string[]>): () => ReadonlyMap<string, string> {
    return () => (this.anchorsChosen ??= this.options.anchors(copies));
  }

  /** Releases what was opened (file descriptors, the SQLite database): for a process that serves many requests. */
  async close(): Promise<void> {
    this.opened?.close();
    const revisions = this.revisionsOpen;
    this.opened = undefined;
    this.anchorsChosen = undefined;
    this.currentOpen = undefined;
    this.revisionsOpen = undefined;
    if (revisions) (await revisions.catch(() => null))?.close();
  }
}

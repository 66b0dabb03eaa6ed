/** What a command needs, built lazily so that a command pays only for what it uses. */
import path from 'node:path';
import type { Io } from './io/io.ts';
import { type Progress, progressBar } from './io/progress.ts';
import type { Settings } from './services/settings.ts';
import { chooseAnchors } from './services/anchors.ts';
import { loadSettings } from './services/settings.ts';
import type { MemoryIndex, RefreshOptions } from './stores/index/memory-index.ts';
import { TermIndex } from './stores/index/term-index.ts';
import { catchUpByAdding, readTermIndex, type TermFiles } from './stores/index/term-catchup.ts';
import { overlayFileOf } from './stores/index/term-index-format.ts';
import { GitNotesStore, type NotesStore } from './stores/git/notes-store.ts';
import { Git } from './stores/git/git.ts';
import { openRepo, type Repo } from './stores/git/repo.ts';

export class AppContext {
  private cachedRepo?: Repo;
  private cachedSettings?: Settings;
  private cachedNotes?: NotesStore;
  private cachedIndex?: Promise<MemoryIndex>;
  private cachedTermIndex?: Promise<TermIndex>;
  /** The term index once opened (by termIndex() or termIndexAsIs()), for synchronous readers. */
  private openTermIndex?: TermIndex | null;

  constructor(
    readonly cwd: string,
    readonly env: NodeJS.ProcessEnv,
    readonly io: Io,
    readonly now: () => Date = () => new Date(),
  ) {}

  progress(label: string, unit: string): Progress {
    return progressBar(this.io, label, unit);
  }

  get repo(): Repo {
    this.cachedRepo ??= openRepo(this.cwd, this.env);
    return this.cachedRepo;
  }

  /** Settings work outside a repository too (the global config), for the commands that need none. */
  get settings(): Settings {
    if (!this.cachedSettings) {
      let git: Git;
      try {
        git = this.repo.git;
      } catch {
        git = new Git(this.cwd, this.env);
      }
      this.cachedSettings = loadSettings(git, this.env, this.cwd);
    }
    return this.cachedSettings;
  }

  get notes(): NotesStore {
    this.cachedNotes ??= new GitNotesStore(this.repo, () => this.settings.committerIdent);
    return this.cachedNotes;
  }

  get indexFile(): string {
    return path.join(this.repo.commonDir, 'mem', 'index.sqlite');
  }

  get termIndexFile(): string {
    return path.join(this.repo.commonDir, 'mem', 'terms.idx');
  }

  /**
   * The current memories for lexical search and listing (the term index).
   * When its file matches the notes refs it is used as it is, without
   * loading sql.js; otherwise the index catches up first and brings it up to
   * date. Like index(), read once per process.
   */
  termIndex(): Promise<TermIndex> {
    this.cachedTermIndex ??= (async () => {
      const terms = await (async () => {
        // The index already open has checked the refs: ask it, with no second look at them.
        if (this.cachedIndex) return (await this.cachedIndex).termIndex();
        const file = TermIndex.read(this.termIndexFile);
        const tips = Object.fromEntries(this.notes.tips());
        if (file?.reflects(tips)) return file;
        // Only new memories since: appended to the term index, without sql.js (stores/index/term-catchup.ts).
        const advanced = file && catchUpByAdding(file, this.notes, tips, this.termFiles);
        if (advanced) return advanced;
        file?.close();
        return (await this.index()).termIndex();
      })();
      terms.anchors = chooseAnchors(this.repo, terms.copies);
      this.openTermIndex = terms;
      return terms;
    })();
    return this.cachedTermIndex;
  }

  termIndexAsIs(): TermIndex | null {
    if (this.openTermIndex === undefined) this.openTermIndex = readTermIndex(this.termFiles);
    return this.openTermIndex;
  }

  private get termFiles(): TermFiles {
    return { termFile: this.termIndexFile, overlayFile: overlayFileOf(this.termIndexFile), lockFile: `${this.indexFile}.lock` };
  }

  /**
   * The index, caught up with the notes refs. sql.js is loaded only here.
   * `refresh` (a forced rebuild, a progress callback) applies to the first call, which opens it.
   */
  index(refresh?: RefreshOptions): Promise<MemoryIndex> {
    this.cachedIndex ??= import('./stores/index/memory-index.ts').then(async ({ MemoryIndex }) => {
      const index = await MemoryIndex.open({ file: this.indexFile, termFile: this.termIndexFile, notes: this.notes, notice: (m) => this.io.err(`git-mem: ${m}`) }, refresh);
      index.anchors = chooseAnchors(this.repo, index.copies());
      return index;
    });
    return this.cachedIndex;
  }
}

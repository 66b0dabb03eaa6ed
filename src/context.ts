/** What a command needs, built lazily so that a command pays only for what it uses. */
import type { Io } from './io/io.ts';
import { type Progress, progressBar } from './io/progress.ts';
import type { Settings } from './services/settings.ts';
import { chooseAnchors } from './services/history/anchors.ts';
import { notesIdent } from './services/capture.ts';
import { loadSettings } from './services/settings.ts';
import { Index } from './stores/index/index.ts';
import { GitNotesStore, type NotesStore } from './stores/git/notes-store.ts';
import { Git } from './stores/git/git.ts';
import { openRepo, type Repo } from './stores/git/repo.ts';

export class AppContext {
  private cachedRepo?: Repo;
  private cachedSettings?: Settings;
  private cachedNotes?: NotesStore;
  private cachedIndex?: Index;

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
    if (!this.cachedRepo) {
      this.cachedRepo = openRepo(this.cwd, this.env);
      // A cache folder that cannot be used: said once, when the command first uses it; the command goes on.
      this.cachedRepo.mem.onProblem = (p, fallback) =>
        this.io.err(`git-mem: ${p.message}; ${fallback ? `keeping the cache in ${fallback} meanwhile` : 'working from the notes without the cache'} (fix: ${p.fix})`);
    }
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
    this.cachedNotes ??= new GitNotesStore(this.repo, () => notesIdent(this), () => this.settings.sign);
    return this.cachedNotes;
  }

  get indexFile(): string {
    return this.repo.mem.file('index');
  }

  get termIndexFile(): string {
    return this.repo.mem.file('terms');
  }

  /** Releases the caches opened for this context (the MCP server makes one a request). */
  async close(): Promise<void> {
    await this.cachedIndex?.close();
  }

  /** The caches of the notes (stores/index/index.ts), opened as they are first asked. */
  get index(): Index {
    this.cachedIndex ??= new Index({
      notes: this.notes,
      dir: this.repo.mem,
      anchors: (copies) => chooseAnchors(this.repo, copies),
      notice: (m) => this.io.err(`git-mem: ${m}`),
    });
    return this.cachedIndex;
  }
}

/**
 * What the services are given: each file names the parts it uses
 * (`Pick<Deps, 'notes' | 'settings'>`), so a service's needs are read from its
 * signature and a test can hand it just those (test/fakes for the stores).
 * AppContext (src/context.ts) provides them all, built lazily.
 */
import type { Io } from '../io/io.ts';
import type { Progress } from '../io/progress.ts';
import type { NotesStore } from '../stores/git/notes-store.ts';
import type { Repo } from '../stores/git/repo.ts';
import type { Index } from '../stores/index/index.ts';
import type { Settings } from './settings.ts';

export interface Deps {
  /** Where the command runs, and its environment. */
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Notices and progress (stderr); services print no data. */
  readonly io: Io;
  readonly repo: Repo;
  readonly notes: NotesStore;
  readonly settings: Settings;
  /** The cache files, for the services that report on them. */
  readonly indexFile: string;
  readonly termIndexFile: string;
  /** The clock. */
  now(): Date;
  /** A progress bar for work that may take more than a second (drawn on a terminal only). */
  progress(label: string, unit: string): Progress;
  /** The caches of the notes: every read of memories through them goes here (stores/index/index.ts). */
  readonly index: Index;
}

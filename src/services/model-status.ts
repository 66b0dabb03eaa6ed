/**
 * The embedding model's state, for `git mem doctor` and `git mem stats`:
 * where the model is and whether it is complete, without loading or fetching it.
 */
import type { Deps } from './deps.ts';

/** What this file's services use. */
export type ModelStatusDeps = Deps;
import { describeModel } from './model.ts';

export interface ModelStatus {
  /** ready: present and loadable; missing: configured but not on disk; not-configured: no model to use. */
  state: 'ready' | 'missing' | 'not-configured';
  detail: string;
  /** Where the model is or would be. */
  location: string | null;
}

export function modelStatus(ctx: ModelStatusDeps): ModelStatus {
  return describeModel(ctx);
}

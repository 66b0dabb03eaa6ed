/**
 * The embedding model's state, for `git mem doctor` and `git mem stats`:
 * where the model is and whether it is complete, without loading or fetching it.
 */
import type { Deps } from '../deps.ts';
import { describeModel } from './model.ts';

/** What this file's services use. */
export type ModelStatusDeps = Deps;

export interface ModelStatus {
  /** ready: every file present; missing: some are not (`detail` names them, as `git mem model status` does). */
  state: 'ready' | 'missing';
  detail: string;
  /** Where the model is or would be. */
  location: string | null;
}

export function modelStatus(ctx: ModelStatusDeps): ModelStatus {
  return describeModel(ctx);
}

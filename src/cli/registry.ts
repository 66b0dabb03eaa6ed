/**
 * Every command the user can type, in the order `git mem --help` lists them,
 * and the root's own texts and options. yargs (cli/index.ts), the fast help
 * (cli/help.ts), the man page and the shell completions (src/docs/) all read
 * this one list, so they cannot drift apart: add a command here and all four
 * follow.
 */
import type { AppContext } from '../context.ts';
import { blameCommand } from './commands/blame.ts';
import { captureCommand } from './commands/capture.ts';
import { configCommand } from './commands/config.ts';
import { consolidateCommand } from './commands/consolidate.ts';
import { doctorCommand } from './commands/doctor.ts';
import { editCommand, resolveCommand } from './commands/edit.ts';
import { forgetCommand } from './commands/forget.ts';
import { reviewCommand } from './commands/review.ts';
import { gcCommand } from './commands/gc.ts';
import { hookCommand } from './commands/hook.ts';
import { hydrateCommand } from './commands/hydrate.ts';
import { indexCommand } from './commands/index-cmd.ts';
import { initCommand } from './commands/init.ts';
import { listCommand } from './commands/list.ts';
import { logCommand } from './commands/log.ts';
import { mcpCommand } from './commands/mcp.ts';
import { modelCommand } from './commands/model.ts';
import { namespacesCommand } from './commands/namespaces.ts';
import { reanchorCommand } from './commands/reanchor.ts';
import { recallCommand } from './commands/recall.ts';
import { relatedCommand } from './commands/related.ts';
import { showCommand } from './commands/show.ts';
import { statsCommand } from './commands/stats.ts';
import { uiCommand } from './commands/ui.ts';
import { pullCommand, pushCommand, syncCommand } from './commands/sync.ts';
import { verifyPushCommand } from './commands/verify-push.ts';
import { exportCommand, importCommand } from './commands/transfer.ts';
import { type AnyCommand, type CliSpec, cliSpec } from './spec.ts';



export function commandModules(ctx: AppContext): AnyCommand[] {
  return [
    captureCommand(ctx),
    showCommand(ctx),
    listCommand(ctx),
    editCommand(ctx),
    resolveCommand(ctx),
    forgetCommand(ctx),
    reviewCommand(ctx),
    relatedCommand(ctx),
    consolidateCommand(ctx),
    gcCommand(ctx),
    reanchorCommand(ctx),
    namespacesCommand(ctx),
    recallCommand(ctx),
    hydrateCommand(ctx),
    blameCommand(ctx),
    uiCommand(ctx),
    logCommand(ctx),
    indexCommand(ctx),
    modelCommand(ctx),
    exportCommand(ctx),
    importCommand(ctx),
    initCommand(ctx),
    pullCommand(ctx),
    pushCommand(ctx),
    syncCommand(ctx),
    verifyPushCommand(ctx),
    hookCommand(ctx),
    mcpCommand(ctx),
    doctorCommand(ctx),
    configCommand(ctx),
    statsCommand(ctx),
  ];
}

export const SCRIPT_NAME = 'git mem';
export const ROOT_DESCRIPTION = 'Persistent, searchable memory for AI coding agents, stored in git notes (refs/notes/mem/<namespace>).';
export const ROOT_EPILOGUE = 'Exit codes: 0 ok, 1 error, 2 bad usage or input.';

/** Options every command takes (besides --help and --version, which yargs adds). */
export const GLOBAL_OPTIONS = {
  color: { type: 'boolean', describe: 'Colour: --color forces it, --no-color turns it off (default: on a terminal, unless NO_COLOR is set)' },
} as const;

/**
 * Handed to the command modules when only their declarations are wanted (help, man page,
 * completions): builders must not read the context, and doing so fails loudly.
 */
export const DECLARATIONS_ONLY = new Proxy({} as AppContext, {
  get: (_t, prop) => {
    throw new Error(`a command builder read ctx.${String(prop)}; builders must not depend on the repository (help and the docs are built without one)`);
  },
});

/** The whole command line as data (see cli/spec.ts). `ctx` is only handed to the modules; building the spec runs no handler. */
export function buildCliSpec(ctx: AppContext = DECLARATIONS_ONLY): CliSpec {
  return cliSpec(commandModules(ctx), { scriptName: SCRIPT_NAME, describe: ROOT_DESCRIPTION, epilogue: ROOT_EPILOGUE, globalOptions: GLOBAL_OPTIONS });
}

import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { pull, push, resolveRemote, type SyncCounts } from '../../services/sync.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface SyncArgs {
  remote?: string;
  fetch: boolean;
  verify: boolean;
  json: boolean;
}

function summary(action: string, remote: string, c: SyncCounts): string {
  const merged = c.merged ? `, ${c.merged} merged` : '';
  const commits = c.mergeCommits ? ` (${c.mergeCommits} merge commit${c.mergeCommits === 1 ? '' : 's'})` : '';
  const moved = c.reanchored ? `; ${c.reanchored} moved off rewritten commits (git mem reanchor)` : '';
  const converged = c.converged ? `; ${c.converged} forgotten or edited on every copy` : '';
  return `${action} ${remote}: ${c.incoming} in, ${c.outgoing} out${merged}${commits}${moved}${converged}`;
}

const verifyOption = {
  type: 'boolean',
  default: true,
  describe: 'Scan the notes to be pushed for secrets (the redaction rules, whoever wrote the note) and refuse the push if one holds any; --no-verify pushes anyway',
} as const;

const remoteArg = { type: 'string', describe: "Remote (default: the current branch's upstream remote, else origin)" } as const;

/** The three commands take the same words: a remote, and --fetch or --verify where they have it. */
function parseSync(argv: SyncArgs) {
  return { remote: argv.remote, fetch: argv.fetch, verify: argv.verify, json: argv.json };
}

function renderSync(ctx: AppContext, action: string, { remote, counts }: { remote: string; counts: SyncCounts }, o: { json: boolean }): void {
  ctx.io.out(o.json ? json({ remote, ...counts }) : summary(action, remote, counts));
}

export function pullCommand(ctx: AppContext) {
  return defineCommand({
    command: 'pull [remote]',
    describe: "Fetch the remote's memories and merge them, memory by memory",
    builder: (y) =>
      y
        .positional('remote', remoteArg)
        .option('fetch', { type: 'boolean', default: true, describe: 'Fetch first; --no-fetch merges what git fetch already brought (needs git mem init)' })
        .option('json', jsonOption) as never,
    parse: parseSync,
    run: async (o) => {
      const remote = resolveRemote(ctx.repo, o.remote);
      return { remote: remote.spec, counts: await pull(ctx, remote, { fetch: o.fetch }) };
    },
    render: (r, o) => renderSync(ctx, 'pull', r, o),
  });
}

export function pushCommand(ctx: AppContext) {
  return defineCommand({
    command: 'push [remote]',
    describe: 'Push refs/notes/mem/*; if the remote moved, pull, merge and retry (never forced)',
    builder: (y) => y.positional('remote', remoteArg).option('verify', verifyOption).option('json', jsonOption) as never,
    parse: parseSync,
    run: async (o) => {
      const remote = resolveRemote(ctx.repo, o.remote);
      return { remote: remote.spec, counts: await push(ctx, remote, { verify: o.verify }) };
    },
    render: (r, o) => renderSync(ctx, 'push', r, o),
  });
}

export function syncCommand(ctx: AppContext) {
  return defineCommand({
    command: 'sync [remote]',
    describe: 'Pull, then push: both sides end with every memory',
    builder: (y) => y.positional('remote', remoteArg).option('verify', verifyOption).option('json', jsonOption) as never,
    parse: parseSync,
    run: async (o) => {
      const remote = resolveRemote(ctx.repo, o.remote);
      const pulled = await pull(ctx, remote, { fetch: true });
      const pushed = await push(ctx, remote, { verify: o.verify });
      const counts: SyncCounts = {
        incoming: pulled.incoming + pushed.incoming,
        outgoing: pushed.outgoing,
        merged: pulled.merged + pushed.merged,
        mergeCommits: pulled.mergeCommits + pushed.mergeCommits,
        reanchored: (pulled.reanchored ?? 0) + (pushed.reanchored ?? 0),
        converged: (pulled.converged ?? 0) + (pushed.converged ?? 0),
      };
      return { remote: remote.spec, counts };
    },
    render: (r, o) => renderSync(ctx, 'sync', r, o),
  });
}

import type { ChalkInstance } from 'chalk';
import type { AppContext } from '../../context.ts';
import { json } from '../../render/render.ts';
import { UsageError } from '../../core/errors.ts';
import { type ManualMoveResult, moveMemories, reanchor, type ReanchorResult } from '../../services/history/reanchor.ts';
import { jsonOption } from '../shared.ts';
import { defineCommand } from '../command.ts';

interface ReanchorArgs {
  ids?: string[];
  to?: string;
  'dry-run': boolean;
  quiet: boolean;
  json: boolean;
}

/** A run over every memory, or a move by hand of some onto a commit. */
interface ReanchorOptions {
  move?: { ids: string[]; to: string };
  dryRun: boolean;
  quiet: boolean;
  json: boolean;
}

export function reanchorCommand(ctx: AppContext) {
  return defineCommand({
    command: 'reanchor [ids..]',
    describe: 'Move memories from commits no branch reaches any more onto the commits that now hold their change',
    builder: (y) =>
      y
        .positional('ids', { type: 'string', array: true, describe: 'Memories to move by hand onto the commit --to names (every copy of each)' })
        .option('to', { type: 'string', describe: 'With ids: the commit to move them onto (any revision: a branch, a tag, an id)' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'Say what would move; write nothing' })
        .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'Print only the memories left behind, unmatched or missing (for git hooks)' })
        .option('json', jsonOption)
        .example('git mem reanchor --dry-run', 'After a squash merge and deleting the branch: where would its memories go?')
        .example('git mem reanchor decisions:ce48688:7f3a9c2e1b --to main', 'Move a memory left on a commit that is gone onto the tip of main')
        .epilogue(
          'A commit is orphaned when HEAD, no branch, remote-tracking branch or tag reaches it: gc will drop it and git notes prune the memories on it. ' +
            'A memory with another copy on a live commit keeps that one (with its newest revision); otherwise its commit is matched among the live commits: ' +
            'by patch-id, then by a squash message that names it or lists its subject, then by the files it changed (recorded at capture), ' +
            'among the live commits newer than it that touch its files. ' +
            'Memories left behind stay where they are and are listed: unmatched (on a commit no branch reaches), missing (yours, on a commit this clone no longer has, e.g. pruned by gc); ' +
            "a teammate's memories on commits not fetched here are counted. " +
            'git mem init installs git hooks that run this in the background: post-rewrite (amend, rebase), post-merge, and reference-transaction, ' +
            'a second after a branch, remote-tracking branch or tag is deleted (git branch -D, git update-ref -d, git fetch --prune) or after a git reset; ' +
            'other rewinds (git branch -f, git update-ref to an older commit) are not seen there: their commits stay in the reflog (30 days by default), ' +
            'where the next run finds them (a pull, a merge, a rebase, a deletion, or this command). git mem pull runs it too. ' +
            'With ids and --to, those memories are moved by hand: every copy leaves its commit and the target gets the newest revision (git mem edit <id> --commit <rev> does the same for one).',
        ) as never,
    parse: (argv: ReanchorArgs): ReanchorOptions => {
      const ids = argv.ids ?? [];
      const base = { dryRun: argv['dry-run'], quiet: argv.quiet, json: argv.json };
      if (argv.to === undefined && !ids.length) return base;
      if (argv.to === undefined) throw new UsageError('give --to <commit> to move memories by hand', 'git mem reanchor <id>... --to <commit>');
      if (!ids.length) throw new UsageError('--to needs the ids of the memories to move', 'git mem reanchor <id>... --to <commit>');
      return { ...base, move: { ids, to: argv.to } };
    },
    run: async (o) => (o.move ? { manual: await moveMemories(ctx, o.move.ids, o.move.to, { dryRun: o.dryRun }) } : { run: await reanchor(ctx, { dryRun: o.dryRun }) }),
    render: (r, o) => {
      const text = r.manual
        ? o.json
          ? json(manualMoveJson(r.manual))
          : renderManualMove(r.manual, o.quiet, ctx.io.color)
        : o.json
          ? json(reanchorJson(r.run!))
          : renderReanchor(r.run!, o.quiet, ctx.io.color);
      if (text) ctx.io.out(text);
    },
  });
}

/** The --json shape of a reanchor run (stable for tools, whatever the service's own types become). */
export function reanchorJson(r: ReanchorResult) {
  return {
    dryRun: r.dryRun,
    converged: r.converged,
    moved: r.moved.map((m) => ({ id: m.id, namespace: m.namespace, key: m.key, from: m.from, to: m.to, via: m.via })),
    unmatched: r.unmatched.map((u) => ({ id: u.id, namespace: u.namespace, key: u.key, objects: u.objects })),
    missing: r.missing.map((u) => ({ id: u.id, namespace: u.namespace, key: u.key, objects: u.objects, mine: u.mine, pruned: u.pruned })),
  };
}

/** The --json shape of a move by hand. */
export function manualMoveJson(r: ManualMoveResult) {
  return { dryRun: r.dryRun, target: r.target, moved: r.moved.map((m) => ({ id: m.id, namespace: m.namespace, key: m.key, from: m.from, to: m.to, via: m.via })), already: r.already };
}

/** One line a memory moved by hand (or already there). */
export function renderManualMove(r: ManualMoveResult, quiet: boolean, c: ChalkInstance): string {
  if (quiet) return '';
  const short = (objects: readonly string[]) => objects.map((o) => o.slice(0, 7)).join(',');
  const verb = r.dryRun ? 'would move' : 'moved';
  return [
    ...r.moved.map((m) => `${verb} ${c.yellow(m.id)}  ${short(m.from)} -> ${short(m.to)}`),
    ...r.already.map((id) => c.dim(`${id} is already on ${r.target.slice(0, 7)}`)),
  ].join('\n');
}

/**
 * One line a moved memory, one a memory left behind (unmatched, or on a
 * commit of this user's that this clone lacks), and one for a teammate's
 * memories on commits not here (`quiet`: only the ones left behind).
 */
export function renderReanchor(r: ReanchorResult, quiet: boolean, c: ChalkInstance): string {
  const short = (objects: readonly string[]) => objects.map((o) => o.slice(0, 7)).join(',');
  const verb = r.dryRun ? 'would move' : 'moved';
  const lines = quiet ? [] : r.moved.map((m) => `${verb} ${c.yellow(m.id)}  ${short(m.from)} -> ${short(m.to)}  ${c.dim(`(${m.via})`)}`);
  if (!quiet && r.converged) lines.push(`${r.dryRun ? 'would give' : 'gave'} ${r.converged} ${r.converged === 1 ? "memory's" : "memories'"} copies on other commits its newest edit or forget`);
  for (const u of r.unmatched) lines.push(`${c.red('unmatched')} ${u.id}: its commit ${short(u.objects)} is on no branch and nothing matched it; it stays there`);
  for (const u of r.missing.filter((m) => m.mine || m.pruned)) {
    lines.push(`${c.red('missing')} ${u.id}: its commit ${short(u.objects)} is not in this clone (pruned?) and nothing matched it; it stays there until git notes prune drops it (move it: git mem reanchor ${u.id} --to <commit>)`);
  }
  const theirs = r.missing.filter((m) => !m.mine && !m.pruned).length;
  if (!quiet && theirs) lines.push(c.dim(`${theirs} ${theirs === 1 ? "teammate's memory" : "teammates' memories"} on commits this clone lacks (not fetched yet?) left alone`));
  if (!quiet && lines.length === 0) lines.push(c.dim('nothing to reanchor'));
  return lines.join('\n');
}

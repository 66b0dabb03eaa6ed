import type { AppContext } from '../../context.ts';
import { verifyPrePush } from '../../services/sync.ts';
import { defineCommand } from '../command.ts';

interface VerifyPushArgs {
  remote?: string;
  url?: string;
}

/** What the pre-push git hook runs (services/git-hooks.ts): git's arguments, and its input on stdin. */
export function verifyPushCommand(ctx: AppContext) {
  return defineCommand({
    command: 'verify-push [remote] [url]',
    describe: "Refuse a git push that sends a memory holding a secret (the pre-push git hook runs it, with git's input on stdin)",
    builder: (y) =>
      y
        .positional('remote', { type: 'string', describe: 'The remote pushed to, its name or URL (as git hands it to the hook)' })
        .positional('url', { type: 'string', describe: 'Its URL (unused: for the hook to pass its arguments on)' })
        .epilogue(
          'Reads lines <local ref> <local sha> <remote ref> <remote sha> (git help githooks, pre-push). Only refs under refs/notes/mem/ are looked at: the note blobs in the notes commits the remote does not have (its sha on the line, and what git mem last fetched or pushed) are scanned with the redaction rules, whoever wrote them. Exits 1 naming each memory and the kind of secret; git push --no-verify pushes anyway.',
        ) as never,
    parse: (argv: VerifyPushArgs) => ({ remote: argv.remote ?? 'origin' }),
    run: async (o) => verifyPrePush(ctx, o.remote, ctx.io.stdinIsTTY ? '' : await ctx.io.readStdin()),
    render: () => {},
  });
}

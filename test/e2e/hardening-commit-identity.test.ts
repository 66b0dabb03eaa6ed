/**
 * A secret in git's identity (user.name, user.email, GIT_COMMITTER_NAME) is
 * redacted in the notes commits git-mem writes, as it is in the memory's
 * `author`: a notes ref is pushed to the team like the notes themselves.
 */
import { describe, expect, it } from 'vitest';
import { git, makeRepo, memOk, sandbox } from './helpers.ts';

const STRIPE = `sk_live_${'DO1wQ9zX7v'.repeat(3)}`;
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;

/** Author and committer of every commit on the notes ref. */
function identities(dir: string, env: NodeJS.ProcessEnv): string[] {
  return git(dir, env, ['log', '--format=%an <%ae>%n%cn <%ce>', 'refs/notes/mem/decisions']).trim().split('\n');
}

describe('the identity of notes commits', () => {
  it('is redacted like the memory author, on capture, edit and forget', () => {
    const box = sandbox();
    const dir = makeRepo(box);
    git(dir, box.env, ['config', 'user.name', `Dev ${STRIPE}`]);
    git(dir, box.env, ['config', 'user.email', 'dev@example.com']);
    const id = memOk(dir, box.env, ['capture', 'decisions', 'Keep the vault']);
    memOk(dir, box.env, ['edit', id, '--summary', 'Keep the vault, rotated']);
    // The committer given in the environment, as CI sets it.
    memOk(dir, { ...box.env, GIT_COMMITTER_NAME: `Bot ${TOKEN}`, GIT_COMMITTER_EMAIL: 'bot@example.com' }, ['forget', id]);
    const who = identities(dir, box.env);
    expect(who).toHaveLength(6);
    for (const line of who) {
      expect(line).not.toContain(STRIPE);
      expect(line).not.toContain(TOKEN);
      expect(line).toMatch(/^(Dev|Bot) \[REDACTED:[a-z_]+\] <(dev|bot)@example\.com>$/);
    }
    expect(who[0]).toBe('Bot [REDACTED:github_token] <bot@example.com>');
    // The commit is still one git reads as usual.
    git(dir, box.env, ['fsck', '--no-dangling']);
  });
});

// Forms of secrets the third redaction corpus (test/fixtures/secrets3) added, through the binary: a
// captured memory holding them is written to the note without them.
import { describe, expect, it } from 'vitest';
import { git, makeRepo, mem, memOk, sandbox } from './helpers.ts';

describe('redaction of forms from the third corpus', () => {
  it('keeps a password said in German, a Go MySQL DSN and a session cookie out of the note', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    // Made from parts, so that no scanner takes this file for one holding secrets.
    const german = 'Falken' + 'stein_4471!';
    const dsn = 'Tq7#wLm2' + '9xPz';
    const session = 'l902yr7irs4s' + 'r5h4srooveyt';
    const body = [
      `Das Passwort für die Staging-DB ist ${german}`,
      `dsn := "svc_orders:${dsn}@tcp(10.4.2.9:3306)/orders"`,
      `Cookie: ASP.NET_SessionId=${session}; Path=/`,
    ].join('\n');
    const r = mem(repo, box.env, ['capture', 'learnings', 'Staging access', '-m', body]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/redacted 3 secret/);
    const note = git(repo, box.env, ['notes', '--ref=refs/notes/mem/learnings', 'show', 'HEAD']);
    for (const secret of [german, dsn, session]) expect(note).not.toContain(secret);
    expect(note).toContain('Das Passwort für die Staging-DB ist [REDACTED:password]');
    expect(note).toContain('@tcp(10.4.2.9:3306)/orders');
    const shown = JSON.parse(memOk(repo, box.env, ['show', r.stdout.trim(), '--json'])).body as string;
    expect(shown.split('\n')).toHaveLength(3);
    for (const secret of [german, dsn, session]) expect(shown).not.toContain(secret);
  });

  it('leaves a go.sum pseudo-version and a Solana address that its line names alone', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const body = [
      'github.com/kballard/go-shellquote v0.0.0-20180428030007-95032a82bc51 h1:Z9n2FFNUXsshfwJMBgNA0RU6/i7WVaAegv3PtuIHPMs=',
      'The program address is 9BvgVETSbpoccubSqkTZUuqaTaZVwPXzvhDi4ies88HN on devnet.',
    ].join('\n');
    const id = memOk(repo, box.env, ['capture', 'learnings', 'Pinned module and program', '-m', body]);
    expect(JSON.parse(memOk(repo, box.env, ['show', id, '--json'])).body).toBe(body);
  });
});

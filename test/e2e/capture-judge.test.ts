/**
 * mem.capture.with: an external judge of the Stop hook's suggestions, through the binary,
 * with real repositories and small judge scripts written here.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { base62, crc32 } from '../../src/core/redact/secret-checks.ts';
import { SessionWriter, text } from '../fixtures/transcripts.ts';
import { makeRepo, mem, memOk, type RunResult, type Sandbox, sandbox } from './helpers.ts';

// Each scores at the suggest tier (0.70-0.95), never at once (checked below without a judge).
const INDEX = 'We decided to keep the index in the git common dir because worktrees share it.';
const MIGRATIONS = 'Going forward, all database migrations must be tested on staging before they are merged.';
// Below the suggest tier but above JUDGE_FLOOR (0.3): a judge is asked about it, nothing else takes it.
const FLAKY = 'The flaky test was caused by the shared temp dir; each test now gets its own.';
// Below JUDGE_FLOOR: never a candidate.
const RAN = 'I ran the tests.';
// A real-format token: 30 characters and their CRC32 tail, as GitHub issues them (a failing tail is a look-alike, left alone).
const TOKEN_BODY = 'aBcDeFgHiJkLmNoPqRsTuVwXyZ0123';
const TOKEN = `ghp_${TOKEN_BODY}${base62(crc32(TOKEN_BODY), 6)}`;
const DEPLOYS = `We decided to use the staging token ${TOKEN} for deploys because prod is locked.`;
const TURN = ['Done: the index moved.', INDEX, MIGRATIONS, DEPLOYS, FLAKY, RAN].join('\n\n');

interface JudgeInput {
  version: number;
  event: string;
  instructions: string;
  namespaces: string[];
  candidates: Array<{ id: number; namespace: string; summary: string; body: string; confidence: number }>;
}

function stop(repo: string, env: NodeJS.ProcessEnv, message: string, session = 'sess-1', transcript = path.join(repo, '..', 'missing.jsonl')): RunResult {
  const input = { session_id: session, transcript_path: transcript, cwd: repo, hook_event_name: 'Stop', permission_mode: 'default', stop_hook_active: false, last_assistant_message: message };
  return mem(repo, env, ['hook', 'Stop'], { input: JSON.stringify(input) });
}

function memories(repo: string, env: NodeJS.ProcessEnv): Array<{ namespace: string; summary: string; body: string; source: string }> {
  return JSON.parse(memOk(repo, env, ['list', '--json']));
}

/** A judge script that saves what it was given (seen.json) and then runs `then`. */
function judge(box: Sandbox, name: string, then: string): { env: NodeJS.ProcessEnv; seen: string } {
  const seen = path.join(box.root, `${name}.seen.json`);
  const script = path.join(box.root, `${name}.sh`);
  fs.writeFileSync(script, `cat > '${seen}'\n${then}\n`);
  return { env: { ...box.env, GIT_MEM_CAPTURE_WITH: `sh '${script}'` }, seen };
}

function received(seen: string): JudgeInput {
  return JSON.parse(fs.readFileSync(seen, 'utf8')) as JudgeInput;
}

describe('mem.capture.with: an external judge at Stop', () => {
  it('without the setting, suggestions are not captured at Stop, as before', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const r = stop(repo, box.env, TURN);
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(memories(repo, box.env)).toEqual([]);
    expect(JSON.parse(memOk(repo, box.env, ['config', '--json'])).settings.find((s: { key: string }) => s.key === 'mem.capture.with')).toMatchObject({ value: '', source: 'default' });
  });

  it('captures exactly the candidates the judge keeps, and sends it the secrets redacted', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const { env, seen } = judge(box, 'first', `echo '{"keep":[0]}'`);
    const r = stop(repo, env, TURN);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    const input = received(seen);
    expect(input).toMatchObject({ version: 1, event: 'Stop' });
    expect(input.namespaces).toContain('decisions');
    // What to keep, how to answer: a general model CLI needs no prompt of its own.
    for (const namespace of ['decisions', 'learnings', 'blockers', 'patterns', 'progress']) expect(input.instructions).toContain(`(${namespace})`);
    expect(input.instructions).toContain('{"keep": [{"id": 0, "namespace": "decisions"}]}');
    expect(Object.keys(input)).toEqual(['version', 'event', 'instructions', 'namespaces', 'candidates']);
    expect(input.candidates.map((c) => c.id)).toEqual([0, 1, 2, 3]);
    expect(input.candidates.map((c) => c.body).sort()).toEqual([INDEX, MIGRATIONS, DEPLOYS.replace(TOKEN, '[REDACTED:github_token]'), FLAKY].sort());
    for (const c of input.candidates) expect(c.confidence >= 0.3 && c.confidence < 0.95, String(c.confidence)).toBe(true);
    // Strongest first: the statement below the suggest tier comes last.
    expect(input.candidates.at(-1)!.body).toBe(FLAKY);
    expect(input.candidates.at(-1)!.confidence).toBeLessThan(0.7);
    expect(fs.readFileSync(seen, 'utf8')).not.toContain(TOKEN);
    const first = input.candidates[0]!;
    const stored = memories(repo, env);
    expect(stored.map((m) => [m.namespace, m.summary])).toEqual([[first.namespace, first.summary]]);
    expect(stored[0]!.source).toBe('hook:Stop');
    expect(JSON.parse(r.stdout).systemMessage).toContain(`git-mem: captured ${first.namespace}:`);
    // The next turn says it again: already captured, so the judge is not asked about it.
    fs.rmSync(seen);
    expect(stop(repo, env, first.body)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(fs.existsSync(seen)).toBe(false);
  });

  it('takes a corrected namespace and summary; the kept secret goes through the capture path and is redacted there', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const script = path.join(box.root, 'pick.mjs');
    fs.writeFileSync(
      script,
      `let s = ''; process.stdin.on('data', (d) => (s += d)).on('end', () => {
  const { candidates } = JSON.parse(s);
  const deploys = candidates.find((c) => c.summary.includes('staging token'));
  const index = candidates.find((c) => c.summary.includes('git common dir'));
  console.log(JSON.stringify({ keep: [deploys.id, { id: index.id, namespace: 'patterns', summary: 'Index in the git common dir: shared by worktrees' }] }));
});`,
    );
    const env = { ...box.env, GIT_MEM_CAPTURE_WITH: `node '${script}'` };
    const r = stop(repo, env, TURN);
    expect(r.code, r.stderr).toBe(0);
    const stored = memories(repo, env);
    expect(stored.map((m) => [m.namespace, m.summary]).sort()).toEqual([
      ['decisions', DEPLOYS.replace(TOKEN, '[REDACTED:github_token]').replace(/ because prod is locked\.$/, ' because…')],
      ['patterns', 'Index in the git common dir: shared by worktrees'],
    ]);
    expect(JSON.stringify(stored)).not.toContain(TOKEN);
    expect(stored.find((m) => m.namespace === 'patterns')!.body).toBe(INDEX);
  });

  it.each([
    ['sleeps past the limit', 'sleep 10; echo \'{"keep":[0]}\'', /^git-mem: mem\.capture\.with 'sh .*' did not answer within 1 s \(mem\.capture\.timeout\); the turn's 4 candidates were not captured$/],
    ['prints garbage', 'echo "Sure! I would keep the first one."', /^git-mem: mem\.capture\.with 'sh .*' printed no JSON \(Sure! I would keep the first one\.\); the turn's 4 candidates were not captured$/],
    ['exits 1', 'echo "model overloaded" >&2; exit 1', /^git-mem: mem\.capture\.with 'sh .*' failed \(exit 1\): model overloaded; the turn's 4 candidates were not captured$/],
    ['names no candidate', `echo '{"keep":[0, 7]}'`, /^git-mem: mem\.capture\.with 'sh .*' answered an id that is no candidate \(7\); expected .*; the turn's 4 candidates were not captured$/],
    ['names an unknown namespace', `echo '{"keep":[{"id":0,"namespace":"misc"}]}'`, /^git-mem: mem\.capture\.with 'sh .*' answered a namespace that does not exist \("misc"\); expected .*; the turn's 4 candidates were not captured$/],
    ['answers without a keep list', `echo '[0]'`, /^git-mem: mem\.capture\.with 'sh .*' answered without a "keep" list; expected .*; the turn's 4 candidates were not captured$/],
  ])('a judge that %s captures none of them, says why in one line, and the hook exits 0', (_, then, why) => {
    const box = sandbox();
    const repo = makeRepo(box);
    const { env, seen } = judge(box, 'bad', then);
    const started = Date.now();
    const r = stop(repo, { ...env, GIT_MEM_CAPTURE_TIMEOUT: '1' }, TURN);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(r.stderr.trimEnd()).toMatch(why);
    expect(fs.existsSync(seen)).toBe(true);
    expect(memories(repo, env)).toEqual([]);
  });

  it('a statement below the suggest tier is captured when the judge keeps it, and never without a judge', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    expect(stop(repo, box.env, FLAKY)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(memories(repo, box.env)).toEqual([]);
    const { env, seen } = judge(box, 'low', `echo '{"keep":[{"id":0,"namespace":"learnings"}]}'`);
    const r = stop(repo, env, `${FLAKY}\n\n${RAN}`);
    expect(r.code, r.stderr).toBe(0);
    expect(received(seen).candidates.map((c) => c.body)).toEqual([FLAKY]);
    expect(memories(repo, env).map((m) => [m.namespace, m.summary])).toEqual([['learnings', FLAKY]]);
  });

  it('sends the judge at most 20 candidates in a turn, the strongest', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const tools = ['Redis', 'Postgres', 'SQLite', 'Kafka', 'NATS', 'RabbitMQ', 'Vitest', 'Jest', 'Biome', 'ESLint', 'Prettier', 'Bun', 'Deno', 'pnpm', 'Yarn', 'Terraform', 'Pulumi', 'Helm', 'Kustomize', 'Grafana', 'Prometheus', 'Sentry'];
    const uses = tools.map((t, i) => `We use ${t} for the ${['cache', 'queue', 'tests', 'lint', 'deploys', 'metrics'][i % 6]} because the old setup kept failing in CI.`);
    const { env, seen } = judge(box, 'many', `echo '{"keep":[]}'`);
    expect(stop(repo, env, [FLAKY, ...uses].join('\n\n'))).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const sent = received(seen).candidates;
    expect(sent).toHaveLength(20);
    expect(sent.map((c) => c.id)).toEqual([...sent.keys()]);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.confidence).toBeLessThanOrEqual(sent[i - 1]!.confidence);
    // Every one of them scores above the weaker statement left out, which a turn of its own would send.
    expect(sent.map((c) => c.body)).not.toContain(FLAKY);
    expect(sent.every((c) => uses.includes(c.body))).toBe(true);

    // The same when the weaker statement is in an earlier message of the turn: the strongest of the whole turn.
    const transcript = path.join(box.root, 'turn.jsonl');
    const last = uses.join('\n\n');
    fs.writeFileSync(transcript, new SessionWriter('2.1.190').prompt('Set up the services.').reply([text(FLAKY)]).reply([text(last)]).jsonl());
    fs.rmSync(seen);
    expect(stop(repo, env, last, 'sess-2', transcript)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const turn = received(seen).candidates;
    expect(turn).toHaveLength(20);
    expect(turn.map((c) => c.body)).not.toContain(FLAKY);
  });

  it('a failing judge leaves the markers of the turn captured at once', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const { env } = judge(box, 'fails', 'exit 1');
    const r = stop(repo, env, `${TURN}\n\n[decision] Hooks never wait for the network`);
    expect(r.code).toBe(0);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(memories(repo, env).map((m) => m.summary)).toEqual(['Hooks never wait for the network']);
  });

  it('is not run for a turn without candidates, nor when mem.autoCapture is false', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const { env, seen } = judge(box, 'idle', `echo '{"keep":[0]}'`);
    expect(stop(repo, env, RAN)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(stop(repo, { ...env, GIT_MEM_AUTO_CAPTURE: 'false' }, TURN)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(fs.existsSync(seen)).toBe(false);
    expect(memories(repo, env)).toEqual([]);
  });

  it('shows the setting and its time limit in git mem config, and warns about a bad limit', () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const env = { ...box.env, GIT_MEM_CAPTURE_WITH: 'claude -p', GIT_MEM_CAPTURE_TIMEOUT: '90' };
    const settings = JSON.parse(memOk(repo, env, ['config', '--json'])).settings as Array<{ key: string; value: unknown; source: string; problem: string | null }>;
    expect(settings.find((s) => s.key === 'mem.capture.with')).toMatchObject({ value: 'claude -p', source: 'environment' });
    expect(settings.find((s) => s.key === 'mem.capture.timeout')).toMatchObject({ value: 5, source: 'environment', problem: "'90' is not a number from 0.1 to 25; using 5" });
  });
});

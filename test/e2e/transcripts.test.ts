/**
 * Stop and PreCompact on transcripts in every shape Claude Code writes (test/fixtures/transcripts.ts),
 * through the compiled binary: what is captured, what never is, and that each hook exits 0 within 1 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_FIXTURES, type TranscriptFixture } from '../fixtures/transcripts.ts';
import { makeRepo, memHook, memOk, type RunResult, sandbox, timeBound } from './helpers.ts';

const BOUND_MS = timeBound(1000);

function hook(cwd: string, env: NodeJS.ProcessEnv, event: string, payload: object): Promise<RunResult & { ms: number }> {
  return memHook(cwd, env, event, { cwd, hook_event_name: event, permission_mode: 'default', ...payload });
}

interface Stored {
  summary: string;
  body: string;
  source?: string;
}

/** Runs one event on a fixture in a fresh repository; what it stored. */
async function run(f: TranscriptFixture, event: 'Stop' | 'PreCompact'): Promise<Stored[]> {
  const box = sandbox();
  const repo = makeRepo(box);
  const transcript = path.join(box.root, `${f.name}.jsonl`);
  fs.writeFileSync(transcript, f.jsonl);
  const extra = event === 'Stop' ? { stop_hook_active: false, last_assistant_message: f.lastAssistantMessage } : { trigger: 'auto', custom_instructions: null };
  const r = await hook(repo, box.env, event, { session_id: `s-${f.name}`, transcript_path: transcript, ...extra });
  expect(r.code, r.stderr).toBe(0);
  expect(r.ms, `${event} ${f.name}`).toBeLessThan(BOUND_MS);
  if (event === 'PreCompact') expect(r.stdout).toBe('');
  const stored = JSON.parse(memOk(repo, box.env, ['list', '--json'])) as Stored[];
  if (event === 'Stop' && stored.length) expect(JSON.parse(r.stdout).systemMessage).toContain('git-mem: captured');
  for (const m of stored) expect(m.source).toBe(`hook:${event}`);
  return stored;
}

function neverHeld(f: TranscriptFixture, stored: Stored[]): void {
  for (const m of stored) for (const never of f.never) expect(`${m.summary}\n${m.body}`, f.name).not.toContain(never);
}

describe('Stop and PreCompact read transcripts as Claude Code writes them', () => {
  for (const f of TRANSCRIPT_FIXTURES.filter((x) => !x.detector)) {
    it(`${f.name}: ${f.shape}`, async () => {
      const [stop, preCompact] = await Promise.all([run(f, 'Stop'), run(f, 'PreCompact')]);
      const expected = { stop: f.stop!, preCompact: f.preCompact!, ...f.withStatementDetector };
      expect(stop.map((m) => m.summary).sort(), 'Stop').toEqual([...expected.stop].sort());
      expect(preCompact.map((m) => m.summary).sort(), 'PreCompact').toEqual([...expected.preCompact].sort());
      neverHeld(f, [...stop, ...preCompact]);
    });
  }

  for (const f of TRANSCRIPT_FIXTURES.filter((x) => x.detector)) {
    it(`${f.name}: exits 0 within 1 s (the reader's part)`, async () => {
      await Promise.all([run(f, 'Stop'), run(f, 'PreCompact')]);
    });
    it(`${f.name}: ${f.shape}: no table row, no bare lead-in`, async () => {
      const stored = [...(await run(f, 'Stop')), ...(await run(f, 'PreCompact'))];
      neverHeld(f, stored);
      for (const m of stored) expect(m.summary.trimEnd().endsWith(':'), m.summary).toBe(false);
      for (const m of stored.filter((x) => x.summary.includes(f.leadIn!.lead))) expect(`${m.summary}\n${m.body}`).toContain(f.leadIn!.list);
    });
  }

  it('Stop reads no API error given as the last message, and a missing transcript still leaves the last message', async () => {
    const box = sandbox();
    const repo = makeRepo(box);
    const missing = path.join(box.root, 'missing.jsonl');
    const error = await hook(repo, box.env, 'Stop', { session_id: 's', transcript_path: missing, last_assistant_message: 'API Error: 403 Request blocked by policy; the key must always be rotated first' });
    expect(error.code).toBe(0);
    expect(error.stdout).toBe('');
    const said = await hook(repo, box.env, 'Stop', { session_id: 's', transcript_path: missing, last_assistant_message: '[learned] Stop reads the last message without a transcript' });
    expect(JSON.parse(said.stdout).systemMessage).toContain('captured');
  });
});

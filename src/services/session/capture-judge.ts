/**
 * The external capture judge (`mem.capture.with CMD`, off by default): the
 * turn's capture candidates go to the command as JSON on stdin, secrets
 * redacted first; it answers which to keep, optionally with a corrected
 * namespace or summary. What it keeps goes through the same capture path as
 * every hook capture (duplicate and secret checks in front of the write).
 * Anything wrong with the answer is one error, so the caller keeps nothing of it.
 *
 * stdin:  {"version":1,"event":"Stop","instructions":"...","namespaces":[...],"candidates":[{"id","namespace","summary","body","confidence"}]}
 * stdout: {"keep":[0, {"id":1,"namespace":"decisions","summary":"..."}]}
 */
import { GitMemError } from '../../core/errors.ts';
import { redactTogether } from '../../core/redact/redact.ts';
import type { Signal } from '../../core/signals.ts';
import { commandName, runJsonCommand } from '../../io/external-command.ts';
import type { Deps } from '../deps.ts';

export type CaptureJudgeDeps = Pick<Deps, 'cwd' | 'env' | 'settings'>;

/** The contract's version: a judge may refuse an input it does not know. */
const JUDGE_VERSION = 1;

/**
 * What a judge is asked, sent with the candidates so that a general model CLI (`claude -p`) needs no
 * prompt of its own: the labelling guide the capture corpus was read with (tools/capture-model/data/
 * GUIDELINES.md), shortly. Readers given that guide, standing in for the judge, are what chose
 * JUDGE_FLOOR (docs/capture.md, "How far a reader gets").
 */
export const JUDGE_INSTRUCTIONS = [
  'Each candidate is a statement from a coding session, with the detector\'s guess of its namespace and its confidence (0-1).',
  'Keep those a senior engineer on the project would want the coding agent to know next month:',
  'a decision or a choice not to do something, with or without its reason (decisions);',
  'how something behaves, a gotcha, a root cause found, a fix explained (learnings);',
  'something that prevents progress now and what it waits on (blockers);',
  'a standing rule or convention to follow from now on (patterns);',
  'the state of a larger piece of work worth knowing later: a migration done, a version dropped, what remains (progress).',
  'Leave out a routine change told only by what it adds, fixes or renames (a commit title, a changelog line): the history holds it;',
  'keep a change only for a reason, a finding or a consequence that still matters.',
  'Leave out questions, proposals and speculation ("maybe we should", "what if", a change written as a request: "Add X to Y"),',
  'statements that something was not decided, a problem reported without its cause,',
  'quotes of others, requests and instructions, thanks and praise, logs and stack traces (even when they say blocked or failed),',
  'code without a statement, struck-through or superseded text, and status chatter ("looking into it", "LGTM", "pushed a fix", "released").',
  'Give each kept candidate its namespace, one of the input\'s namespaces; a summary only to correct one that is not a clear line.',
  'Answer with the JSON alone, no prose and no code fence: {"keep": [{"id": 0, "namespace": "decisions"}]}, or {"keep": []}.',
].join(' ');

/** What the judge is sent of one candidate. */
interface JudgeCandidate {
  id: number;
  namespace: string;
  summary: string;
  body: string;
  confidence: number;
}

/** The input, every text redacted whatever mem.secrets says: a judge may be a remote model. */
function judgeInput(ctx: Pick<Deps, 'settings'>, event: string, candidates: readonly Signal[]): { version: number; event: string; instructions: string; namespaces: string[]; candidates: JudgeCandidate[] } {
  // The summary and body together: a secret named in the body is taken out of the summary's bare copy too.
  const clean = (s: Signal) => redactTogether([s.summary, s.body], { allow: ctx.settings.secretsAllow }).map((r) => r.text);
  return {
    version: JUDGE_VERSION,
    event,
    instructions: JUDGE_INSTRUCTIONS,
    namespaces: ctx.settings.namespaces.map((n) => n.name),
    candidates: candidates.map((s, id) => {
      const [summary, body] = clean(s);
      return { id, namespace: s.namespace, summary: summary!, body: body!, confidence: s.confidence };
    }),
  };
}

const SHAPE = '{"keep": [<id>, {"id": <id>, "namespace"?: "...", "summary"?: "..."}]}';

/** The candidates the answer keeps, with its corrections; throws on anything that is not the contract. */
function keptByAnswer(answer: unknown, candidates: readonly Signal[], namespaces: ReadonlySet<string>): Signal[] {
  const wrong = (why: string) => new GitMemError(`answered ${why}; expected ${SHAPE}`);
  const keep = (answer as { keep?: unknown } | null)?.keep;
  if (!answer || typeof answer !== 'object' || !Array.isArray(keep)) throw wrong('without a "keep" list');
  const kept = new Map<number, Signal>();
  for (const entry of keep) {
    const item: Record<string, unknown> = typeof entry === 'number' ? { id: entry } : entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : {};
    const id = item.id;
    if (typeof id !== 'number' || !Number.isInteger(id) || !candidates[id]) throw wrong(`an id that is no candidate (${JSON.stringify(entry)?.slice(0, 40)})`);
    const signal = { ...candidates[id] };
    if (item.namespace !== undefined) {
      if (typeof item.namespace !== 'string' || !namespaces.has(item.namespace)) throw wrong(`a namespace that does not exist (${JSON.stringify(item.namespace)?.slice(0, 40)})`);
      signal.namespace = item.namespace;
    }
    if (item.summary !== undefined) {
      const summary = typeof item.summary === 'string' ? item.summary.replace(/\s+/g, ' ').trim() : '';
      if (!summary) throw wrong(`a summary that is not text (candidate ${id})`);
      signal.summary = summary;
    }
    kept.set(id, signal);
  }
  return [...kept.values()];
}

/** Runs the judge on the candidates: the ones it keeps, or a GitMemError saying in one line why none. */
export function judgeCandidates(ctx: CaptureJudgeDeps, event: string, candidates: readonly Signal[]): Signal[] {
  const command = ctx.settings.captureWith;
  const input = judgeInput(ctx, event, candidates);
  const answer = runJsonCommand(command, input, { cwd: ctx.cwd, env: ctx.env, timeoutMs: ctx.settings.captureTimeoutMs, timeoutSetting: 'mem.capture.timeout' });
  try {
    return keptByAnswer(answer, candidates, new Set(input.namespaces));
  } catch (err) {
    throw new GitMemError(`'${commandName(command)}' ${(err as Error).message}`);
  }
}

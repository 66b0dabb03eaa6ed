/**
 * The use cases of a hook, one per git-mem event: the client-neutral event in (each
 * client's seam in agents/<client>/ makes it from what that client sent), a reply (or
 * nothing) out, which the seam writes in the client's format. No client is named here.
 * Handlers may throw; the dispatcher turns any failure into a line on stderr.
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatRange } from '../core/history/blame.ts';
import { editedLines } from '../core/history/edit-lines.ts';
import { errorMessage } from '../core/errors.ts';
import { aboveFloor } from '../core/search/floor.ts';
import { relatedMemories, xmlText } from '../core/memory-context.ts';
import { detectSignals, forgetRequest, JUDGE_FLOOR, JUDGE_MAX_CANDIDATES, normalizeForNovelty, SCAN_MAX, type Signal, SUGGEST_THRESHOLD, tierOf, wantsRecall } from '../core/signals.ts';
import { formatId } from '../core/memory.ts';
import type { AppContext } from '../context.ts';
import { captureSignals, type HookCaptureResult, notCapturedYet } from '../services/session/hook-capture.ts';
import { judgeCandidates } from '../services/session/capture-judge.ts';
import { recall, traceInjection } from '../services/search/recall.ts';
import { promptRecall } from '../services/session/prompt-recall.ts';
import { traceEnabled } from '../io/trace.ts';
import { fileMemories, preToolUseMark, sessionStartContext, workingMemoryContext } from '../services/session/session-context.ts';
import { asShown, forAgent, stalenessMap } from '../services/shown.ts';
import { injectable } from '../services/trust/trust.ts';
import { sha1Hex } from '../core/hash.ts';
import { runSelfDetached } from '../io/self.ts';
import { noteWorkingFile, readSession, updateSession } from '../stores/cache/sessions.ts';
import type { HookEvent } from '../core/hook-events.ts';
import type { AgentEvent as HookInput, AgentReply as HookReply, ToolFile } from '../agents/event.ts';
import type { AgentMessage } from '../core/transcript-entries.ts';


/** The systemMessage after captures: what was captured, and what was not and why; never longer than SYSTEM_MESSAGE_MAX. */
const SYSTEM_MESSAGE_MAX = 2000;

function capturedMessage(result: HookCaptureResult): string | undefined {
  const lines = [
    ...result.captured.map((c) => `git-mem: captured ${c.id} ${c.memory.summary}`),
    ...result.skipped.map((s) => `git-mem: not captured (${s.reason}): ${s.summary}`),
  ];
  if (!lines.length) return undefined;
  let text = '';
  for (const [i, line] of lines.entries()) {
    const rest = lines.length - i;
    if (text.length + line.length + 1 > SYSTEM_MESSAGE_MAX - 40) return `${text}git-mem: ... and ${rest} more`;
    text += `${line}\n`;
  }
  return text.trimEnd();
}

/** A string as one shell word: single quotes, each ' written as '\'' (nothing inside is expanded). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, "'\\''")}'`;
}

/** A suggestion's summary without the marker that opened its sentence (`[decision] ...`). */
function suggestionText(summary: string): string {
  return summary.replace(/^(?:\[[a-z:-]+\]\s*)+/i, '').trim();
}

/**
 * The signals below the auto tier, from `floor` up (the suggest tier unless given), that say nothing an
 * auto-captured one already does (compared without their markers).
 */
function untakenSuggestions(signals: readonly Signal[], auto: readonly Signal[], floor = SUGGEST_THRESHOLD): Signal[] {
  const taken = new Set(auto.map((s) => normalizeForNovelty(suggestionText(s.summary))));
  return signals.filter((s) => s.confidence >= floor && tierOf(s.confidence) !== 'auto' && !taken.has(normalizeForNovelty(suggestionText(s.summary))));
}

/** Signals strong enough to capture at once; settings (a git call) are read only when there are any. */
function autoSignals(text: string, ctx: AppContext, working = false): Signal[] {
  const strong = detectSignals(text, { working }).filter((s) => tierOf(s.confidence) === 'auto');
  if (!strong.length) return [];
  return detectSignals(text, { namespaces: ctx.settings.namespaces.map((n) => n.name), working }).filter((s) => tierOf(s.confidence) === 'auto');
}

/**
 * Signals strong enough to capture at once in a transcript's messages, each message read on its own
 * (see sessionMessages): no statement spans two messages, and a working note's are suggested at most.
 */
function messageSignals(messages: readonly AgentMessage[], ctx: AppContext): Signal[] {
  return messages.flatMap((m) => (m.text ? autoSignals(m.text, ctx, m.working) : []));
}

/** Which reply a hook gives: `at` (ms) for an event without a prompt id, told apart from a later one by time alone. */
interface ReplyKey {
  key: string;
  at?: number;
}

/** Parallel copies of one event arrive within moments of each other; the same event again (a resume, a question asked twice) comes later. */
const DUPLICATE_MS = 10_000;

/**
 * True the first time a reply is given in the session. Hooks registered twice
 * (settings and a plugin) run in parallel: only one injects. A reply with a
 * time is stored as `key@ms` and matches the same key given within
 * DUPLICATE_MS either side, so two copies that straddle a moment count as one.
 */
function firstReply(ctx: AppContext, input: HookInput, reply: ReplyKey): boolean {
  return updateSession(ctx.repo.mem, input.sessionId, (s) => {
    const { key, at } = reply;
    const stem = `${key}@`;
    const seen = at === undefined ? s.injected.includes(key) : s.injected.some((k) => k.startsWith(stem) && Math.abs(Number(k.slice(stem.length)) - at) < DUPLICATE_MS);
    if (seen) return false;
    s.injected.push(at === undefined ? key : `${stem}${at}`);
    return true;
  });
}

/** The reply to an event: by its prompt id, else by when it came. */
function eventKey(ctx: AppContext, input: HookInput, detail: string): ReplyKey {
  const key = `${input.event}:${detail}`;
  return input.promptId ? { key: `${key}:${input.promptId}` } : { key, at: ctx.now().getTime() };
}

/** How long SessionStart waits for the remote when mem.hooks.pullOnStart is set (Claude Code allows it far more). */
export const PULL_ON_START_MS = 3000;

async function sessionStart(ctx: AppContext, input: Extract<HookInput, { event: 'SessionStart' }>): Promise<HookReply | null> {
  if (!firstReply(ctx, input, eventKey(ctx, input, input.source))) return null;
  if (ctx.settings.pullOnStart && input.source !== 'compact') {
    // Teammates' memories first; an unreachable or slow remote costs at most PULL_ON_START_MS and a line on stderr.
    try {
      const { pull, resolveRemote } = await import('../services/sync.ts');
      await pull(ctx, resolveRemote(ctx.repo), { fetch: true, timeoutMs: PULL_ON_START_MS });
    } catch (err) {
      ctx.io.err(`git-mem: SessionStart did not pull (${errorMessage(err)}); the context is from local memories`);
    }
  }
  // After a compaction the working memory is injected again, less what the summary already says.
  const held = input.source === 'compact' ? input.transcript.compactSummary() : '';
  const { context, unreviewed } = await sessionStartContext(ctx, held);
  // Told to the person, not the agent: what mem.trust held back waits for them.
  const waiting = unreviewed ? { systemMessage: `git-mem: ${unreviewed} ${unreviewed === 1 ? 'memory' : 'memories'} from elsewhere ${unreviewed === 1 ? 'waits' : 'wait'} for your review before agents see ${unreviewed === 1 ? 'it' : 'them'}: git mem review` } : {};
  return { additionalContext: context, ...waiting };
}

async function userPromptSubmit(ctx: AppContext, input: Extract<HookInput, { event: 'UserPromptSubmit' }>): Promise<HookReply | null> {
  // A pasted log can be megabytes: the end of it is what the user just wrote.
  const prompt = input.prompt.slice(-SCAN_MAX);
  const signals = detectSignals(prompt);
  const recallAsked = wantsRecall(prompt);
  const forget = forgetRequest(prompt);
  // The common case, nothing to do, touches neither the repository nor the index.
  if (!recallAsked && !forget && !signals.some((s) => tierOf(s.confidence) !== 'skip')) return null;
  const reply: HookReply = {};
  const context: string[] = [];
  const auto = ctx.settings.autoCapture ? autoSignals(prompt, ctx) : [];
  if (auto.length) {
    const result = await captureSignals(ctx, auto, { sessionId: input.sessionId, event: input.event, prompt: input.promptId });
    reply.systemMessage = capturedMessage(result);
    catchUpLater(ctx, result.captured);
  }
  // Nothing already captured (or about to be) is suggested again.
  const suggest = untakenSuggestions(signals, auto).slice(0, 2);
  for (const s of suggest) {
    const command = `git mem capture ${s.namespace} ${shellQuote(suggestionText(s.summary))}`;
    context.push(`<capture_suggestion confidence="${s.confidence}">This may be worth remembering: ${xmlText(command)}</capture_suggestion>`);
  }
  if (recallAsked && firstReply(ctx, input, eventKey(ctx, input, sha1Hex(prompt)))) {
    // The question is in the first words; a whole paste as a query would score thousands of terms.
    const query = prompt.slice(0, 1000);
    const { hits } = await promptRecall(ctx, query, { explain: traceEnabled() }).catch(() => ({ hits: [] }));
    // What the trust policy holds back is left out before the floor, which is relative to the best match given.
    const given = new Map(injectable(ctx, hits.map((h) => h.memory)).map((m) => [m.key, m]));
    const memories = aboveFloor(hits.filter((h) => given.has(h.memory.key)), () => ctx.settings.relevanceFloor).map((h) => given.get(h.memory.key)!);
    if (traceEnabled()) traceInjection('prompt recall', query, hits, ctx.settings.relevanceFloor, (m) => !given.has(m.key));
    const shown = asShown(ctx, memories, { uses: true, staleness: true });
    const block = relatedMemories('recalled_memories', memories, {}, undefined, stalenessMap(shown));
    if (block) context.push(block);
  }
  if (forget) {
    // The user's wish, but not ours to carry out unasked: the exact command for the best match, for the agent to run or show.
    const { hits } = await recall(ctx, { query: forget, limit: 3, mode: 'lexical' }).catch(() => ({ hits: [] }));
    if (hits.length) {
      const lines = hits.map((h) => `git mem forget ${formatId(h.memory)}  # ${h.memory.summary}`);
      context.push(`<forget_suggestion>The user asked to forget a memory about "${xmlText(forget)}". The closest memories, best first; run the one meant:\n${xmlText(lines.join('\n'))}</forget_suggestion>`);
    }
  }
  if (context.length) reply.additionalContext = context.join('\n');
  return reply;
}

/** The first file a tool works on, or '' when it works on none (the client's seam says which tools do). */
function toolFile(input: { files: readonly ToolFile[] }): string {
  return input.files[0]?.path ?? '';
}

/** The lines an edit is about to change, as they stand in the file now (none when unknown). */
function linesAboutToChange(file: string, needles: readonly string[]): Array<[number, number]> {
  if (!needles.length) return [];
  try {
    return editedLines(fs.readFileSync(file, 'utf8'), needles);
  } catch {
    return [];
  }
}

/** What a capture later in the turn is likely about (services/session/hook-capture.ts): no git, one session write. */
function noteWorking(ctx: AppContext, input: HookInput & { files: readonly ToolFile[] }, file: string, lines: ReadonlyArray<[number, number]>): void {
  noteWorkingFile(ctx.repo.mem, input.sessionId, {
    file: path.resolve(input.cwd ?? ctx.cwd, file),
    ...(lines.length ? { lines: lines.map(formatRange).join(',') } : {}),
    ...(input.files[0]?.edited ? { edited: true } : {}),
    ...(input.promptId ? { prompt: input.promptId } : {}),
    at: ctx.now().getTime(),
  });
}

/**
 * Before a file tool runs: the memories about the file and, for an edit, about the lines it
 * changes (attached to the commits that wrote them), so they are read before the change is made.
 */
async function preToolUse(ctx: AppContext, input: Extract<HookInput, { event: 'PreToolUse' }>): Promise<HookReply | null> {
  const file = toolFile(input);
  if (!file) return null;
  const lines = linesAboutToChange(path.resolve(input.cwd ?? ctx.cwd, file), input.files[0]?.needles ?? []);
  noteWorking(ctx, input, file, lines);
  const { shown } = forAgent(ctx, await fileMemories(ctx, file, input.sessionId, 3, lines, input.toolUseId));
  const attrs: Record<string, string> = lines.length ? { file, lines: lines.map(formatRange).join(',') } : { file };
  const block = relatedMemories('related_memories', shown.map((s) => s.memory), attrs, undefined, stalenessMap(shown));
  return block ? { additionalContext: block } : null;
}

/** After a file tool ran: what PreToolUse did not already give (hooks installed before PreToolUse existed only have this one). */
async function postToolUse(ctx: AppContext, input: Extract<HookInput, { event: 'PostToolUse' }>): Promise<HookReply | null> {
  const file = toolFile(input);
  // PreToolUse answered this call: it noted the file too.
  if (!file || (input.toolUseId && readSession(ctx.repo.mem, input.sessionId).injected.includes(preToolUseMark(input.toolUseId)))) return null;
  noteWorking(ctx, input, file, []);
  const { shown } = forAgent(ctx, await fileMemories(ctx, file, input.sessionId));
  const block = relatedMemories('related_memories', shown.map((s) => s.memory), { file }, undefined, stalenessMap(shown));
  return block ? { additionalContext: block } : null;
}

/** A subagent starts with a fresh context: a short working memory, once per subagent. */
async function subagentStart(ctx: AppContext, input: Extract<HookInput, { event: 'SubagentStart' }>): Promise<HookReply | null> {
  if (!firstReply(ctx, input, input.agentId ? { key: `SubagentStart:${input.agentId}` } : eventKey(ctx, input, input.agentType))) return null;
  const context = await workingMemoryContext(ctx);
  return context ? { additionalContext: context } : null;
}

/** A failed shell command (the client's seam gives what it printed): a learning candidate when the signal is strong. */
async function postToolUseFailure(_ctx: AppContext, input: Extract<HookInput, { event: 'PostToolUseFailure' }>): Promise<HookReply | null> {
  const output = input.output;
  if (!output.trim()) return null;
  // A statement in what the command printed (prose, not its log lines) that the detector would suggest.
  const strong = detectSignals(output).find((s) => tierOf(s.confidence) !== 'skip');
  if (!strong) return null;
  return { additionalContext: `<capture_suggestion>The failed command reported: ${xmlText(strong.summary)}. If the cause is worth remembering: git mem capture learnings "<what you learned>"</capture_suggestion>` };
}

/**
 * Before a compaction: what was said since the last one. The assistant's words are read for
 * statements; the user's typed prompts (never pasted material) only for explicit markers and
 * blocks, since their phrases were offered when they were typed (UserPromptSubmit) and a request
 * ("save this bashrc in config/") is not a statement.
 */
async function preCompact(ctx: AppContext, input: HookInput): Promise<null> {
  const words = input.transcript.sessionMessages();
  const typed = words.user.map((text) => ({ text, working: false }));
  const signals = [...messageSignals(words.assistant, ctx), ...messageSignals(typed, ctx).filter((s) => s.kind !== 'model')];
  if (signals.length && ctx.settings.autoCapture) catchUpLater(ctx, (await captureSignals(ctx, signals, { sessionId: input.sessionId, event: input.event, prompt: input.promptId })).captured);
  return null; // PreCompact accepts no output
}

async function stop(ctx: AppContext, input: Extract<HookInput, { event: 'Stop' }>): Promise<HookReply | null> {
  // The main agent's messages in the whole turn, each read on its own (a lead-in that ends one message
  // introduces a tool call, not the next message): a marker written before a tool call is not in the last
  // message, which may not be in the transcript yet when Stop fires; an API error is nobody's words.
  const messages = input.transcript.turnMessages(input.lastAssistantMessage);
  // Settings (a git call) are read only when the turn has a candidate: one to capture at once, or one a judge
  // (mem.capture.with) would be asked about, from JUDGE_FLOOR up.
  const found = messages.flatMap((m) => detectSignals(m.text, { working: m.working, floor: JUDGE_FLOOR }));
  if (!found.some((s) => tierOf(s.confidence) === 'auto') && !(found.length && ctx.settings.captureWith)) return null;
  if (!ctx.settings.autoCapture) return null;
  const namespaces = ctx.settings.namespaces.map((n) => n.name);
  const floor = ctx.settings.captureWith ? JUDGE_FLOOR : undefined;
  const signals = messages.flatMap((m) => detectSignals(m.text, { namespaces, working: m.working, floor }));
  const auto = signals.filter((s) => tierOf(s.confidence) === 'auto');
  const judged = ctx.settings.captureWith ? await judgedSignals(ctx, input, signals, auto) : [];
  if (!auto.length && !judged.length) return null;
  const result = await captureSignals(ctx, [...auto, ...judged], { sessionId: input.sessionId, event: input.event, prompt: input.promptId });
  catchUpLater(ctx, result.captured);
  // Only systemMessage: additionalContext or a block decision would keep the agent working.
  const note = capturedMessage(result);
  return note ? { systemMessage: note } : null;
}

/**
 * What the mem.capture.with command keeps of the turn's candidates (from JUDGE_FLOOR up, not captured
 * at once, nor before): none when there are none, or when the command fails, runs too long or answers anything
 * but the contract, which is one line on stderr.
 */
async function judgedSignals(ctx: AppContext, input: HookInput, signals: readonly Signal[], auto: readonly Signal[]): Promise<Signal[]> {
  // The strongest first (each message's signals come sorted, the turn's several messages do not).
  const suggested = untakenSuggestions(signals, auto, JUDGE_FLOOR).sort((a, b) => b.confidence - a.confidence);
  const candidates = suggested.length ? await notCapturedYet(ctx, input.sessionId, suggested, JUDGE_MAX_CANDIDATES) : [];
  if (!candidates.length) return [];
  try {
    return judgeCandidates(ctx, input.event, candidates);
  } catch (err) {
    const what = candidates.length === 1 ? "the turn's candidate was" : `the turn's ${candidates.length} candidates were`;
    ctx.io.err(`git-mem: mem.capture.with ${errorMessage(err).split('\n')[0]}; ${what} not captured`);
    return [];
  }
}

/**
 * After a capture the index is behind the notes, and the next hook that reads
 * memories would pay for catching up (about 200 ms at 10,000 memories). A
 * detached `git mem index` does it between prompts instead.
 */
function catchUpLater(ctx: AppContext, captured: readonly unknown[]): void {
  // Not when the cache folder cannot be written: that process could only fail.
  if (captured.length && !ctx.repo.mem.problem()) runSelfDetached(['index'], ctx.cwd, ctx.env);
}

async function sessionEnd(ctx: AppContext): Promise<null> {
  // Detached: SessionEnd has 1.5 s in all, a push may take longer.
  if (ctx.settings.pushOnEnd) runSelfDetached(['push'], ctx.cwd, ctx.env);
  return null;
}

/** Each event's handler takes that event's input. */
export const HANDLERS: { [E in HookEvent]: (ctx: AppContext, input: Extract<HookInput, { event: E }>) => Promise<HookReply | null> } = {
  SessionStart: sessionStart,
  UserPromptSubmit: userPromptSubmit,
  PreToolUse: preToolUse,
  PostToolUse: postToolUse,
  SubagentStart: subagentStart,
  PostToolUseFailure: postToolUseFailure,
  PreCompact: preCompact,
  Stop: stop,
  SessionEnd: sessionEnd,
};

/**
 * What every agent client's hook call becomes: one client-neutral event (the use cases in
 * hooks/handlers.ts take it and know no client), and the reply they give, which the client's
 * seam writes in its own format. Each client (agents/<client>/) turns its input into an
 * AgentEvent: its event names, its field names, its tool names and arguments, its transcript.
 */
import type { HookEvent } from '../core/hook-events.ts';
import type { AgentMessage, SessionMessages } from '../core/transcript-entries.ts';

/** The clients git-mem speaks to. */
export const AGENTS = ['claude', 'copilot', 'codex', 'gemini', 'opencode'] as const;
export type AgentId = (typeof AGENTS)[number];

/** A file a tool is about to read or change (or just did). */
export interface ToolFile {
  /** As the tool named it: absolute, or relative to the session's directory. */
  path: string;
  /** The tool changes the file (an edit, a write, a patch), not only reads it. */
  edited: boolean;
  /** Text the edit replaces, as it stands in the file now: tells which lines it changes (none when unknown). */
  needles: string[];
}

/** Who said what in the session, read from the client's transcript (empty when there is none or it cannot be read). */
export interface Transcript {
  /** What was said since the session's last compaction, by speaker, one string per message; the main agent's each with whether it is a working note. */
  sessionMessages(): SessionMessages;
  /** The main agent's messages in the turn that just ended, and `lastMessage` when the transcript does not hold it yet, each with whether it is a working note. */
  turnMessages(lastMessage: string): AgentMessage[];
  /** The text of the last compaction summary ('' when there is none). */
  compactSummary(): string;
}

interface Common {
  /** The client that sent it. */
  agent: AgentId;
  sessionId: string;
  /** The directory the session runs in, when given. */
  cwd?: string;
  /** The client's id of the prompt being answered, when given: tells parallel copies of one event apart. */
  promptId: string;
  transcript: Transcript;
}

export type AgentEvent = Common &
  (
    | { event: 'SessionStart'; source: string }
    | { event: 'UserPromptSubmit'; prompt: string }
    | { event: 'PreToolUse'; files: ToolFile[]; toolUseId: string }
    | { event: 'PostToolUse'; files: ToolFile[]; toolUseId: string }
    /** A shell command that failed (not one the user interrupted): what it printed. */
    | { event: 'PostToolUseFailure'; output: string }
    | { event: 'SubagentStart'; agentId: string; agentType: string }
    | { event: 'PreCompact' }
    | { event: 'Stop'; lastAssistantMessage: string }
    | { event: 'SessionEnd' }
  );

/** What a use case answers: context for the agent, a line for the person. The client's seam writes it in its format. */
export interface AgentReply {
  additionalContext?: string;
  systemMessage?: string;
}

export class HookInputFieldError extends Error {}

/** A field of a client's input: its value, `fallback` when absent, or a HookInputFieldError naming it when of the wrong kind. */
export function field<T>(raw: Record<string, unknown>, name: string, kind: 'string' | 'object' | 'boolean', fallback: T): T {
  const v = raw[name];
  if (v === undefined || v === null) return fallback;
  const ok = kind === 'object' ? typeof v === 'object' && !Array.isArray(v) : typeof v === kind;
  if (!ok) throw new HookInputFieldError(`'${name}' must be ${kind === 'object' ? 'an object' : `a ${kind}`}, not ${Array.isArray(v) ? 'an array' : typeof v}`);
  return v as T;
}

/** A client's seam, as the hook dispatcher (hooks/index.ts) uses it. */
export interface AgentHooks {
  id: AgentId;
  /** The git-mem event a name the client (or its hook entry) gives means, or null. */
  event(name: string): HookEvent | null;
  /** The client's input for `event` as the neutral event, or a HookInputFieldError. */
  parse(event: HookEvent, raw: Record<string, unknown>, env: NodeJS.ProcessEnv): AgentEvent;
  /** The reply as the client reads it on stdout (null: print nothing). */
  render(event: HookEvent, reply: AgentReply | null, name: string): string | null;
}

/**
 * A hook's input, checked at the edge: the JSON Claude Code sends, turned into
 * a typed event, or one clear line naming the field that is wrong. Fields a
 * handler does not use are not checked (the client adds fields over time);
 * optional ones may be absent. Pure.
 */
import type { HookEvent } from '../core/hook-events.ts';

interface Common {
  sessionId: string;
  /** The directory the session runs in, when given. */
  cwd?: string;
  transcriptPath: string;
  /** Claude Code's id of the prompt being answered, when given: tells parallel copies of one event apart. */
  promptId: string;
}

export type HookInput = Common &
  (
    | { event: 'SessionStart'; source: string }
    | { event: 'UserPromptSubmit'; prompt: string }
    | { event: 'PreToolUse'; toolName: string; toolInput: Record<string, unknown>; toolUseId: string }
    | { event: 'PostToolUse'; toolName: string; toolInput: Record<string, unknown>; toolUseId: string }
    | { event: 'PostToolUseFailure'; toolName: string; error: string; isInterrupt: boolean; toolResponse: Record<string, unknown> }
    | { event: 'SubagentStart'; agentId: string; agentType: string }
    | { event: 'PreCompact' }
    | { event: 'Stop'; lastAssistantMessage: string }
    | { event: 'SessionEnd' }
  );

export class HookInputFieldError extends Error {}

function field<T>(raw: Record<string, unknown>, name: string, kind: 'string' | 'object' | 'boolean', fallback: T): T {
  const v = raw[name];
  if (v === undefined || v === null) return fallback;
  const ok = kind === 'object' ? typeof v === 'object' && !Array.isArray(v) : typeof v === kind;
  if (!ok) throw new HookInputFieldError(`'${name}' must be ${kind === 'object' ? 'an object' : `a ${kind}`}, not ${Array.isArray(v) ? 'an array' : typeof v}`);
  return v as T;
}

/** The typed event, or a HookInputFieldError naming the first field that is wrong. */
export function parseHookInput(event: HookEvent, raw: Record<string, unknown>): HookInput {
  const s = (name: string) => field(raw, name, 'string', '');
  const cwd = field<string | undefined>(raw, 'cwd', 'string', undefined);
  const common: Common = { sessionId: s('session_id') || 'unknown', ...(cwd ? { cwd } : {}), transcriptPath: s('transcript_path'), promptId: s('prompt_id') };
  switch (event) {
    case 'SessionStart':
      return { ...common, event, source: s('source') };
    case 'UserPromptSubmit':
      return { ...common, event, prompt: s('prompt') };
    case 'PreToolUse':
    case 'PostToolUse':
      return { ...common, event, toolName: s('tool_name'), toolInput: field(raw, 'tool_input', 'object', {}), toolUseId: s('tool_use_id') };
    case 'SubagentStart':
      return { ...common, event, agentId: s('agent_id'), agentType: s('agent_type') };
    case 'PostToolUseFailure':
      return { ...common, event, toolName: s('tool_name'), error: s('error'), isInterrupt: field(raw, 'is_interrupt', 'boolean', false), toolResponse: field(raw, 'tool_response', 'object', {}) };
    case 'Stop':
      return { ...common, event, lastAssistantMessage: s('last_assistant_message') };
    case 'PreCompact':
    case 'SessionEnd':
      return { ...common, event };
  }
}

/**
 * Gemini CLI's side of a hook call. Its events, as git-mem's: SessionStart, BeforeAgent (a prompt),
 * AfterTool (a tool ran), AfterAgent (the turn ended), PreCompress, SessionEnd. Its input is
 * snake_case like Claude Code's; its tools are `read_file`, `write_file` and `replace`, each with
 * `file_path`. It reads `hookSpecificOutput.additionalContext` on SessionStart (prepended to the
 * first prompt), BeforeAgent (a part added to the prompt) and AfterTool (appended to the tool's
 * result), but not on BeforeTool, which git-mem therefore does not install: a file's memories come
 * after `read_file`.
 *
 * PreCompress fires before every model call in headless mode, before the CLI knows whether there
 * is anything to compress. An automatic one captures nothing (its transcript reads as empty):
 * every turn is captured when it ends (AfterAgent), and the transcript file keeps what a
 * compression takes out of the model's history. Only a compression the user asked for (/compress,
 * `trigger: manual`) reads the session's words, as Claude Code's PreCompact does.
 */
import { editNeedles } from '../../core/history/edit-lines.ts';
import { type HookEvent, normalizeEvent } from '../../core/hook-events.ts';
import { type AgentEvent, type AgentHooks, type AgentReply, field, type ToolFile, type Transcript } from '../event.ts';
import { geminiTranscript, withoutHookContext } from './transcript.ts';

/** Gemini CLI's event names git-mem answers, and what each is to git-mem. */
export const GEMINI_EVENTS = {
  SessionStart: 'SessionStart',
  BeforeAgent: 'UserPromptSubmit',
  AfterTool: 'PostToolUse',
  PreCompress: 'PreCompact',
  AfterAgent: 'Stop',
  SessionEnd: 'SessionEnd',
} as const satisfies Record<string, HookEvent>;
export type GeminiEvent = keyof typeof GEMINI_EVENTS;

/** Gemini CLI's tools that work on one file (`file_path`), and whether each changes it. */
export const GEMINI_FILE_TOOLS: Record<string, { edited: boolean }> = { read_file: { edited: false }, write_file: { edited: true }, replace: { edited: true } };

const NO_TRANSCRIPT: Transcript = { sessionMessages: () => ({ assistant: [], user: [] }), turnMessages: (last) => (last.trim() ? [{ text: last.trim(), working: false }] : []), compactSummary: () => '' };

export function geminiToolFiles(toolName: string, toolInput: Record<string, unknown>): ToolFile[] {
  const tool = GEMINI_FILE_TOOLS[toolName];
  const file = typeof toolInput.file_path === 'string' ? toolInput.file_path : '';
  if (!tool || !file) return [];
  return [{ path: file, edited: tool.edited, needles: tool.edited ? editNeedles(toolInput) : [] }];
}

export function parseGeminiInput(event: HookEvent, raw: Record<string, unknown>, env: NodeJS.ProcessEnv): AgentEvent {
  const s = (name: string) => field(raw, name, 'string', '');
  const cwd = s('cwd') || env.GEMINI_PROJECT_DIR || '';
  const transcriptPath = s('transcript_path');
  // An automatic PreCompress (before every model call) reads nothing: see the file's comment.
  const quiet = event === 'PreCompact' && s('trigger') !== 'manual';
  const common = {
    agent: 'gemini' as const,
    sessionId: s('session_id') || env.GEMINI_SESSION_ID || 'unknown',
    ...(cwd ? { cwd } : {}),
    promptId: '',
    transcript: quiet ? NO_TRANSCRIPT : geminiTranscript(transcriptPath),
  };
  switch (event) {
    case 'SessionStart':
      return { ...common, event, source: s('source') };
    case 'UserPromptSubmit':
      // SessionStart's context arrives prepended to the first prompt: not the user's words.
      return { ...common, event, prompt: withoutHookContext(s('prompt')) };
    case 'PreToolUse':
    case 'PostToolUse':
      return { ...common, event, files: geminiToolFiles(s('tool_name'), field(raw, 'tool_input', 'object', {})), toolUseId: '' };
    case 'Stop':
      return { ...common, event, lastAssistantMessage: s('prompt_response') };
    case 'PostToolUseFailure':
      return { ...common, event, output: '' };
    case 'SubagentStart':
      return { ...common, event, agentId: '', agentType: '' };
    case 'PreCompact':
    case 'SessionEnd':
      return { ...common, event };
  }
}

/** The documented fields of Gemini CLI's hook output: `systemMessage` (for the person), `hookSpecificOutput.additionalContext` (for the model). */
export function renderGeminiReply(name: string, reply: AgentReply | null): string | null {
  if (!reply || (!reply.additionalContext && !reply.systemMessage)) return null;
  return JSON.stringify({ ...(reply.systemMessage ? { systemMessage: reply.systemMessage } : {}), ...(reply.additionalContext ? { hookSpecificOutput: { hookEventName: name, additionalContext: reply.additionalContext } } : {}) });
}

export const geminiHooks: AgentHooks = {
  id: 'gemini',
  // Gemini CLI's names; git-mem's own are taken too (a hand-written entry, a test).
  event: (name) => (GEMINI_EVENTS as Record<string, HookEvent>)[name] ?? normalizeEvent(name),
  parse: parseGeminiInput,
  // PreCompress and SessionEnd take no context; the event is named as Gemini CLI names it.
  render: (event, reply, name) => (event === 'PreCompact' || event === 'SessionEnd' ? null : renderGeminiReply(name in GEMINI_EVENTS ? name : (Object.keys(GEMINI_EVENTS) as GeminiEvent[]).find((g) => GEMINI_EVENTS[g] === event) ?? event, reply)),
};

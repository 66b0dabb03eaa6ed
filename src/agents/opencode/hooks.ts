/**
 * OpenCode's side of a hook call. OpenCode has no shell hooks: the plugin `git mem init --opencode`
 * writes (plugin.ts) calls `git-mem hook --agent opencode <event>` with git-mem's own event names
 * and a small JSON of its own making: `session_id`, `cwd`, and per event `source` (SessionStart),
 * `prompt` (UserPromptSubmit), `tool` and `file_path` (PostToolUse, after a tool ran), `messages`
 * (Stop: the text of the assistant's messages in the turn, as the plugin saw them stream, since
 * OpenCode keeps its sessions in a store of its own, not a transcript file). The reply is
 * `{additionalContext, systemMessage}`, which the plugin puts where OpenCode reads it.
 */
import { type HookEvent, normalizeEvent } from '../../core/hook-events.ts';
import { type AgentMessage, lastWhole } from '../../core/transcript-entries.ts';
import { SCAN_MAX } from '../../core/signals.ts';
import { type AgentEvent, type AgentHooks, type AgentReply, field, HookInputFieldError, type ToolFile, type Transcript } from '../event.ts';

/** OpenCode's tools that work on one file (`filePath`), and whether each changes it. */
export const OPENCODE_FILE_TOOLS: Record<string, { edited: boolean }> = { read: { edited: false }, edit: { edited: true }, write: { edited: true } };

function messages(raw: Record<string, unknown>): string[] {
  const list = raw.messages;
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new HookInputFieldError(`'messages' must be an array of strings, not ${typeof list}`);
  return list.filter((m): m is string => typeof m === 'string' && m.trim() !== '').map((m) => m.trim());
}

const said = (text: string): AgentMessage => ({ text, working: false });

/** The turn's messages the plugin sent, as the use cases read a transcript. */
function turnTranscript(turn: string[]): Transcript {
  return {
    // The plugin sends the messages' words only: none is known to be a working note.
    sessionMessages: () => ({ assistant: lastWhole(turn, SCAN_MAX).map(said), user: [] }),
    turnMessages: (last) => lastWhole(last.trim() && !turn.includes(last.trim()) ? [...turn, last.trim()] : turn, SCAN_MAX).map(said),
    compactSummary: () => '',
  };
}

export function parseOpencodeInput(event: HookEvent, raw: Record<string, unknown>): AgentEvent {
  const s = (name: string) => field(raw, name, 'string', '');
  const cwd = s('cwd');
  const common = { agent: 'opencode' as const, sessionId: s('session_id') || 'unknown', ...(cwd ? { cwd } : {}), promptId: s('message_id'), transcript: turnTranscript(messages(raw)) };
  switch (event) {
    case 'SessionStart':
      return { ...common, event, source: s('source') || 'startup' };
    case 'UserPromptSubmit':
      return { ...common, event, prompt: s('prompt') };
    case 'PreToolUse':
    case 'PostToolUse': {
      const tool = OPENCODE_FILE_TOOLS[s('tool')];
      const file = s('file_path');
      const files: ToolFile[] = tool && file ? [{ path: file, edited: tool.edited, needles: [] }] : [];
      return { ...common, event, files, toolUseId: s('call_id') };
    }
    case 'Stop':
      return { ...common, event, lastAssistantMessage: '' };
    case 'PostToolUseFailure':
      return { ...common, event, output: '' };
    case 'SubagentStart':
      return { ...common, event, agentId: '', agentType: '' };
    case 'PreCompact':
    case 'SessionEnd':
      return { ...common, event };
  }
}

export function renderOpencodeReply(reply: AgentReply | null): string | null {
  if (!reply || (!reply.additionalContext && !reply.systemMessage)) return null;
  return JSON.stringify({ ...(reply.additionalContext ? { additionalContext: reply.additionalContext } : {}), ...(reply.systemMessage ? { systemMessage: reply.systemMessage } : {}) });
}

export const opencodeHooks: AgentHooks = {
  id: 'opencode',
  event: normalizeEvent,
  parse: (event, raw) => parseOpencodeInput(event, raw),
  render: (_event, reply) => renderOpencodeReply(reply),
};

/**
 * Claude Code's side of a hook call: its event names (git-mem's own spelling), the JSON it sends
 * (snake_case, checked at the edge: one clear line naming the field that is wrong; fields no use
 * case reads are not checked, since the client adds fields over time), its tools, and the reply it
 * reads (`hookSpecificOutput.additionalContext`, a top-level `systemMessage`). Pure but for the
 * transcript, which is read only when a use case asks.
 */
import { editNeedles } from '../../core/history/edit-lines.ts';
import { type HookEvent, normalizeEvent } from '../../core/hook-events.ts';
import { type AgentEvent, type AgentHooks, type AgentReply, field, type ToolFile } from '../event.ts';
import { claudeTranscript } from './transcript.ts';

/** Claude Code's tools that work on one file, and which of them only read it. */
export const FILE_TOOLS = ['Read', 'Write', 'Edit', 'MultiEdit', 'NotebookEdit'] as const;

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** The file a Claude Code file tool works on (none for any other tool). */
export function claudeToolFiles(toolName: string, toolInput: Record<string, unknown>): ToolFile[] {
  if (!(FILE_TOOLS as readonly string[]).includes(toolName)) return [];
  const path = str(toolInput.file_path) || str(toolInput.notebook_path);
  if (!path) return [];
  return [{ path, edited: toolName !== 'Read', needles: editNeedles(toolInput) }];
}

/** The common fields of Claude Code's input (snake_case), as the neutral event has them. */
export function claudeCommon(raw: Record<string, unknown>, agent: AgentEvent['agent'] = 'claude'): Pick<AgentEvent, 'agent' | 'sessionId' | 'cwd' | 'promptId' | 'transcript'> {
  const s = (name: string) => field(raw, name, 'string', '');
  const cwd = field<string | undefined>(raw, 'cwd', 'string', undefined);
  return { agent, sessionId: s('session_id') || 'unknown', ...(cwd ? { cwd } : {}), promptId: s('prompt_id'), transcript: claudeTranscript(s('transcript_path')) };
}

/** Claude Code's input for `event` (the shape Codex and Copilot's PascalCase hooks send too) as the neutral event. */
export function parseClaudeInput(event: HookEvent, raw: Record<string, unknown>, common = claudeCommon(raw)): AgentEvent {
  const s = (name: string) => field(raw, name, 'string', '');
  switch (event) {
    case 'SessionStart':
      return { ...common, event, source: s('source') };
    case 'UserPromptSubmit':
      return { ...common, event, prompt: s('prompt') };
    case 'PreToolUse':
    case 'PostToolUse':
      return { ...common, event, files: claudeToolFiles(s('tool_name'), field(raw, 'tool_input', 'object', {})), toolUseId: s('tool_use_id') };
    case 'SubagentStart':
      return { ...common, event, agentId: s('agent_id'), agentType: s('agent_type') };
    case 'PostToolUseFailure': {
      // A failed Bash command (not one the user interrupted): what it reported, error first.
      const toolName = s('tool_name');
      const error = s('error');
      const interrupted = field(raw, 'is_interrupt', 'boolean', false);
      const response = field<Record<string, unknown>>(raw, 'tool_response', 'object', {});
      const output = toolName === 'Bash' && !interrupted ? [error, str(response.stderr), str(response.stdout)].join('\n') : '';
      return { ...common, event, output };
    }
    case 'Stop':
      return { ...common, event, lastAssistantMessage: s('last_assistant_message') };
    case 'PreCompact':
    case 'SessionEnd':
      return { ...common, event };
  }
}

/** The only shapes a hook prints for Claude Code: documented fields of its hook output. */
export function renderClaudeReply(event: string, reply: AgentReply | null): string | null {
  if (!reply || (!reply.additionalContext && !reply.systemMessage)) return null;
  const out: Record<string, unknown> = {};
  if (reply.systemMessage) out.systemMessage = reply.systemMessage;
  if (reply.additionalContext) out.hookSpecificOutput = { hookEventName: event, additionalContext: reply.additionalContext };
  return JSON.stringify(out);
}

export const claudeHooks: AgentHooks = {
  id: 'claude',
  event: normalizeEvent,
  parse: (event, raw) => parseClaudeInput(event, raw),
  render: (event, reply) => renderClaudeReply(event, reply),
};

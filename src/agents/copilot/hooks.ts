/**
 * GitHub Copilot CLI's side of a hook call. Copilot runs hooks from `.github/hooks/*.json` and,
 * for Claude Code compatibility, from `.claude/settings.json`; it sets COPILOT_CLI=1 in both.
 *
 * - Event names: PascalCase ones (Claude Code's, which git-mem installs) bring Claude-style
 *   snake_case input with tool names mapped (`view` → `Read`, `edit` → `Edit`) but arguments kept
 *   (`path`, `old_str`); camelCase ones (`sessionStart`, `userPromptSubmitted`, `agentStop`…) bring
 *   camelCase input (`sessionId`, `toolName`, `toolArgs`). Both are read.
 * - The reply: Copilot 1.0.x reads only a top-level `additionalContext` (checked against the real
 *   client: a `hookSpecificOutput` is dropped on sessionStart, the prompt and postToolUse, and on a
 *   camelCase preToolUse); a camelCase `userPromptSubmitted` hook's output is ignored altogether,
 *   which is why git-mem installs the PascalCase names. No systemMessage: Copilot does not show it.
 * - The transcript: `~/.copilot/session-state/<session>/events.jsonl` (copilot/transcript.ts).
 */
import { HOOK_EVENTS, type HookEvent, normalizeEvent } from '../../core/hook-events.ts';
import { claudeCommon, parseClaudeInput } from '../claude/hooks.ts';
import { type AgentEvent, type AgentHooks, type AgentReply, field, type ToolFile } from '../event.ts';
import { copilotTranscript } from './transcript.ts';

/** Copilot's camelCase event names that differ from git-mem's beyond case. */
const CAMEL: Record<string, HookEvent> = { userpromptsubmitted: 'UserPromptSubmit', agentstop: 'Stop' };

export function copilotEvent(name: string): HookEvent | null {
  return CAMEL[name.replace(/[-_\s]/g, '').toLowerCase()] ?? normalizeEvent(name);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** Tools that read one file, and tools that change one, by Copilot's names and the Claude names it maps them to. */
const READS = new Set(['view', 'read', 'Read']);
const EDITS = new Set(['edit', 'create', 'write', 'str_replace', 'str_replace_editor', 'insert', 'Edit', 'Write', 'MultiEdit']);

/** The file a Copilot tool works on: its arguments hold `path` (or Claude's `file_path`); an edit's replaced text is `old_str`. */
export function copilotToolFiles(toolName: string, args: Record<string, unknown>): ToolFile[] {
  const edited = EDITS.has(toolName);
  if (!edited && !READS.has(toolName)) return [];
  const path = str(args.path) || str(args.file_path) || str(args.filePath);
  if (!path) return [];
  const needles = [str(args.old_str), str(args.old_string)].filter((n) => n.trim() !== '');
  return [{ path, edited, needles: edited ? needles : [] }];
}

/** `toolArgs` as Copilot sends it: an object, or the same as a JSON string. */
function toolArgs(raw: Record<string, unknown>, name: string): Record<string, unknown> {
  const v = raw[name];
  if (typeof v === 'string') {
    try {
      const parsed: unknown = JSON.parse(v);
      return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  return field(raw, name, 'object', {});
}

export function parseCopilotInput(event: HookEvent, raw: Record<string, unknown>): AgentEvent {
  // Claude-style input (a PascalCase hook, from .github/hooks or .claude/settings.json).
  if ('session_id' in raw || 'hook_event_name' in raw) {
    const common = { ...claudeCommon(raw, 'copilot'), transcript: copilotTranscript(field(raw, 'transcript_path', 'string', '')) };
    if (event === 'PreToolUse' || event === 'PostToolUse') {
      const s = (name: string) => field(raw, name, 'string', '');
      return { ...common, event, files: copilotToolFiles(s('tool_name'), field(raw, 'tool_input', 'object', {})), toolUseId: s('tool_use_id') };
    }
    return parseClaudeInput(event, raw, common);
  }
  const s = (name: string) => field(raw, name, 'string', '');
  const cwd = field<string | undefined>(raw, 'cwd', 'string', undefined);
  const common = { agent: 'copilot' as const, sessionId: s('sessionId') || 'unknown', ...(cwd ? { cwd } : {}), promptId: '', transcript: copilotTranscript(s('transcriptPath')) };
  switch (event) {
    case 'SessionStart':
      return { ...common, event, source: s('source') };
    case 'UserPromptSubmit':
      return { ...common, event, prompt: s('prompt') };
    case 'PreToolUse':
    case 'PostToolUse':
      return { ...common, event, files: copilotToolFiles(s('toolName'), toolArgs(raw, 'toolArgs')), toolUseId: s('toolCallId') };
    case 'PostToolUseFailure':
      return { ...common, event, output: '' };
    case 'SubagentStart':
      return { ...common, event, agentId: s('agentId'), agentType: s('agentType') };
    case 'Stop':
      return { ...common, event, lastAssistantMessage: '' };
    case 'PreCompact':
    case 'SessionEnd':
      return { ...common, event };
  }
}

/** Copilot reads only a top-level additionalContext. */
export function renderCopilotReply(reply: AgentReply | null): string | null {
  return reply?.additionalContext ? JSON.stringify({ additionalContext: reply.additionalContext }) : null;
}

export const copilotHooks: AgentHooks = {
  id: 'copilot',
  event: copilotEvent,
  parse: (event, raw) => parseCopilotInput(event, raw),
  render: (_event, reply) => renderCopilotReply(reply),
};

/** The events git-mem installs for Copilot, in the PascalCase spelling whose output Copilot reads. */
export const COPILOT_EVENTS: readonly HookEvent[] = HOOK_EVENTS.filter((e) => ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'Stop', 'SessionEnd'].includes(e));

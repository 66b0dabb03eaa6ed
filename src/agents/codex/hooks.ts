/**
 * Codex CLI's side of a hook call. Its hooks (`.codex/hooks.json`) are Claude-shaped: the same
 * event names and snake_case input, so Claude Code's reader does the rest, but:
 * - Tools: the shell arrives as `Bash` (or `exec_command`, `shell`) with `{command}`, edits as
 *   `apply_patch` with the patch text in `command`; there is no Read tool, so the files are read out
 *   of the command line or the patch (codex/tool-paths.ts); only files that exist are kept.
 * - The reply: `hookSpecificOutput.additionalContext` and `systemMessage`, nothing else: Codex drops
 *   a hook's whole output when it holds a top-level key it does not know.
 * - The transcript: the rollout under `$CODEX_HOME/sessions/` (codex/transcript.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { type HookEvent, normalizeEvent } from '../../core/hook-events.ts';
import { claudeCommon, parseClaudeInput, renderClaudeReply } from '../claude/hooks.ts';
import { type AgentEvent, type AgentHooks, field, type ToolFile } from '../event.ts';
import { codexTranscript } from './transcript.ts';
import { commandReads, patchFiles } from './tool-paths.ts';

const SHELL_TOOLS = new Set(['Bash', 'exec_command', 'shell', 'local_shell', 'unified_exec']);
/** At most this many files of one command or patch. */
const MAX_FILES = 3;

const str = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.filter((x) => typeof x === 'string').join(' ') : '');

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The files a Codex tool call reads or patches; `cwd` resolves relative paths (a read is kept only when the file exists). */
export function codexToolFiles(toolName: string, toolInput: Record<string, unknown>, cwd: string): ToolFile[] {
  if (toolName === 'apply_patch') {
    const patch = str(toolInput.command) || str(toolInput.input) || str(toolInput.patch);
    return patchFiles(patch)
      .slice(0, MAX_FILES)
      .map((f) => ({ path: f.path, edited: true, needles: f.needles }));
  }
  if (!SHELL_TOOLS.has(toolName)) return [];
  const command = str(toolInput.command) || str(toolInput.cmd);
  return commandReads(command)
    .filter((p) => isFile(path.resolve(cwd, p)))
    .slice(0, MAX_FILES)
    .map((p) => ({ path: p, edited: false, needles: [] }));
}

export function parseCodexInput(event: HookEvent, raw: Record<string, unknown>): AgentEvent {
  const common = { ...claudeCommon(raw, 'codex'), promptId: field(raw, 'turn_id', 'string', ''), transcript: codexTranscript(field(raw, 'transcript_path', 'string', '')) };
  if (event === 'PreToolUse' || event === 'PostToolUse') {
    const s = (name: string) => field(raw, name, 'string', '');
    return { ...common, event, files: codexToolFiles(s('tool_name'), field(raw, 'tool_input', 'object', {}), common.cwd ?? process.cwd()), toolUseId: s('tool_use_id') };
  }
  return parseClaudeInput(event, raw, common);
}

export const codexHooks: AgentHooks = {
  id: 'codex',
  event: normalizeEvent,
  parse: (event, raw) => parseCodexInput(event, raw),
  // Claude Code's shape holds only keys Codex knows (hookSpecificOutput, systemMessage).
  render: (event, reply) => renderClaudeReply(event, reply),
};

/** The events Codex fires that git-mem answers (no SessionEnd, SubagentStart or failure event in Codex). */
export const CODEX_EVENTS: readonly HookEvent[] = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PreCompact', 'Stop'];

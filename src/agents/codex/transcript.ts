/**
 * Codex CLI's transcript: the rollout `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-…-<session>.jsonl`,
 * one record a line. The words are in `response_item` records whose payload is a `message`:
 * `role` user (what was typed, but also the environment context and instructions Codex inserts
 * as `<environment_context>`…), assistant (`output_text` blocks), developer (instructions and
 * hook context: nobody's words). A `compacted` record holds the summary a compaction left.
 * Everything else (event_msg, turn_context, tool calls and outputs, token counts) is skipped.
 */
import { promptOrigin, type TranscriptEntry } from '../../core/transcript-entries.ts';
import type { Transcript } from '../event.ts';
import { jsonlTranscript } from '../transcript-file.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What Codex inserts as a user message: a tag block at its start. */
const INSERTED = /^<(environment_context|user_instructions|user_shell_command|turn_aborted|subagent_notification)\b|^# AGENTS\.md instructions/;

function blocksText(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Json => isObject(b) && (b.type === 'input_text' || b.type === 'output_text' || b.type === 'text') && typeof b.text === 'string')
    .map((b) => (b.text as string).trim())
    .filter(Boolean)
    .join('\n\n');
}

export function codexEntry(line: string): TranscriptEntry | null {
  if (!line.trim() || !(line.includes('"response_item"') || line.includes('"compacted"'))) return null;
  let record: unknown;
  try {
    record = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(record) || !isObject(record.payload)) return null;
  const p = record.payload;
  if (record.type === 'compacted') return typeof p.message === 'string' ? { kind: 'compact-summary', sidechain: false, text: p.message.trim(), messageId: '' } : null;
  if (record.type !== 'response_item' || p.type !== 'message') return null;
  const text = blocksText(p.content);
  const messageId = String(p.id ?? '');
  if (p.role === 'assistant') return { kind: 'reply', sidechain: false, text, messageId };
  if (p.role !== 'user') return { kind: 'meta', sidechain: false, text, messageId };
  if (INSERTED.test(text)) return { kind: 'meta', sidechain: false, text, messageId };
  const judged = promptOrigin(text);
  return judged.pasted ? { kind: 'pasted', sidechain: false, text, messageId, reason: judged.reason } : { kind: 'prompt', sidechain: false, text, messageId };
}

export const codexTranscript = (path: string): Transcript => jsonlTranscript(path, codexEntry);

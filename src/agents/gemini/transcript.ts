/**
 * Gemini CLI's transcript (JSONL under ~/.gemini/tmp/<project>/chats/session-*.jsonl): a header
 * line, `$set` lines that update the session's record, and one line per message,
 * `{id, type: 'user' | 'gemini' | 'info' | 'error' …, content}`. A model message is written again
 * under the same id as its tool calls finish (one message, told apart by id). What the CLI puts in
 * a user message beside the prompt (the `<session_context>` of the first message, hooks'
 * `<hook_context>` blocks) is nobody's words; a message of tool results is a tool result.
 */
import { promptOrigin, type TranscriptEntry } from '../../core/transcript-entries.ts';
import type { Transcript } from '../event.ts';
import { jsonlTranscript } from '../transcript-file.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What Gemini CLI adds to a prompt: hooks' context (SessionStart's is prepended to the prompt itself). */
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g;

/** A prompt without what hooks added to it. */
export function withoutHookContext(text: string): string {
  return text.includes('<hook_context>') ? text.replace(HOOK_CONTEXT, '').trim() : text.trim();
}

function partsText(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((p) => (isObject(p) && typeof p.text === 'string' && p.thought !== true ? [p.text.trim()] : []))
    .filter(Boolean)
    .join('\n\n');
}

/** One line of a Gemini CLI transcript as an entry, or null when it is no one's words. */
export function geminiEntry(line: string): TranscriptEntry | null {
  if (!line.trim()) return null;
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(entry) || typeof entry.type !== 'string') return null;
  const messageId = String(entry.id ?? '');
  const at = (kind: TranscriptEntry['kind'], text: string): TranscriptEntry => ({ kind, sidechain: false, text, messageId });
  if (entry.type === 'gemini') return at('reply', partsText(entry.content));
  if (entry.type !== 'user') return null;
  const content = entry.content;
  if (Array.isArray(content) && content.length && content.every((p) => isObject(p) && p.functionResponse !== undefined)) return at('tool-result', '');
  const raw = partsText(content);
  if (raw.startsWith('<session_context>')) return at('meta', raw);
  const text = withoutHookContext(raw);
  if (!text) return at(raw ? 'meta' : 'prompt', '');
  const judged = promptOrigin(text);
  return judged.pasted ? { ...at('pasted', text), reason: judged.reason } : at('prompt', text);
}

export const geminiTranscript = (path: string): Transcript => jsonlTranscript(path, geminiEntry);

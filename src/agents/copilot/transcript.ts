/**
 * Copilot CLI's transcript: `~/.copilot/session-state/<session>/events.jsonl`, one event a line
 * (`{"type":"user.message","data":{"content":…}}`, `assistant.message` with `content` and
 * `toolRequests`, and many others: hooks, tool runs, usage). What the user typed and what the
 * assistant said become core/transcript-entries.ts entries; everything else is nobody's words.
 */
import { promptOrigin, type TranscriptEntry } from '../../core/transcript-entries.ts';
import type { Transcript } from '../event.ts';
import { jsonlTranscript } from '../transcript-file.ts';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export function copilotEntry(line: string): TranscriptEntry | null {
  if (!line.trim() || !(line.includes('"user.message"') || line.includes('"assistant.message"') || line.includes('compaction'))) return null;
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    return null;
  }
  if (!isObject(event) || !isObject(event.data)) return null;
  const data = event.data;
  const text = typeof data.content === 'string' ? data.content.trim() : '';
  const messageId = String(data.messageId ?? event.id ?? '');
  if (event.type === 'assistant.message') return { kind: 'reply', sidechain: typeof data.parentToolCallId === 'string', text, messageId };
  if (event.type === 'user.message') {
    const judged = promptOrigin(text);
    return judged.pasted ? { kind: 'pasted', sidechain: false, text, messageId, reason: judged.reason } : { kind: 'prompt', sidechain: false, text, messageId };
  }
  if (typeof event.type === 'string' && event.type.includes('compaction') && typeof data.summary === 'string') return { kind: 'compact-summary', sidechain: false, text: data.summary, messageId };
  return null;
}

export const copilotTranscript = (path: string): Transcript => jsonlTranscript(path, copilotEntry);

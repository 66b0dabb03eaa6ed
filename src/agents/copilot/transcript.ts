/**
 * Copilot CLI's transcript: `~/.copilot/session-state/<session>/events.jsonl`, one event a line
 * (`{"type":"user.message","data":{"content":…}}`, `assistant.message` with `content` and
 * `toolRequests`, and many others: hooks, tool runs, usage). What the user typed and what the
 * assistant said become core/transcript-entries.ts entries; everything else is nobody's words.
 */
import { promptOrigin, type TranscriptEntry } from '../../core/transcript-entries.ts';
import type { Transcript } from '../event.ts';
import { jsonlTranscript } from '../transcript-file.ts';
import { sleepSync } from '../../io/processes.ts';

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

/**
 * Copilot writes events.jsonl behind its hooks: when Stop runs, the turn's last assistant message
 * may not be in the file yet (seen under load), and Stop brings no last message of its own. So a
 * turn read with no reply is read again, a little later, for up to TURN_WAIT_MS.
 */
export const TURN_WAIT_MS = 1500;
const TURN_POLL_MS = 50;

export function copilotTranscript(path: string): Transcript {
  const file = jsonlTranscript(path, copilotEntry);
  return {
    ...file,
    turnMessages(last) {
      const deadline = Date.now() + TURN_WAIT_MS;
      let messages = file.turnMessages(last);
      while (!messages.length && path && Date.now() < deadline) {
        sleepSync(TURN_POLL_MS);
        messages = file.turnMessages(last);
      }
      return messages;
    },
  };
}

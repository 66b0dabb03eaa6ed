/**
 * Reading a client's transcript (JSONL) for the hooks: the file's tail, cut
 * into lines, each judged by the client's line reader (agents/<client>/transcript.ts)
 * as an entry of core/transcript-entries.ts (who said what). A missing or
 * unreadable file, or anything but a regular file, reads as empty.
 */
import fs from 'node:fs';
import { saidOnce, withoutNarration } from '../core/narration.ts';
import { SCAN_MAX } from '../core/signals.ts';
import { type AgentMessage, isApiErrorText, lastCompactSummary, lastWholeMessages, type SessionMessages, sessionReplies, startsTurn, type TranscriptEntry, turnReplies } from '../core/transcript-entries.ts';
import type { Transcript } from './event.ts';

/** One line of a client's transcript as an entry, or null when it is no one's words. */
export type LineReader = (line: string) => TranscriptEntry | null;

/**
 * PreCompact reads at most this much of the file's end: a compaction is about the
 * words since the last one, and tool results take most of a transcript (a 4 MB
 * 1.0.x session holds about 200 KB of words). Parsing 8 MB takes about 40 ms.
 */
const SESSION_BYTES = 8 * 1024 * 1024;
/** A turn rarely writes more than this; Stop runs after every turn and reads no further back. */
const TURN_BYTES = 2 * 1024 * 1024;

/**
 * The last `maxBytes` of a regular file as text ('' when it cannot be read). A
 * FIFO, a device (/dev/zero) or a directory is never opened: opening a FIFO
 * waits for a writer, forever. Cut at a line's start, so no line (and no UTF-8
 * character) is read in part.
 */
function readTail(file: string, maxBytes: number): string {
  if (!file) return '';
  try {
    if (!fs.statSync(file).isFile()) return '';
    // O_NONBLOCK: should the path turn into a FIFO between the check and the open, open does not wait.
    const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile()) return '';
      const total = stat.size;
      const size = Math.min(total, maxBytes);
      const buf = Buffer.alloc(size);
      const read = fs.readSync(fd, buf, 0, size, total - size);
      const start = size < total ? buf.indexOf(10) + 1 : 0;
      return start > 0 || size === total ? buf.toString('utf8', start, read) : '';
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

/** Every user and assistant entry of a transcript's text, oldest first. */
export function transcriptEntries(jsonl: string, read: LineReader): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  for (const line of jsonl.split('\n')) {
    const entry = read(line);
    if (entry) entries.push(entry);
  }
  return entries;
}

/**
 * The entries of the current turn and the one that started it, oldest first: only
 * the turn's lines are parsed, walking back from the end.
 */
export function turnEntries(jsonl: string, read: LineReader): TranscriptEntry[] {
  const lines = jsonl.split('\n');
  const out: TranscriptEntry[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const entry = read(lines[i]!);
    if (!entry) continue;
    out.push(entry);
    if (startsTurn(entry)) break;
  }
  return out.reverse();
}

/**
 * What was said since the session's last compaction, by speaker, one string per message (PreCompact gives the
 * detector each message on its own), the main agent's each with whether it is a working note.
 */
export function readSessionMessages(file: string, read: LineReader): SessionMessages {
  const words = sessionReplies(transcriptEntries(readTail(file, SESSION_BYTES), read), SCAN_MAX);
  return { ...words, assistant: agentWords(words.assistant) };
}

/**
 * What the detector reads of the main agent's messages: its narration (plans, reports of what it did,
 * status, questions, labels) taken out, and a paragraph it repeats read once (core/narration.ts): where
 * the turn's conclusion repeats a working note's paragraph, in the conclusion.
 */
function agentWords(messages: readonly AgentMessage[]): AgentMessage[] {
  const order = [...messages.keys()].sort((a, b) => Number(messages[a]!.working) - Number(messages[b]!.working) || a - b);
  const once = saidOnce(order.map((i) => withoutNarration(messages[i]!.text)));
  const texts: string[] = [];
  order.forEach((i, k) => {
    texts[i] = once[k]!;
  });
  return messages.map((m, i) => ({ text: texts[i]!, working: m.working })).filter((m) => m.text);
}

/**
 * What Stop gives the statement detector, one message at a time: the main agent's messages in the whole
 * turn (a marker written before a tool call is not in the last message), and the client's last assistant
 * message when the transcript does not hold it yet (the turn's last: no working note). An API error
 * reported in its place is nobody's words.
 */
export function stopMessages(file: string, lastAssistantMessage: string, read: LineReader): AgentMessage[] {
  const message = isApiErrorText(lastAssistantMessage) ? '' : lastAssistantMessage.trim();
  const turn = turnReplies(turnEntries(readTail(file, TURN_BYTES), read), SCAN_MAX);
  if (message && !turn.map((m) => m.text).join('\n\n').includes(message)) turn.push({ text: message, working: false });
  return agentWords(lastWholeMessages(turn, SCAN_MAX));
}

/** The text of the last compaction summary in a transcript ('' when there is none). */
export function readCompactSummary(file: string, read: LineReader): string {
  return lastCompactSummary(transcriptEntries(readTail(file, SESSION_BYTES), read));
}

/** A client's transcript file as the use cases read it. */
export function jsonlTranscript(file: string, read: LineReader): Transcript {
  return {
    sessionMessages: () => readSessionMessages(file, read),
    turnMessages: (last) => stopMessages(file, last, read),
    compactSummary: () => readCompactSummary(file, read),
  };
}

/**
 * Text of a Claude Code transcript (JSONL): user prompts and assistant text, in
 * order. The format is internal to Claude Code, so read defensively: skip
 * malformed lines and anything not recognised; a missing file is empty.
 */
import fs from 'node:fs';

/** Transcripts can be large; signals in the last MB or two are what a compaction is about to lose. */
const MAX_BYTES = 2 * 1024 * 1024;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (block && typeof block === 'object' && (block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

function parseLine(line: string): Record<string, unknown> | null {
  if (!line.trim()) return null;
  try {
    const entry = JSON.parse(line) as unknown;
    return entry && typeof entry === 'object' ? (entry as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** An entry's text, and a key that is the same for the same text of one API message (Claude Code writes one message as several lines sharing message.id). */
function entryText(entry: Record<string, unknown>): { text: string; key: string } {
  const message = entry.message as { id?: unknown; content?: unknown } | undefined;
  const text = textOf(message?.content).trim();
  return { text, key: `${String(message?.id ?? entry.uuid ?? '')}\0${text}` };
}

export function transcriptText(jsonl: string): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const line of jsonl.split('\n')) {
    const entry = parseLine(line);
    if (!entry || (entry.type !== 'user' && entry.type !== 'assistant') || entry.isMeta || entry.isCompactSummary) continue;
    const { text, key } = entryText(entry);
    if (!text || seen.has(key) || text.startsWith('<command-name>') || text.startsWith('<local-command-stdout>')) continue;
    seen.add(key);
    parts.push(text);
  }
  return parts.join('\n\n');
}

/** A prompt the user typed (not a tool result, a command's output or a compaction summary). */
function isPrompt(entry: Record<string, unknown>): boolean {
  if (entry.type !== 'user' || entry.isMeta || entry.isCompactSummary || entry.toolUseResult !== undefined) return false;
  const content = (entry.message as { content?: unknown } | undefined)?.content;
  if (typeof content === 'string') return content.trim().length > 0;
  return Array.isArray(content) && content.some((b) => b?.type === 'text') && !content.some((b) => b?.type === 'tool_result');
}

/**
 * The assistant's text in the current turn: everything it wrote since the
 * last prompt the user typed, in order, each text once. Only the turn's lines
 * are parsed, walking back from the end.
 */
export function currentTurnText(jsonl: string): string {
  const lines = jsonl.split('\n');
  const parts: string[] = [];
  const seen = new Set<string>();
  for (let i = lines.length - 1; i >= 0; i--) {
    const entry = parseLine(lines[i]!);
    if (!entry) continue;
    if (isPrompt(entry)) break;
    if (entry.type !== 'assistant') continue;
    const { text, key } = entryText(entry);
    if (!text || seen.has(key)) continue;
    seen.add(key);
    parts.unshift(text);
  }
  return parts.join('\n\n');
}

/**
 * The last `maxBytes` of a regular file as text ('' when it cannot be read). A
 * FIFO, a device (/dev/zero) or a directory is never opened: opening a FIFO
 * waits for a writer, forever.
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
      fs.readSync(fd, buf, 0, size, total - size);
      return buf.toString('utf8');
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

export function readTranscriptText(file: string): string {
  return transcriptText(readTail(file, MAX_BYTES));
}

/** A turn rarely writes more than this; Stop runs after every turn and reads no further back. */
const TURN_BYTES = 1024 * 1024;

export function readCurrentTurnText(file: string): string {
  return currentTurnText(readTail(file, TURN_BYTES));
}

/** Claude Code starts the summary a compaction leaves with these words (2.1.328), and flags it isCompactSummary. */
const COMPACT_SUMMARY_START = 'This session is being continued from a previous conversation';

/** The text of the last compaction summary in a transcript ('' when there is none). */
export function compactSummaryText(jsonl: string): string {
  const lines = jsonl.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const entry = parseLine(lines[i]!);
    if (!entry || entry.type !== 'user') continue;
    const message = entry.message as { content?: unknown } | undefined;
    const text = textOf(message?.content);
    if (entry.isCompactSummary === true || text.startsWith(COMPACT_SUMMARY_START)) return text;
  }
  return '';
}

export function readCompactSummary(file: string): string {
  return compactSummaryText(readTail(file, MAX_BYTES));
}

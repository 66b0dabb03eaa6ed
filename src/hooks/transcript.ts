/**
 * Text of a Claude Code transcript (JSONL): user prompts and assistant text, in
 * order. The format is internal to Claude Code, so read defensively: skip
 * malformed lines and anything not recognised; a missing file is empty.
 */
import fs from 'node:fs';

/** Transcripts can be large; signals in the last few MB are what a compaction is about to lose. */
const MAX_BYTES = 8 * 1024 * 1024;

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (block && typeof block === 'object' && (block as { type?: unknown }).type === 'text' ? String((block as { text?: unknown }).text ?? '') : ''))
    .filter(Boolean)
    .join('\n');
}

export function transcriptText(jsonl: string): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if ((entry.type !== 'user' && entry.type !== 'assistant') || entry.isMeta || entry.isCompactSummary) continue;
    const message = entry.message as { id?: unknown; content?: unknown } | undefined;
    const text = textOf(message?.content).trim();
    // Claude Code writes one API message as several lines sharing message.id; keep each text once.
    const key = `${String(message?.id ?? entry.uuid ?? '')}\0${text}`;
    if (!text || seen.has(key) || text.startsWith('<command-name>') || text.startsWith('<local-command-stdout>')) continue;
    seen.add(key);
    parts.push(text);
  }
  return parts.join('\n\n');
}

export function readTranscriptText(file: string): string {
  if (!file) return '';
  try {
    const stat = fs.statSync(file);
    const fd = fs.openSync(file, 'r');
    try {
      const size = Math.min(stat.size, MAX_BYTES);
      const buf = Buffer.alloc(size);
      fs.readSync(fd, buf, 0, size, stat.size - size);
      return transcriptText(buf.toString('utf8'));
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return '';
  }
}

/**
 * Who said what in a Claude Code transcript (JSONL). Pure: lines in, entries
 * out. The format is internal to Claude Code and changes between versions, so
 * every entry is judged by what it carries, and what is not recognised is
 * read as nobody's words (see docs/transcripts.md for the shapes and rules).
 *
 * - The main thread against subagents: Claude Code 1.0.x writes a subagent's
 *   entries inline, flagged `isSidechain: true`; 2.x writes them to files of
 *   their own. A subagent's words are never the session's, and its prompt is
 *   never the start of the main agent's turn.
 * - What the user typed, against what the user pasted (see `promptOrigin`)
 *   and what Claude Code inserted in the user's name: slash commands and their
 *   output, `!` shell commands and their output, task notifications,
 *   interruptions, compaction summaries (flagged `isCompactSummary` or not),
 *   `isMeta` entries (skill and command expansions, caveats, hook feedback).
 * - What the assistant said, against what Claude Code wrote in its name: API
 *   errors and limits (`isApiErrorMessage`, model `<synthetic>`, "API Error: …").
 *   Thinking blocks and tool calls are not words said to anyone.
 */

/** What an entry is. */
export type EntryKind =
  /** A prompt the user typed. */
  | 'prompt'
  /** A prompt the user pasted (see promptOrigin): a log, JSON, a document, another session's screen. */
  | 'pasted'
  /** A slash command (`<command-name>`, `<command-message>`, `<command-args>`), or a `#` memory note. */
  | 'command'
  /** What a local command or a `!` shell command printed, or the shell command itself. */
  | 'command-output'
  /** A background task's notice (`<task-notification>`): Claude Code starts a turn with it. */
  | 'task-notification'
  /** "[Request interrupted by user]", "[Request interrupted by user for tool use]". */
  | 'interruption'
  /** The summary a compaction leaves, flagged or not. */
  | 'compact-summary'
  /** Other entries Claude Code inserts: isMeta, caveats, system reminders, skill expansions. */
  | 'meta'
  /** A tool's result (written as a user entry). */
  | 'tool-result'
  /** The assistant's words (its text blocks; possibly none, when the entry only calls a tool or thinks). */
  | 'reply'
  /** An API error or a usage limit Claude Code wrote as the assistant's message. */
  | 'api-error';

export interface TranscriptEntry {
  kind: EntryKind;
  /** Written by a subagent (1.0.x inline sidechain). */
  sidechain: boolean;
  /** The entry's text blocks, each trimmed, joined with blank lines; '' when it has none. */
  text: string;
  /** The same for every line Claude Code wrote of one API message (message.id), else the entry's uuid. */
  messageId: string;
  /** Why a prompt is taken for pasted material. */
  reason?: string;
}

/** Claude Code starts the summary a compaction leaves with these words (1.0.x to 2.1.x), flagged isCompactSummary or not. */
const COMPACT_SUMMARY_START = 'This session is being continued from a previous conversation';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A marker typed with a Chinese, Japanese or Korean input method comes out in full-width forms
 * (`［decision］`, `［ｄｅｃｉｓｉｏｎ］`): written back in ASCII, so the detector knows it. Only
 * bracketed Latin words are touched; the rest of the text stays as it was written.
 */
const WIDE_MARKER = /［([Ａ-Ｚａ-ｚA-Za-z][Ａ-Ｚａ-ｚA-Za-z0-9０-９:：_＿\-－]*)］/g;

function asciiMarkers(text: string): string {
  return text.includes('［') ? text.replace(WIDE_MARKER, (_, word: string) => `[${word.normalize('NFKC')}]`) : text;
}

/** The text blocks of a message's content, each trimmed, joined with blank lines (a string content is one block). */
function textBlocks(content: unknown): string {
  return asciiMarkers(rawTextBlocks(content));
}

function rawTextBlocks(content: unknown): string {
  if (typeof content === 'string') return content.trim();
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content) {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      const text = block.text.trim();
      if (text) parts.push(text);
    }
  }
  return parts.join('\n\n');
}

const hasToolResult = (content: unknown): boolean => Array.isArray(content) && content.some((b) => isObject(b) && b.type === 'tool_result');

/** Claude Code's own messages in the assistant's name: API errors, limits, login and billing notices. */
const API_ERROR_TEXT = /^(?:API Error\b|Claude AI usage limit reached|Credit balance is too low|\d+-hour limit reached|You've hit your (?:usage )?limit|You're out of (?:extra )?usage|Not logged in\b|Invalid API key\b|Your organization does not have access|Request timed out|Prompt is too long)/i;

/** Whether a message in the assistant's name is Claude Code reporting an API error or a limit (also Stop's last_assistant_message). */
export function isApiErrorText(text: string): boolean {
  return API_ERROR_TEXT.test(text.trimStart());
}

/** Tags Claude Code wraps around what it inserts as a user entry, by the kind they make it. */
const INSERTED: Array<[RegExp, EntryKind]> = [
  // A command the agent ran itself (the SlashCommand or Skill tool) is announced mid-turn: it starts no turn.
  [/^<command-(?:name|message)>[\s\S]*?<command-message>[^<]*\bis running\b|^<command-message>[^<]*\bis running\b/, 'meta'],
  [/^<(?:command-name|command-message|command-args|user-memory-input)>/, 'command'],
  [/^<(?:local-command-stdout|local-command-stderr|bash-input|bash-stdout|bash-stderr)>/, 'command-output'],
  [/^<task-notification>/, 'task-notification'],
  [/^\[Request interrupted by user\b/, 'interruption'],
  [/^Caveat: The messages below were generated by the user while running local commands/, 'meta'],
];

/** What Claude Code puts inside a user entry beside the prompt (system reminders, the IDE's open file or selection): not the user's words. */
const INSERTED_BLOCK = /<(system-reminder|ide_opened_file|ide_selection|ide_diagnostics)>[\s\S]*?<\/\1>/g;

/** One parsed transcript line as an entry; null when it is not a user or an assistant entry (or not JSON at all). */
export function classifyEntry(entry: unknown): TranscriptEntry | null {
  if (!isObject(entry) || (entry.type !== 'user' && entry.type !== 'assistant')) return null;
  const message = isObject(entry.message) ? entry.message : {};
  const sidechain = entry.isSidechain === true;
  const messageId = String(message.id ?? entry.uuid ?? '');
  if (entry.type === 'assistant') {
    const text = textBlocks(message.content);
    const apiError = entry.isApiErrorMessage === true || message.model === '<synthetic>' || isApiErrorText(text);
    return { kind: apiError ? 'api-error' : 'reply', sidechain, text, messageId };
  }
  const content = message.content;
  const at = (kind: EntryKind, text: string): TranscriptEntry => ({ kind, sidechain, text, messageId });
  if (hasToolResult(content) || entry.toolUseResult !== undefined) return at('tool-result', '');
  const raw = textBlocks(content);
  if (entry.isCompactSummary === true || raw.startsWith(COMPACT_SUMMARY_START)) return at('compact-summary', raw);
  if (entry.isMeta === true || entry.isVisibleInTranscriptOnly === true) return at('meta', raw);
  for (const [tag, kind] of INSERTED) if (tag.test(raw)) return at(kind, raw);
  const origin = isObject(entry.origin) ? entry.origin.kind : undefined;
  if (origin === 'task-notification') return at('task-notification', raw);
  const text = raw.replace(INSERTED_BLOCK, '').trim();
  // Only what Claude Code put in: inserted. No text at all (an image): a prompt with no words.
  if (!text) return at(raw ? 'meta' : 'prompt', '');
  const judged = promptOrigin(text);
  return judged.pasted ? { ...at('pasted', text), reason: judged.reason } : at('prompt', text);
}

/** One JSONL line as an entry; null for a blank, malformed or partial line, or one that is neither user nor assistant. */
export function parseEntry(line: string): TranscriptEntry | null {
  if (!line.trim()) return null;
  try {
    return classifyEntry(JSON.parse(line));
  } catch {
    return null;
  }
}

/**
 * A prompt is pasted material, not the user's typed words, when
 * - it is longer than PASTE_CHARS (a typed prompt rarely is: 21 of 634 real prompts were, and all but
 *   one of those held a spec, a log, a document or another session's text), or
 * - it is one JSON document, or
 * - at least half of its characters (blank lines aside) are in lines of code, a log, JSON or a
 *   terminal's output (machineLine), fenced code blocks included, or
 * - it holds a Claude Code screen or another session's compaction summary.
 * Everything else is typed, and read whole (the statement detector skips the code blocks in it).
 */
export const PASTE_CHARS = 2000;

export function promptOrigin(text: string): { pasted: boolean; reason?: string } {
  const trimmed = text.trim();
  if (trimmed.length > PASTE_CHARS) return { pasted: true, reason: `longer than ${PASTE_CHARS} characters` };
  if (/^[[{]/.test(trimmed) && isJson(trimmed)) return { pasted: true, reason: 'JSON' };
  if (trimmed.includes(COMPACT_SUMMARY_START) || /^\s*[⏺●⎿✻]\s/mu.test(trimmed) || /^\s*[╭╰]─/mu.test(trimmed)) return { pasted: true, reason: 'a Claude Code screen' };
  // By characters: a long JSON line outweighs a short request above it.
  let machine = 0;
  let total = 0;
  let fenced = false;
  let lines = 0;
  for (const line of trimmed.split('\n')) {
    const size = line.trim().length;
    if (!size) continue;
    total += size;
    lines++;
    const fence = /^\s*(?:```|~~~)/.test(line);
    if (fence || fenced || machineLine(line)) machine += size;
    if (fence) fenced = !fenced;
  }
  if (lines > 1 && machine * 2 >= total) return { pasted: true, reason: 'mostly code, log or JSON' };
  return { pasted: false };
}

function isJson(text: string): boolean {
  try {
    return typeof JSON.parse(text) === 'object';
  } catch {
    return false;
  }
}

/**
 * A line a person did not write as prose: code, JSON, a log line, a stack frame, shell output, a table
 * row. Judged by its shape only, so it is language-neutral.
 */
export function machineLine(line: string): boolean {
  const l = line.trim();
  if (!l) return false;
  // JSON and code: braces first, a key in quotes, a statement's end; tags; shell prompts, shebangs, diffs.
  if (/^[{}\]]|^["'][^"']*["']\s*:|[{;([]$|=>|::|^<\/?[A-Za-z][\w-]*[\s>/]/.test(l)) return true;
  if (/^(?:\$|#!|>>>|\+\+\+|@@)\s?|^[\w.-]+@[\w.-]+:\S*[$#]/.test(l)) return true;
  if (/^(?:import|export|const|let|var|def|class|function|fn|pub|package|#include)\s+[\w{*]/.test(l) && /[=({:;]/.test(l)) return true;
  // Log lines: a timestamp or a level first; stack frames; compiler messages (file:line:col).
  if (/^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|^\[?\d{2}:\d{2}:\d{2}|^\[(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL|SUCCESS)\]|^(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL):|^at\s+\S+\s*\(|^File "|^Traceback\b|^\S+\.\w+:\d+(?::\d+)?[:\s]/.test(l)) return true;
  // Package managers and build tools: a version in parentheses, progress dots after a number.
  if (/\(\d+(?:[.:~+-]\w+)+\)|\d\S*\s*\.\.\.$/.test(l)) return true;
  // Table rows and box drawing.
  if (/^\|.*\|$/.test(l) || /[│┃║╔╗╚╝═─━]{2,}/u.test(l)) return true;
  // Few letters: hashes, numbers, paths, symbols.
  const letters = (l.match(/\p{L}/gu) ?? []).length;
  return l.length >= 8 && letters / l.length < 0.4;
}

/**
 * Whether an entry gives the main agent a new turn: a prompt (typed or pasted), a slash command, a task
 * notification, or a compaction summary (the agent carries on from it). A subagent's prompt never does,
 * nor a tool result, an interruption, a command's output or an entry Claude Code inserted as meta.
 */
export function startsTurn(entry: TranscriptEntry): boolean {
  if (entry.sidechain) return false;
  return entry.kind === 'prompt' || entry.kind === 'pasted' || entry.kind === 'command' || entry.kind === 'task-notification' || entry.kind === 'compact-summary';
}

/**
 * Each message's words once, one string per API message: Claude Code writes one message as several lines
 * sharing message.id (joined here with a blank line), and 1.0.x repeats lines.
 */
function messageTexts(entries: readonly TranscriptEntry[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  let lastId: string | undefined;
  for (const e of entries) {
    const key = `${e.messageId}\0${e.text}`;
    if (!e.text || seen.has(key)) continue;
    seen.add(key);
    if (e.messageId && e.messageId === lastId) out[out.length - 1] += `\n\n${e.text}`;
    else out.push(e.text);
    lastId = e.messageId;
  }
  return out;
}

/**
 * One of the main agent's messages: its words, and whether it is a working note. A message is a working
 * note when the agent called a tool after it in the same turn (a diagnosis written before the fix, a
 * finding on the way, the code about to change described): what it says is not yet checked, nor what
 * the agent concluded. The turn's last message, written when the work is done, is not one.
 */
export interface AgentMessage {
  text: string;
  working: boolean;
}

/**
 * The main agent's messages among `entries` (main-thread entries, oldest first), each once (as
 * messageTexts), each marked a working note when a tool's result follows it before the next turn starts.
 */
function agentMessages(entries: readonly TranscriptEntry[]): AgentMessage[] {
  const seen = new Set<string>();
  const out: AgentMessage[] = [];
  let lastId: string | undefined;
  /** The message a tool's result would follow: none once a new turn has started. */
  let open: AgentMessage | undefined;
  for (const e of entries) {
    if (startsTurn(e)) open = undefined;
    if (e.kind === 'tool-result') {
      if (open) open.working = true;
      continue;
    }
    if (e.kind !== 'reply') continue;
    const key = `${e.messageId}\0${e.text}`;
    if (!e.text || seen.has(key)) continue;
    seen.add(key);
    if (e.messageId && e.messageId === lastId) out[out.length - 1]!.text += `\n\n${e.text}`;
    else out.push({ text: e.text, working: false });
    open = out[out.length - 1];
    lastId = e.messageId;
  }
  return out;
}

/** lastWhole over messages, each keeping whether it is a working note. */
export function lastWholeMessages(messages: readonly AgentMessage[], max: number): AgentMessage[] {
  const texts = lastWhole(
    messages.map((m) => m.text),
    max,
  );
  const from = messages.length - texts.length;
  return texts.map((text, i) => ({ text, working: messages[from + i]!.working }));
}

/**
 * Whole messages from the end, oldest first, as many as fit in `max` characters joined with blank lines;
 * when the last alone is longer, its end.
 */
export function lastWhole(texts: readonly string[], max: number): string[] {
  let size = 0;
  let from = texts.length;
  while (from > 0 && size + texts[from - 1]!.length <= max) {
    from--;
    size += texts[from]!.length + 2;
  }
  if (from === texts.length && texts.length) return [texts.at(-1)!.slice(-max)];
  return texts.slice(from);
}

/** The words to look for statements in, by speaker. */
export interface SpokenText {
  /** The main agent's replies, whole, in order, joined with blank lines. */
  assistant: string;
  /** The prompts the user typed (not pasted, not inserted), likewise. */
  user: string;
}

/** The same words, one string per message (an API message's text blocks joined with blank lines), oldest first. */
export interface SpokenMessages {
  assistant: string[];
  user: string[];
}

/** SpokenMessages, the main agent's each with whether it is a working note (AgentMessage). */
export interface SessionMessages {
  assistant: AgentMessage[];
  user: string[];
}

/**
 * What was said in the session since its last compaction (what a compaction is about to summarise): the
 * main agent's replies and the user's typed prompts, each speaker's newest whole messages up to `max`
 * characters, one string per message.
 *
 * The detector is given each message on its own: a message ends where the agent called a tool or the user
 * sent it, so a lead-in closing one ("Let me check what's happening:") introduces a tool call, not the
 * next message, and no statement spans two messages.
 */
export function sessionMessages(entries: readonly TranscriptEntry[], max: number): SpokenMessages {
  const words = sessionReplies(entries, max);
  return { assistant: words.assistant.map((m) => m.text), user: words.user };
}

/** sessionMessages, each of the main agent's messages with whether it is a working note. */
export function sessionReplies(entries: readonly TranscriptEntry[], max: number): SessionMessages {
  let start = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (entries[i]!.kind === 'compact-summary' && !entries[i]!.sidechain) {
      start = i + 1;
      break;
    }
  }
  const main = entries.slice(start).filter((e) => !e.sidechain);
  return {
    assistant: lastWholeMessages(agentMessages(main), max),
    user: lastWhole(messageTexts(main.filter((e) => e.kind === 'prompt')), max),
  };
}

/** sessionMessages, each speaker's messages joined with blank lines. */
export function sessionWords(entries: readonly TranscriptEntry[], max: number): SpokenText {
  const m = sessionMessages(entries, max);
  return { assistant: m.assistant.join('\n\n'), user: m.user.join('\n\n') };
}

/**
 * The main agent's messages in the current turn: its replies after the last entry that started a turn
 * (startsTurn), whole, oldest first, the newest up to `max` characters. Entries are given oldest first;
 * only the turn's are looked at.
 */
export function turnMessages(entries: readonly TranscriptEntry[], max: number): string[] {
  return turnReplies(entries, max).map((m) => m.text);
}

/** turnMessages, each with whether it is a working note (the agent called a tool after it). */
export function turnReplies(entries: readonly TranscriptEntry[], max: number): AgentMessage[] {
  let start = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    if (startsTurn(entries[i]!)) {
      start = i + 1;
      break;
    }
  }
  return lastWholeMessages(agentMessages(entries.slice(start).filter((e) => !e.sidechain)), max);
}

/** turnMessages joined with blank lines. */
export function turnWords(entries: readonly TranscriptEntry[], max: number): string {
  return turnMessages(entries, max).join('\n\n');
}

/** The text of the last compaction summary of the main thread ('' when there is none). */
export function lastCompactSummary(entries: readonly TranscriptEntry[]): string {
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.kind === 'compact-summary' && !e.sidechain) return e.text;
  }
  return '';
}

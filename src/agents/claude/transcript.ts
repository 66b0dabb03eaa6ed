/**
 * Claude Code's transcript (JSONL under ~/.claude/projects/): each line judged by
 * core/transcript-entries.ts (docs/transcripts.md), read through agents/transcript-file.ts.
 */
import { type AgentMessage, parseEntry, type SessionMessages, type SpokenMessages, type TranscriptEntry } from '../../core/transcript-entries.ts';
import type { Transcript } from '../event.ts';
import * as file from '../transcript-file.ts';

/** Every user and assistant entry of a transcript's text, oldest first. */
export const transcriptEntries = (jsonl: string): TranscriptEntry[] => file.transcriptEntries(jsonl, parseEntry);
/** The entries of the current turn and the one that started it, oldest first. */
export const turnEntries = (jsonl: string): TranscriptEntry[] => file.turnEntries(jsonl, parseEntry);
/** What was said since the session's last compaction, by speaker, one string per message, the main agent's with whether each is a working note. */
export const readSessionReplies = (path: string): SessionMessages => file.readSessionMessages(path, parseEntry);
/** readSessionReplies, the main agent's messages as their words alone. */
export const readSessionMessages = (path: string): SpokenMessages => {
  const words = readSessionReplies(path);
  return { assistant: words.assistant.map((m) => m.text), user: words.user };
};
/** The main agent's messages in the whole turn, and `last_assistant_message` when the transcript does not hold it yet, each with whether it is a working note. */
export const stopReplies = (path: string, lastAssistantMessage: string): AgentMessage[] => file.stopMessages(path, lastAssistantMessage, parseEntry);
/** stopReplies as their words alone. */
export const stopMessages = (path: string, lastAssistantMessage: string): string[] => stopReplies(path, lastAssistantMessage).map((m) => m.text);
/** The text of the last compaction summary in a transcript ('' when there is none). */
export const readCompactSummary = (path: string): string => file.readCompactSummary(path, parseEntry);

export const claudeTranscript = (path: string): Transcript => file.jsonlTranscript(path, parseEntry);

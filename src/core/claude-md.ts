/**
 * Claude Code's own memory as markdown (CLAUDE.md, .claude/CLAUDE.md, the auto-memory files):
 * read into proposed memories, and written back as a section a person can paste into CLAUDE.md.
 * Pure: text in, text or proposals out.
 */
import type { Memory } from './memory.ts';
import { detectSignals, tierOf } from './signals.ts';
import { fitSummary } from './validate.ts';

export interface Proposal {
  namespace: string;
  summary: string;
  body: string;
  /** The file it came from, and the heading it stood under. */
  file: string;
  heading: string;
}

/** A heading's words that say which namespace its items belong to; the first match wins. */
const HEADING_NAMESPACES: Array<[RegExp, string]> = [
  [/\bdecision|\bchose\b|\bchoice|\barchitecture\b|\badr\b/i, 'decisions'],
  [/\bblock|\bknown issue|\bbroken\b|\btodo\b/i, 'blockers'],
  [/\blearn|\bgotcha|\bpitfall|\blesson|\bcaveat|\bwatch out|\bnote/i, 'learnings'],
  [/\bprogress|\bstatus\b|\bcurrent work|\bnext steps?\b/i, 'progress'],
  [/\bresearch|\breference|\blinks?\b/i, 'research'],
];

/** Instructions and conventions are what CLAUDE.md mostly holds: patterns, unless a signal or the heading says otherwise. */
const DEFAULT_NAMESPACE = 'patterns';

/** Items too short to stand alone as a memory ("Build", "Tests:"). */
const MIN_WORDS = 4;

/** The text items of a markdown file: list items (with their continuation lines) and paragraphs, each with its nearest heading. */
export function markdownItems(text: string): Array<{ heading: string; text: string }> {
  const items: Array<{ heading: string; text: string }> = [];
  let heading = '';
  let current: string[] = [];
  let fence = false;
  const flush = () => {
    const t = current.join(' ').replace(/\s+/g, ' ').trim();
    if (t) items.push({ heading, text: t });
    current = [];
  };
  const lines = text.replace(/^---\n[\s\S]*?\n---\n/, '').split('\n'); // front matter is not content
  for (const raw of lines) {
    const line = raw.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      // A code block belongs to the item before it.
      fence = !fence;
      continue;
    }
    if (fence) {
      if (current.length) current.push(line.trim());
      continue;
    }
    const h = /^#{1,6}\s+(.*)$/.exec(line);
    if (h) {
      flush();
      heading = h[1]!.trim();
      continue;
    }
    const bullet = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (bullet) {
      flush();
      current.push(bullet[1]!);
    } else if (!line.trim()) flush();
    else current.push(line.trim());
  }
  flush();
  return items;
}

function namespaceFor(text: string, heading: string, known: ReadonlySet<string>): string {
  const signal = detectSignals(text, { namespaces: [...known] }).find((s) => tierOf(s.confidence) !== 'skip' && known.has(s.namespace));
  if (signal) return signal.namespace;
  for (const [re, ns] of HEADING_NAMESPACES) if (re.test(heading) && known.has(ns)) return ns;
  return DEFAULT_NAMESPACE;
}

/** Markdown emphasis and links reduced to their words, for a one-line summary. */
function plain(text: string): string {
  return text
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/(\*\*|__)(.*?)\1/g, '$2')
    .replace(/^\[[ xX]\]\s+/, '')
    .trim();
}

/** The memories a file of Claude Code's memory proposes, one per item that can stand alone. */
export function proposalsFrom(file: string, text: string, namespaces: readonly string[]): Proposal[] {
  const known = new Set(namespaces);
  const out: Proposal[] = [];
  for (const item of markdownItems(text)) {
    const words = plain(item.text);
    if (words.split(/\s+/).length < MIN_WORDS) continue;
    const firstSentence = /^(.+?[.!?])(?:\s|$)/.exec(words)?.[1] ?? words;
    const summary = fitSummary(firstSentence);
    out.push({ namespace: namespaceFor(words, item.heading, known), summary, body: words === summary ? '' : words, file, heading: item.heading });
  }
  return out;
}

/** The body's first line is shown up to this length: CLAUDE.md is read at every session start. */
const DETAIL_MAX = 200;

const CLAUDE_MD_SECTIONS: Array<[string, string]> = [
  ['decisions', 'Decisions'],
  ['patterns', 'Patterns'],
  ['blockers', 'Active blockers'],
];

/**
 * The active decisions, patterns and blockers as one markdown section, newest first in each
 * part: a summary a line, the first line of the body after it, the memory's id at the end.
 */
export function claudeMarkdown(memories: readonly Memory[], id: (m: Memory) => string): string {
  const lines = ['## Project memory (git-mem)', '', 'Kept as git notes in this repository; `git mem recall <words>` finds more, `git mem hydrate <id>` shows one in full.'];
  for (const [namespace, title] of CLAUDE_MD_SECTIONS) {
    const mine = memories.filter((m) => m.namespace === namespace && m.status === 'active');
    if (!mine.length) continue;
    lines.push('', `### ${title}`, '');
    for (const m of mine) {
      const summary = m.summary.replace(/\s+/g, ' ');
      const first = m.body.split('\n').find((l) => l.trim())?.trim() ?? '';
      const detail = first.length > DETAIL_MAX ? `${first.slice(0, DETAIL_MAX - 1).trimEnd()}…` : first;
      lines.push(`- ${summary}${detail ? `${/[.!?:]$/.test(summary) ? ' ' : ': '}${detail}` : ''} (\`${id(m)}\`)`);
    }
  }
  return `${lines.join('\n')}\n`;
}

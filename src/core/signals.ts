/**
 * Detecting memorable statements in prompts, assistant replies and transcripts.
 * Pure: text in, scored candidates out. Explicit markers score as they always
 * did (reference-notes.md); every other statement (core/statements.ts) is
 * scored by the capture model (core/capture-model.ts), whose confidence is a
 * calibrated probability that it is worth remembering.
 */

import { type CaptureModel, captureModel, type ModelNamespace } from './capture-model.ts';
import { sentencesOf, statementsOf, summaryLine } from './statements.ts';

export type SignalType = 'decision' | 'learning' | 'blocker' | 'progress' | 'pattern' | 'explicit';

export const SIGNAL_NAMESPACE: Record<SignalType, string> = {
  decision: 'decisions',
  learning: 'learnings',
  blocker: 'blockers',
  progress: 'progress',
  pattern: 'patterns',
  explicit: 'learnings',
};

/** At or above: capture at once. */
export const AUTO_THRESHOLD = 0.95;
/** At or above (and below AUTO): suggest the capture command. */
export const SUGGEST_THRESHOLD = 0.7;
/**
 * With an external judge (mem.capture.with), statements from this confidence up go to it, not only
 * the suggest tier's: the judge decides, so the model's job is recall. Chosen on the capture corpus's
 * tuning half, with two second readings standing in for the judge (docs/capture.md, "How far a
 * reader gets"): judged, 0.3 kept 0.79-0.82 of what is worth keeping at precision 0.84-0.86, against
 * 0.37 at 0.7; 0.2 added 0.03 of recall for 13 % more candidates.
 */
export const JUDGE_FLOOR = 0.3;
/** At most this many candidates, the strongest, go to the judge in one turn: its prompt, and what it costs, stay bounded. */
export const JUDGE_MAX_CANDIDATES = 20;
/** A bare lead-in ("The fix is:" before a code block) is suggested at most: what it introduces is not in it. */
const BARE_LEAD_IN_MAX = 0.9;
/**
 * A working note (an agent's message it called a tool after, core/transcript-entries.ts AgentMessage) is
 * suggested at most: a diagnosis written before the fix, or a finding on the way, is not yet checked.
 */
const WORKING_NOTE_MAX = 0.9;

export interface Signal {
  type: SignalType;
  namespace: string;
  confidence: number;
  /** One line, at most 100 characters. */
  summary: string;
  /** The statement in full (the paragraph it stands in, or a marker's block). */
  body: string;
  /** Where it came from: an explicit 'marker' or 'block', or the capture 'model'. */
  kind: 'marker' | 'block' | 'model';
}

/**
 * Explicit markers: the statement is the rest of the line after them. They
 * score as they always did, whatever the model says.
 */
const MARKERS: ReadonlyArray<readonly [SignalType, RegExp, number]> = [
  ['decision', /\[(?:decision)\]/gi, 0.98],
  ['decision', /\[d\]/gi, 0.95],
  ['learning', /\[(?:learned|learning)\]/gi, 0.98],
  ['learning', /\[l\]/gi, 0.95],
  ['blocker', /\[blocker\]/gi, 0.98],
  ['blocker', /\[b\]/gi, 0.95],
  ['progress', /\[progress\]/gi, 0.98],
  ['pattern', /\[pattern\]/gi, 0.98],
];

/** "Today I learned", opening a sentence: a convention people type on purpose; the sentence is the learning, as written. */
const TIL = /(?:^|(?<=[\n.!?][ \t]{0,3}))TIL\b/gm;

/** A request to remember: the statement after it is kept, in the namespace the model gives it. */
const REQUEST = /\b(?:remember this|for future reference)\b/gi;

/** Words in a statement: runs between spaces, and in Chinese and Japanese (written without spaces) every two characters. */
function wordCount(statement: string): number {
  const cjk = (statement.match(/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/gu) ?? []).length;
  return statement.split(/\s+/).filter(Boolean).length + Math.floor(cjk / 2);
}

/** "remember this: X" is the user's wish to keep X: the memory's summary is X, not the request. */
const REQUEST_LEAD = /^\s*(?:(?:please|pls|ok|okay|and)[\s,]+)*(?:remember this|for future reference)\b\s*[:,.\-–—]*\s*/i;

function withoutRequest(statement: string): string {
  const rest = statement.replace(REQUEST_LEAD, '');
  if (wordCount(rest) < 3) return statement; // nothing to keep but the request
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/**
 * Detection reads at most this much of a text, its end (where a prompt's or a
 * turn's newest words are), and scores at most MAX_STATEMENTS statements:
 * a hook answers in milliseconds whatever it is sent.
 */
export const SCAN_MAX = 256 * 1024;
const MAX_STATEMENTS = 500;
/** A statement reaches at most this far either side of its phrase; a body at most PARAGRAPH_REACH. */
const SENTENCE_REACH = 400;
const PARAGRAPH_REACH = 4000;

/**
 * Positions in a text, found in one pass, so that every look-around is a
 * binary search: sentence ends (a line break, or . ! ? before a space, so
 * `sql.js` or `1.5` do not end one), line breaks, and paragraph breaks.
 */
class TextMap {
  readonly sentenceEnds: number[] = [];
  readonly lineEnds: number[] = [];
  readonly paragraphBreaks: number[] = [];

  constructor(readonly text: string) {
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === 10) {
        this.lineEnds.push(i);
        this.sentenceEnds.push(i);
        if (text.charCodeAt(i + 1) === 10) this.paragraphBreaks.push(i);
      } else if ((c === 46 || c === 33 || c === 63) && (i + 1 >= text.length || /\s/.test(text[i + 1]!))) this.sentenceEnds.push(i);
    }
  }

  /** The sentence around [start, end), cut at SENTENCE_REACH either side. */
  sentenceAround(start: number, end: number): string {
    const before = this.sentenceEnds[lowerBound(this.sentenceEnds, start) - 1];
    const after = this.sentenceEnds[lowerBound(this.sentenceEnds, end)];
    const a = Math.max(before === undefined ? 0 : before + 1, start - SENTENCE_REACH);
    let b = Math.min(after === undefined ? this.text.length : after, end + SENTENCE_REACH);
    if (after !== undefined && b === after && this.text[b] !== '\n') b++;
    return this.text.slice(a, b).trim();
  }

  /** The paragraph around a position: the body of a phrase signal. */
  paragraphAround(pos: number): string {
    const before = this.paragraphBreaks[lowerBound(this.paragraphBreaks, pos) - 1];
    const after = this.paragraphBreaks[lowerBound(this.paragraphBreaks, pos)];
    const a = Math.max(before === undefined ? 0 : before + 2, pos - PARAGRAPH_REACH);
    const b = Math.min(after === undefined ? this.text.length : after, pos + PARAGRAPH_REACH);
    return this.text.slice(a, b).trim();
  }

  /** The rest of the line from a position, at most PARAGRAPH_REACH of it. */
  restOfLine(pos: number): string {
    const nl = this.lineEnds[lowerBound(this.lineEnds, pos)];
    return this.text.slice(pos, Math.min(nl === undefined ? this.text.length : nl, pos + PARAGRAPH_REACH));
  }
}

/** The first index of a sorted array whose value is not below `x`. */
function lowerBound(sorted: readonly number[], x: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid]! < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function clamp(x: number): number {
  return Math.max(0, Math.min(0.99, Math.round(x * 100) / 100));
}

/**
 * Block markers written by an agent: a line `▶ <namespace> ─── <summary>`, the body,
 * and a closing line of `─`. Confidence .99.
 */
const BLOCK_OPEN = /^[ \t]*▶[ \t]*([a-z][a-z0-9-]*)[ \t]*─+[ \t]*(.+?)[ \t]*$/;
const BLOCK_CLOSE = /^[ \t]*─{3,}[ \t]*$/;
/** Prompt markers: `:::ns Title\n…\n:::`, and inline `[remember] …`, `[remember:ns] …`, `[capture:ns] …`, `@memory:ns …`. */
const FENCE_OPEN = /^:::[ \t]*([a-z][a-z0-9-]*)[ \t]+(.+)$/;
const FENCE_CLOSE = /^:::[ \t]*$/;
const INLINE_MARKER = /(?:\[(?:remember|capture)(?::([a-z][a-z0-9-]*))?\]|@memory:([a-z][a-z0-9-]*))[ \t]*([^\n]*)/gi;

export interface DetectOptions {
  /** Namespaces that markers may name; others fall back to learnings. */
  namespaces?: readonly string[];
  /** The text is an agent's working note: the model's statements are suggested at most (markers score as ever). */
  working?: boolean;
  /** The model's statements below this confidence are not returned: SUGGEST_THRESHOLD unless given (JUDGE_FLOOR for a judge). */
  floor?: number;
}

function markerNamespace(name: string | undefined, options: DetectOptions): string {
  if (!name) return 'learnings';
  return !options.namespaces || options.namespaces.includes(name) ? name : 'learnings';
}

interface Fenced {
  namespace: string;
  title: string;
  body: string;
  start: number;
  end: number;
}

/**
 * Blocks that open on a line matching `open` and close on the next line
 * matching `close`, in one pass over the lines: the first closer after an
 * opener ends it, and what lies inside is not searched again.
 */
function fencedBlocks(lines: readonly string[], offsets: readonly number[], open: RegExp, close: RegExp, taken: (pos: number) => boolean): Fenced[] {
  const closers: number[] = [];
  lines.forEach((l, i) => {
    if (close.test(l)) closers.push(i);
  });
  const out: Fenced[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = open.exec(lines[i]!);
    if (!m || taken(offsets[i]!)) continue;
    const j = closers[lowerBound(closers, i + 1)];
    if (j === undefined) break; // no closer below: none further down has one either
    out.push({ namespace: m[1]!, title: m[2]!, body: lines.slice(i + 1, j).join('\n').trim(), start: offsets[i]!, end: offsets[j]! + lines[j]!.length });
    i = j;
  }
  return out;
}

/** Every signal in `text` (its last SCAN_MAX characters), strongest first, at most one per statement. */
export function detectSignals(input: string, options: DetectOptions = {}): Signal[] {
  const text = input.length > SCAN_MAX ? input.slice(input.length - SCAN_MAX) : input;
  const map = new TextMap(text);
  const found: Signal[] = [];
  const covered = new Uint8Array(text.length + 1);
  const cover = (a: number, b: number) => covered.fill(1, a, b);
  const isCovered = (i: number) => covered[i] === 1;

  const lines = text.split('\n');
  const offsets: number[] = [];
  let at = 0;
  for (const l of lines) {
    offsets.push(at);
    at += l.length + 1;
  }
  for (const b of fencedBlocks(lines, offsets, BLOCK_OPEN, BLOCK_CLOSE, isCovered)) {
    found.push({ type: 'explicit', namespace: markerNamespace(b.namespace, options), confidence: 0.99, summary: summaryLine(b.title, ''), body: b.body, kind: 'block' });
    cover(b.start, b.end);
  }
  for (const b of fencedBlocks(lines, offsets, FENCE_OPEN, FENCE_CLOSE, isCovered)) {
    found.push({ type: 'explicit', namespace: markerNamespace(b.namespace, options), confidence: 0.99, summary: summaryLine(b.title, ''), body: b.body, kind: 'block' });
    cover(b.start, b.end);
  }
  // Markers in code, in a table or in a quote are what someone wrote about markers, not markers: they are
  // looked for in the text with those masked (same offsets), and read from the text itself.
  const prose = maskNonProse(text);
  for (const m of prose.matchAll(INLINE_MARKER)) {
    const content = text.slice(m.index + m[0].length - m[3]!.length, m.index + m[0].length);
    if (isCovered(m.index) || !content.trim()) continue;
    found.push({ type: 'explicit', namespace: markerNamespace(m[1] ?? m[2], options), confidence: 0.98, summary: summaryLine(content, ''), body: content.trim(), kind: 'marker' });
    cover(m.index, m.index + m[0].length);
  }

  for (const [type, re, confidence] of MARKERS) {
    for (const m of prose.matchAll(re)) {
      if (isCovered(m.index)) continue;
      const end = m.index + m[0].length;
      const rest = map.restOfLine(end);
      if (!rest.trim()) continue;
      found.push({ type, namespace: SIGNAL_NAMESPACE[type], confidence, summary: summaryLine(rest, ''), body: rest.trim(), kind: 'marker' });
      cover(m.index, end + rest.length);
    }
  }
  const model = captureModel();
  for (const m of prose.matchAll(TIL)) {
    if (isCovered(m.index)) continue;
    const statement = map.sentenceAround(m.index, m.index + m[0].length);
    if (wordCount(statement) < 3) continue;
    found.push({ type: 'learning', namespace: 'learnings', confidence: 0.95, summary: summaryLine(statement, ''), body: map.paragraphAround(m.index), kind: 'marker' });
    cover(m.index, m.index + statement.length);
  }
  for (const m of prose.matchAll(REQUEST)) {
    if (isCovered(m.index)) continue;
    const statement = map.sentenceAround(m.index, m.index + m[0].length);
    const summary = withoutRequest(statement);
    const namespace = markerNamespace(model.score(summary).namespace, options);
    found.push({ type: 'explicit', namespace, confidence: 0.98, summary: summaryLine(summary, ''), body: map.paragraphAround(m.index), kind: 'marker' });
    cover(m.index, m.index + statement.length);
  }

  // Everything else is the model's: each statement it finds worth suggesting (or judging), at its calibrated confidence.
  const floor = options.floor ?? SUGGEST_THRESHOLD;
  for (const st of statementsOf(text).slice(-MAX_STATEMENTS)) {
    if (covered.subarray(st.start, st.end).includes(1)) continue;
    const verdict = model.score(st.text);
    const cap = Math.min(st.bare ? BARE_LEAD_IN_MAX : 1, options.working ? WORKING_NOTE_MAX : 1);
    const confidence = Math.min(clamp(verdict.keep), cap);
    if (confidence < floor) continue;
    found.push({ type: TYPE_OF[verdict.namespace], namespace: verdict.namespace, confidence, summary: summaryOf(st.text, model), body: st.text, kind: 'model' });
  }
  return found.sort((a, b) => b.confidence - a.confidence);
}

/** The text with code (fenced blocks, inline spans), table rows and quoted lines blanked out, newlines and length kept. */
function maskNonProse(text: string): string {
  const blank = (m: string) => m.replace(/[^\n]/g, ' ');
  return text
    .replace(/^[ \t]*(```|~~~)[^\n]*\n[\s\S]*?(?:^[ \t]*\1[^\n]*$|(?![\s\S]))/gm, blank)
    .replace(/`[^`\n]*`/g, blank)
    .replace(/^[ \t]*(?:\|.*\||>.*)$/gm, blank);
}

/** Which signal type a namespace of the model's stands for. */
const TYPE_OF: Record<ModelNamespace, SignalType> = { decisions: 'decision', learnings: 'learning', blockers: 'blocker', patterns: 'pattern', progress: 'progress' };

/** A statement's summary: its sentence the model rates highest, as one clean line (a lead-in with what it introduces). */
function summaryOf(statement: string, model: CaptureModel): string {
  const sentences = sentencesOf(statement);
  if (sentences.length <= 1) return oneLine(statement, '');
  let best = 0;
  let top = -Infinity;
  sentences.forEach((s, i) => {
    const score = model.score(s).score;
    if (score > top) [best, top] = [i, score];
  });
  // An item under a lead-in ("The fix is:") is read with it.
  if (best > 0 && sentences[0]!.endsWith(':')) return oneLine(sentences[0]!, sentences[best]!);
  return oneLine(sentences[best]!, sentences.slice(best + 1).join(' '));
}

/** A Markdown link reads as its text. */
const MD_LINK = /\[([^\]\n]{1,200})\]\([^)\s]{1,2000}\)/g;

/** summaryLine, with links read as their text, and never ending inside a URL, a path or a code span cut short. */
function oneLine(sentence: string, rest: string): string {
  const line = summaryLine(sentence.replace(MD_LINK, '$1'), rest.replace(MD_LINK, '$1'));
  if (!line.endsWith('…')) return line;
  let cut = line.slice(0, -1);
  // An unclosed code span: back to the word before it.
  if ((cut.match(/`/g) ?? []).length % 2 === 1) cut = cut.slice(0, cut.lastIndexOf('`')).replace(/\S*$/, '');
  const space = cut.lastIndexOf(' ');
  if (space > 0 && /[/\\:]|^\S{25,}$/.test(cut.slice(space + 1))) cut = cut.slice(0, space);
  const kept = cut.replace(/[\s,;:.(\[-]+$/, '');
  return kept ? `${kept}…` : line;
}

export type Tier = 'auto' | 'suggest' | 'skip';

export function tierOf(confidence: number): Tier {
  return confidence >= AUTO_THRESHOLD ? 'auto' : confidence >= SUGGEST_THRESHOLD ? 'suggest' : 'skip';
}

const RECALL_TRIGGERS = [
  /\bwhy did we\b/i,
  /\bwhat was the decision\b/i,
  /\bremind me\b/i,
  /\bcontinue (?:from|where)\b/i,
  /\blast time\b/i,
  /\bpreviously\b/i,
  /\bthe blocker\b/i,
  /\bwhat happened with\b/i,
  /\bwhere were we\b/i,
  /\bpick up where\b/i,
  /\bwhat did we (?:learn|decide)\b/i,
  /\bwhat went wrong\b/i,
  /\bwhat was blocking\b/i,
  /\brecall the\b/i,
];

/** What a prompt asks to forget ("forget the memory about the retry loop"), or null. */
export function forgetRequest(prompt: string): string | null {
  const m = /\b(?:forget|delete|remove|drop)\s+(?:the\s+|that\s+|this\s+)?memor(?:y|ies)\s+(?:about|on|of|for|that says)\s+([^\n.!?]{3,200})/i.exec(prompt.slice(0, 4000));
  return m ? m[1]!.trim() : null;
}

/** Whether the user is asking for what was remembered. */
export function wantsRecall(prompt: string): boolean {
  return RECALL_TRIGGERS.some((re) => re.test(prompt));
}

/** Normalized content, for the novelty check: case, punctuation and spacing do not make a memory new. */
export function normalizeForNovelty(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

/**
 * Detecting memorable statements in prompts, assistant replies and transcripts.
 * Pure: text in, scored candidates out. Patterns and confidences follow the
 * earlier system (reference-notes.md); markers are explicit and score highest.
 */

export type SignalType = 'decision' | 'learning' | 'blocker' | 'resolution' | 'progress' | 'pattern' | 'explicit';

export const SIGNAL_NAMESPACE: Record<SignalType, string> = {
  decision: 'decisions',
  learning: 'learnings',
  blocker: 'blockers',
  resolution: 'learnings',
  progress: 'progress',
  pattern: 'patterns',
  explicit: 'learnings',
};

/** At or above: capture at once. */
export const AUTO_THRESHOLD = 0.95;
/** At or above (and below AUTO): suggest the capture command. */
export const SUGGEST_THRESHOLD = 0.7;

export interface Signal {
  type: SignalType;
  namespace: string;
  confidence: number;
  /** One line, at most 100 characters. */
  summary: string;
  /** The statement in full (the paragraph it stands in, or a marker's block). */
  body: string;
  /** Where it came from: 'marker', 'block', or 'phrase'. */
  kind: 'marker' | 'block' | 'phrase';
}

interface Pattern {
  type: SignalType;
  re: RegExp;
  confidence: number;
  /** Markers: the statement is the text after the match. */
  marker?: boolean;
}

const P = (type: SignalType, re: RegExp, confidence: number, marker = false): Pattern => ({ type, re, confidence, marker });

const PATTERNS: Pattern[] = [
  P('decision', /\[(?:decision)\]/gi, 0.98, true),
  P('decision', /\[d\]/gi, 0.95, true),
  P('decision', /\b(?:I|we)(?:'ve| have)? (?:decided|chose|selected|picked|opted) (?:to|for|on)\b/gi, 0.9),
  P('decision', /\bthe decision (?:is|was)\b/gi, 0.88),
  P('decision', /\bwe(?:'ll| will) go with\b/gi, 0.85),
  P('decision', /\bwent with\b/gi, 0.8),
  P('learning', /\[(?:learned|learning)\]/gi, 0.98, true),
  P('learning', /\[l\]/gi, 0.95, true),
  P('learning', /\bTIL\b/g, 0.95),
  P('learning', /\bkey (?:insight|takeaway)\b/gi, 0.92),
  P('learning', /\bI (?:learned|realized|discovered)\b/gi, 0.9),
  P('learning', /\bturns out\b/gi, 0.85),
  P('blocker', /\[blocker\]/gi, 0.98, true),
  P('blocker', /\[b\]/gi, 0.95, true),
  P('blocker', /\bblocked (?:by|on)\b/gi, 0.92),
  P('blocker', /\bstuck on\b/gi, 0.88),
  P('blocker', /\bcan(?:'|no)t\b[^.!?\n]{1,80}\bbecause\b/gi, 0.85),
  P('resolution', /\b(?:fixed|resolved|solved) (?:the|it)\b/gi, 0.92),
  P('resolution', /\bworkaround:/gi, 0.88),
  P('resolution', /\bfigured out\b/gi, 0.88),
  P('progress', /\[progress\]/gi, 0.98, true),
  P('progress', /\b(?:finished|completed|done with)\b/gi, 0.9),
  P('progress', /\b(?:implemented|shipped)\b/gi, 0.88),
  P('pattern', /\[pattern\]/gi, 0.98, true),
  P('pattern', /\bbest practice\b/gi, 0.88),
  P('explicit', /\bremember this\b/gi, 0.98),
  P('explicit', /\bsave this\b/gi, 0.95),
  P('explicit', /\bnote that\b/gi, 0.92),
  P('explicit', /\bfor future reference\b/gi, 0.9),
];

const REINFORCER = /\b(?:important|critical|key|must|always|never)\b/i;
const SUMMARY_MAX = 100;

function oneLine(text: string): string {
  const s = text.replace(/\s+/g, ' ').trim();
  return [...s].length > SUMMARY_MAX ? [...s].slice(0, SUMMARY_MAX - 1).join('').trimEnd() + '…' : s;
}

/** A sentence ends at a line break, or at . ! ? followed by a space (so `sql.js` or `1.5` do not end it). */
function endsSentence(text: string, i: number): boolean {
  const c = text[i];
  return c === '\n' || (/[.!?]/.test(c ?? '') && (i + 1 >= text.length || /\s/.test(text[i + 1]!)));
}

/** The sentence around [start, end). */
function sentenceAround(text: string, start: number, end: number): string {
  let a = start;
  while (a > 0 && !endsSentence(text, a - 1)) a--;
  let b = end;
  while (b < text.length && !endsSentence(text, b)) b++;
  if (b < text.length && text[b] !== '\n') b++;
  return text.slice(a, b).trim();
}

/** The paragraph around a position: the body of a phrase signal. */
function paragraphAround(text: string, pos: number): string {
  const a = text.lastIndexOf('\n\n', pos);
  const b = text.indexOf('\n\n', pos);
  return text.slice(a < 0 ? 0 : a + 2, b < 0 ? text.length : b).trim();
}

function clamp(x: number): number {
  return Math.max(0, Math.min(0.99, Math.round(x * 100) / 100));
}

/**
 * Block markers written by an agent: a line `▶ <namespace> ─── <summary>`, the body,
 * and a closing line of `─`. Confidence .99.
 */
const BLOCK = /^[ \t]*▶[ \t]*([a-z][a-z0-9-]*)[ \t]*─+[ \t]*(.+?)[ \t]*\n([\s\S]*?)^[ \t]*─{3,}[ \t]*$/gm;

/** Prompt markers: `[remember] …`, `[remember:ns] …`, `[capture:ns] …`, `@memory:ns …`, `:::ns Title\n…\n:::`. */
const FENCED = /^:::[ \t]*([a-z][a-z0-9-]*)[ \t]+(.+)\n([\s\S]*?)^:::[ \t]*$/gm;
const INLINE_MARKER = /(?:\[(?:remember|capture)(?::([a-z][a-z0-9-]*))?\]|@memory:([a-z][a-z0-9-]*))[ \t]*([^\n]*)/gi;

export interface DetectOptions {
  /** Namespaces that markers may name; others fall back to learnings. */
  namespaces?: readonly string[];
}

function markerNamespace(name: string | undefined, options: DetectOptions): string {
  if (!name) return 'learnings';
  return !options.namespaces || options.namespaces.includes(name) ? name : 'learnings';
}

/** Every signal in `text`, strongest first, at most one per statement. */
export function detectSignals(text: string, options: DetectOptions = {}): Signal[] {
  const found: Signal[] = [];
  const covered: Array<[number, number]> = [];
  const isCovered = (i: number) => covered.some(([a, b]) => i >= a && i < b);

  for (const m of text.matchAll(BLOCK)) {
    const [all, ns, summary, body] = m;
    found.push({ type: 'explicit', namespace: markerNamespace(ns, options), confidence: 0.99, summary: oneLine(summary!), body: body!.trim(), kind: 'block' });
    covered.push([m.index, m.index + all.length]);
  }
  for (const m of text.matchAll(FENCED)) {
    if (isCovered(m.index)) continue;
    const [all, ns, title, body] = m;
    found.push({ type: 'explicit', namespace: markerNamespace(ns, options), confidence: 0.99, summary: oneLine(title!), body: body!.trim(), kind: 'block' });
    covered.push([m.index, m.index + all.length]);
  }
  for (const m of text.matchAll(INLINE_MARKER)) {
    if (isCovered(m.index) || !m[3]?.trim()) continue;
    found.push({ type: 'explicit', namespace: markerNamespace(m[1] ?? m[2], options), confidence: 0.98, summary: oneLine(m[3]), body: m[3].trim(), kind: 'marker' });
    covered.push([m.index, m.index + m[0].length]);
  }

  const statements = new Map<string, Signal>();
  for (const p of PATTERNS) {
    p.re.lastIndex = 0;
    for (const m of text.matchAll(p.re)) {
      if (isCovered(m.index)) continue;
      const end = m.index + m[0].length;
      let statement: string;
      let body: string;
      if (p.marker) {
        const rest = text.slice(end).split('\n')[0]!.trim();
        if (!rest) continue;
        statement = rest;
        body = rest;
      } else {
        statement = sentenceAround(text, m.index, end);
        body = paragraphAround(text, m.index);
      }
      let confidence = p.confidence;
      if (!p.marker && REINFORCER.test(statement)) confidence += 0.05;
      if (statement.split(/\s+/).length < 4) confidence -= 0.05;
      const signal: Signal = { type: p.type, namespace: SIGNAL_NAMESPACE[p.type], confidence: clamp(confidence), summary: oneLine(statement), body, kind: p.marker ? 'marker' : 'phrase' };
      const prev = statements.get(statement);
      if (!prev || prev.confidence < signal.confidence) statements.set(statement, signal);
    }
  }
  found.push(...statements.values());
  return found.sort((a, b) => b.confidence - a.confidence);
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

/** Whether the user is asking for what was remembered. */
export function wantsRecall(prompt: string): boolean {
  return RECALL_TRIGGERS.some((re) => re.test(prompt));
}

/** Normalized content, for the novelty check: case, punctuation and spacing do not make a memory new. */
export function normalizeForNovelty(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

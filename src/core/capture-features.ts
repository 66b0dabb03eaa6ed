/**
 * What the capture model reads of a statement: stemmed words and word pairs,
 * the first words (where questions, requests and thanks show), the phrases
 * the earlier detector knew (with priors), and the statement's shape. Each feature is hashed
 * into a fixed number of buckets, so the weights are one flat array and
 * scoring never builds a vocabulary. Pure and deterministic.
 */
import { porterStem } from './search/stem.ts';

/** log2 of the number of hashed buckets the weights hold. */
export const FEATURE_BITS = 16;
export const FEATURE_BUCKETS = 1 << FEATURE_BITS;
const MASK = FEATURE_BUCKETS - 1;

/** A feature vector: distinct buckets, and one weight for every word feature (shape features weigh 1). */
export interface Features {
  /** Buckets of word features (unigrams, bigrams, lead words), each counted once. */
  words: Uint32Array;
  /** Buckets of shape and phrase features. */
  shapes: Uint32Array;
}

const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a over a string, from a running hash: a feature's name is hashed in parts, never concatenated. */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
}

/** A feature's bucket (FNV-1a, 32 bits): the same on every platform. */
export function bucketOf(feature: string): number {
  return (fnv(FNV_OFFSET, feature) >>> 0) & MASK;
}

/** Placeholders for what varies without changing what a statement is: code, links, paths, numbers. */
function normalize(text: string): string {
  return text
    .replace(/`[^`\n]{1,200}`/g, ' qcode ')
    .replace(/\bhttps?:\/\/\S+/g, ' qurl ')
    .replace(/(?:^|\s)(?:\.{0,2}\/)?[\w.-]+\/[\w./-]+/g, ' qpath ')
    .replace(/\b[\w-]+\.(?:js|ts|tsx|jsx|py|rs|go|java|rb|json|ya?ml|toml|md|sh|c|h|cpp|lock|cfg|ini|sql)\b/gi, ' qfile ')
    .replace(/\b[0-9a-f]{7,40}\b/g, ' qhash ')
    .replace(/\bv?\d+(?:\.\d+)+\b/g, ' qversion ')
    .replace(/\b\d+\b/g, ' qnum ');
}

const WORD = /[\p{L}\p{N}]+(?:'[\p{L}]+)?/gu;

/** Stems by word: the same few thousand words come back in every text (bounded, so a paste cannot grow it for ever). */
const stems = new Map<string, string>();
function stemOf(w: string): string {
  let s = stems.get(w);
  if (s === undefined) {
    s = /^[a-z]+$/.test(w) && w.length > 2 ? porterStem(w) : w;
    if (stems.size > 50_000) stems.clear();
    stems.set(w, s);
  }
  return s;
}

/** Lowercase words of a text, each stemmed when it is plain ASCII; contractions kept whole ("don't", "can't"). */
export function statementWords(text: string): string[] {
  const out: string[] = [];
  for (const m of normalize(text).toLowerCase().matchAll(WORD)) out.push(stemOf(m[0]));
  return out;
}

/**
 * The earlier detector's phrases, and a few that mark what is not a statement
 * of fact. Training holds each near a prior (tools/capture-model/train.ts:
 * PHRASE_PRIOR), since natural text uses them too rarely for the corpus alone
 * to weigh them: `+` for evidence of something worth keeping, `-` against.
 */
export const PHRASES: ReadonlyArray<readonly [name: string, prior: '+' | '-', re: RegExp]> = [
  ['decision', '+', /\b(?:I|we)(?:'ve| have)? (?:decided|chose|selected|picked|opted|settled) (?:to|for|on)\b|\bthe decision (?:is|was)\b|\bwe(?:'ll| will) go with\b|\bwent with\b|\bagreed (?:to|on|that)\b/i],
  ['learning', '+', /\b(?:TIL|key (?:insight|takeaway)|turns out|it turned out|I (?:learned|realized|discovered))\b/i],
  ['cause', '+', /\b(?:the root cause|the (?:problem|issue|bug|culprit) (?:was|is)|was caused by|happens because|fails because)\b/i],
  ['blocker', '+', /\b(?:blocked (?:by|on)|stuck on|waiting (?:for|on) .{3,60} (?:to|before)|can(?:'|no)t .{1,60} until)\b/i],
  ['resolution', '+', /\b(?:fixed|resolved|solved) (?:the|it|this|by)\b|\bthe fix (?:is|was)\b|\bworkaround\b|\bfigured out\b/i],
  ['pattern', '+', /\b(?:best practice|going forward|from now on|as a rule|convention is|we always|we never|must always|must never)\b/i],
  ['speculation', '-', /\b(?:maybe|perhaps|what if|should we|could we|shall we|I wonder|not sure (?:if|whether)|any (?:idea|update|thoughts))\b/i],
  ['request', '-', /^\s*(?:please|pls|can you|could you|would you|go ahead and|let's|lets)\b/i],
  ['thanks', '-', /^\s*(?:thanks?|thank you|thx|lgtm|\+1|great work|awesome|nice)\b/i],
  ['hypothetical', '-', /\bif (?:we|you|I) (?:decided|decide|chose|choose)\b/i],
  ['plan', '-', /^\s*(?:I'll|I will|let me|I'm going to|next,? I(?:'ll| will))\b/i],
];

/** Word-count buckets: a two-word line and a page are different things. */
function lengthBucket(n: number): string {
  return n <= 3 ? '1-3' : n <= 7 ? '4-7' : n <= 15 ? '8-15' : n <= 40 ? '16-40' : n <= 100 ? '41-100' : '100+';
}

/** The shape of a statement: questions, code, logs, tables, quotes, lists. */
function shapeFeatures(text: string, words: number): string[] {
  const out = [`len:${lengthBucket(words)}`];
  const trimmed = text.trim();
  if (trimmed.endsWith('?')) out.push('shape:ends-question');
  else if (trimmed.includes('?')) out.push('shape:has-question');
  if (trimmed.endsWith(':')) out.push('shape:lead-in');
  if (trimmed.endsWith('!')) out.push('shape:exclaim');
  const symbols = (text.match(/[{}()[\];=<>$|\\]/g) ?? []).length;
  if (symbols / Math.max(1, text.length) > 0.05) out.push('shape:symbols');
  if (/^\s*(?:\d{4}-\d{2}-\d{2}[ T]\d|\[?\d{2}:\d{2}:\d{2}|\s*at \S+ \(|(?:ERROR|WARN|INFO|DEBUG|TRACE)\b|Traceback|\w+(?:Error|Exception):)/m.test(text)) out.push('shape:log');
  if (/^\s*\|.*\|\s*$/m.test(text)) out.push('shape:table');
  if (/^\s*>/m.test(text)) out.push('shape:quote');
  if (/~~/.test(text)) out.push('shape:struck');
  if (/^\s*(?:[-*+]|\d+[.)])\s/m.test(text)) out.push('shape:list');
  if (/`/.test(text)) out.push('shape:code-span');
  if (/^(?:I|I'm|I've|I'll)\b/.test(trimmed)) out.push('shape:starts-i');
  if (/^(?:We|We're|We've|We'll|Our)\b/.test(trimmed)) out.push('shape:starts-we');
  if (/\b(?:we|I)\s+(?:\w+ly\s+)?\w+ed\b/i.test(text)) out.push('shape:first-person-past');
  if (/[A-Z]{4,}/.test(text.replace(/`[^`]*`/g, ''))) out.push('shape:caps');
  for (const [name, , re] of PHRASES) if (re.test(text)) out.push(`phrase:${name}`);
  return out;
}

/** What each word feature weighs in a statement of n of them: long texts do not win by length alone. */
export function wordWeight(n: number): number {
  return n ? 1 / Math.sqrt(n) : 0;
}

/** The features of one statement. */
export function featuresOf(text: string): Features {
  const words = statementWords(text);
  const word = new Set<number>();
  const unigram = fnv(FNV_OFFSET, 'w:');
  const bigram = fnv(FNV_OFFSET, 'b:');
  for (let i = 0; i < words.length; i++) {
    word.add((fnv(unigram, words[i]!) >>> 0) & MASK);
    // "b:<w1> <w2>", hashed in parts.
    if (i + 1 < words.length) word.add((fnv(fnv(fnv(bigram, words[i]!), ' '), words[i + 1]!) >>> 0) & MASK);
  }
  // The first words say what kind of utterance it is: "please ...", "maybe we ...", "thanks ...".
  if (words.length) word.add(bucketOf(`first:${words[0]}`));
  if (words.length > 1) word.add(bucketOf(`first2:${words[0]} ${words[1]}`));
  const shapes = new Set(shapeFeatures(text, words.length).map((s) => bucketOf(`s:${s}`)));
  return { words: Uint32Array.from(word), shapes: Uint32Array.from(shapes) };
}

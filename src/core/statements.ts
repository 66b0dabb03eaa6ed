/**
 * The statements of a text that capture may score: its paragraphs and list
 * items, without what is not prose (code blocks, tables, logs and stack
 * traces, quoted lines, struck-through text, pasted JSON). A lead-in that ends
 * with ':' takes the list or paragraph after it. Pure.
 */

export interface Statement {
  /** The statement as written (lines joined), struck-through text removed. */
  text: string;
  /** Offsets of its first and last character in the text given. */
  start: number;
  end: number;
  /** A lead-in that ends with ':' with nothing after it to take (it introduced code, a table or a tool call): not a whole statement. */
  bare?: boolean;
}

/** A statement reaches at most this far; a longer paragraph is read as windows of whole sentences. */
const STATEMENT_MAX = 1200;
const WINDOW = 600;

const FENCE = /^\s*(?:```|~~~)/;
const TABLE = /^\s*\|.*\|\s*$|^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$/;
const QUOTE = /^\s*>/;
const LOG = /^\s*(?:\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|\[?\d{2}:\d{2}:\d{2}|\[(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL)\]|(?:ERROR|WARN(?:ING)?|INFO|DEBUG|TRACE|FATAL)[: ]|at (?:async )?\S+ \(|at \S+:\d+|File "[^"]+", line \d+|Traceback \(most recent|\w+(?:Error|Exception)(?:: |$)|npm (?:ERR|WARN)!|error(?:\[E\d+\])?: |warning: |\$ |> |PS [A-Z]:\\|[A-Za-z]:\\\S+>)/;
/** Lines that are data, not words: JSON, code, paths alone. */
const DATA = /^\s*(?:[{}[\]]|"[^"]*"\s*:|<\/?[a-z][\w-]*(?:\s[^>]*)?>\s*$|[\w.]+\(.*\);?\s*$|(?:import|export|const|let|var|def|class|fn|func|return|if|for|while)\b.*[{;:=]\s*$)/;
const BULLET = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/;

function isProse(line: string): boolean {
  if (TABLE.test(line) || QUOTE.test(line) || LOG.test(line) || DATA.test(line)) return false;
  const letters = (line.match(/\p{L}/gu) ?? []).length;
  // Mostly symbols or numbers: output, hashes, ASCII art.
  return letters >= 3 && letters / line.trim().length >= 0.45;
}

interface Block {
  lines: string[];
  start: number;
  end: number;
  /** A list item, which stands alone unless a lead-in takes it. */
  item: boolean;
}

/** Runs of prose lines: a blank line, a non-prose line or a new list item ends one. */
function proseBlocks(text: string): Block[] {
  const blocks: Block[] = [];
  let inFence = false;
  let current: Block | null = null;
  let offset = 0;
  const close = () => {
    if (current) blocks.push(current);
    current = null;
  };
  for (const line of text.split('\n')) {
    const start = offset;
    offset += line.length + 1;
    if (FENCE.test(line)) {
      inFence = !inFence;
      close();
      continue;
    }
    if (inFence || !line.trim() || !isProse(line)) {
      close();
      continue;
    }
    const item = BULLET.test(line);
    if (item) close();
    if (!current) current = { lines: [], start, end: start, item };
    current.lines.push(line.trim());
    current.end = start + line.length;
  }
  close();
  return blocks;
}

const SENTENCE_END = /(?<=[.!?:][*_]{0,2})\s+(?=[\p{Lu}\p{N}`"'(\[*_])/gu;

/** A line cut at its sentence ends, never inside an inline code span (`a: B` is code, not two sentences). */
function splitLine(line: string): string[] {
  const spans = [...line.matchAll(/`[^`]*`/g)].map((m) => [m.index, m.index + m[0].length] as const);
  const out: string[] = [];
  let from = 0;
  for (const m of line.matchAll(SENTENCE_END)) {
    if (spans.some(([a, b]) => m.index > a && m.index < b)) continue;
    out.push(line.slice(from, m.index));
    from = m.index + m[0].length;
  }
  out.push(line.slice(from));
  return out;
}

/**
 * Sentences of a paragraph: a line break, or a . ! ? or : (inside emphasis or not: `**Done.**`) before a
 * space and a capital, ends one (so `sql.js` and `1.5` do not). A piece without a letter ("**3.", a list
 * number inside emphasis) opens the sentence after it.
 */
export function sentencesOf(text: string): string[] {
  const pieces = text
    .split('\n')
    .flatMap(splitLine)
    .map((s) => s.trim())
    .filter(Boolean);
  const out: string[] = [];
  let pending = '';
  for (const p of pieces) {
    if (!/\p{L}/u.test(p)) pending = pending ? `${pending} ${p}` : p;
    else {
      out.push(pending ? `${pending} ${p}` : p);
      pending = '';
    }
  }
  if (pending) out.push(pending);
  return out;
}

function withoutStruck(text: string): string {
  return text.replace(/~~[^~]*~~/g, ' ').replace(/<(?:s|del|strike)>[\s\S]*?<\/(?:s|del|strike)>/gi, ' ').replace(/[ \t]{2,}/g, ' ').trim();
}

/** Long paragraphs as windows of whole sentences, each at most WINDOW characters (a longer sentence alone). */
function windows(text: string): string[] {
  if (text.length <= STATEMENT_MAX) return [text];
  const out: string[] = [];
  let current = '';
  for (const s of sentencesOf(text)) {
    if (current && current.length + s.length + 1 > WINDOW) {
      out.push(current);
      current = '';
    }
    current = current ? `${current} ${s}` : s;
  }
  if (current) out.push(current);
  return out.map((w) => w.slice(0, STATEMENT_MAX));
}

/** The candidate statements of a text, in order. */
export function statementsOf(text: string): Statement[] {
  const blocks = proseBlocks(text);
  const out: Statement[] = [];
  for (let i = 0; i < blocks.length; i++) {
    let block = blocks[i]!;
    let joined = block.lines.join(block.item ? ' ' : '\n');
    // A lead-in ("The fix is:") takes what follows it: the paragraph, or every item of the list. What it
    // introduced may be code, a table or a log instead (or a tool call, after the message's end): then it
    // stands bare, and the paragraph after that is not its.
    const leadIn = joined.trimEnd().endsWith(':');
    const bare = leadIn && (i + 1 >= blocks.length || text.slice(block.end, blocks[i + 1]!.start).trim() !== '');
    if (leadIn && !bare) {
      const parts = [joined];
      const first = blocks[i + 1]!;
      let j = i + 1;
      if (first.item) {
        while (j < blocks.length && blocks[j]!.item && parts.join('\n').length < STATEMENT_MAX) parts.push(blocks[j++]!.lines.join(' '));
      } else parts.push(blocks[j++]!.lines.join('\n'));
      block = { ...block, end: blocks[j - 1]!.end };
      joined = parts.join('\n');
      i = j - 1;
    }
    const clean = withoutStruck(joined);
    if (!clean) continue;
    for (const w of windows(clean)) out.push(bare ? { text: w, start: block.start, end: block.end, bare } : { text: w, start: block.start, end: block.end });
  }
  return out;
}

/** Markdown and list decoration a summary does without. */
function plain(text: string): string {
  return text
    .replace(/\*\*([^*]+)\*\*/g, '$1')
    .replace(/__([^_]+)__/g, '$1')
    .replace(BULLET, '')
    .replace(/^#{1,6}\s+/, '')
    .replace(/\*\*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * One clean line of at most `max` characters: the sentence, cut at a word
 * boundary with an ellipsis when longer; a lead-in with what it introduces.
 */
export function summaryLine(sentence: string, rest: string, max = 100): string {
  let s = plain(sentence);
  if (s.endsWith(':') && rest) s = `${s} ${plain(rest.split('\n')[0]!)}`;
  const chars = [...s];
  if (chars.length <= max) return s;
  const cut = chars.slice(0, max - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.-]+$/, '')}…`;
}

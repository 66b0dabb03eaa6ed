import { sha256Hex } from '../hash.ts';
import { entropy, isDocumentationValue, looksRandom } from './secret-checks.ts';
import { SECRET_RULES, type SecretRule } from './secret-rules.ts';

/**
 * Secret and PII redaction, applied to every text before it is written to a note.
 * Each finding is replaced with `[REDACTED:<type>]`. The rules are data
 * (secret-rules.ts); this file runs them: every rule whose keywords occur is
 * matched against the original text, and where findings overlap the earlier
 * rule wins, so a GitHub token assigned to `GITHUB_TOKEN=` is a github_token,
 * not a password.
 */

export interface Redaction {
  text: string;
  /** Types found, one entry per redaction. */
  found: string[];
  /**
   * The random-looking secrets removed (value, type), whose copies elsewhere in the same record are
   * secrets too (redactCopies): a memory's summary is often the sentence of its body that holds the
   * bare copy. Kept in memory only, never written.
   */
  copies?: Array<[string, string]>;
}

/** A secret's copy counts only when the value looks random: 16+ characters with letters, no spaces. */
function copyable(v: string): boolean {
  return v.length >= 16 && !/\s/.test(v) && (v.match(/[A-Za-z]/g)?.length ?? 0) >= 3 && looksRandom(v, 16, 3.3);
}

/** `text` with every whole occurrence of the given secrets (from another field's Redaction.copies) redacted. */
export function redactCopies(text: string, copies: ReadonlyArray<readonly [string, string]>): Redaction {
  const found: string[] = [];
  let out = text;
  for (const [value, type] of copies) {
    let at = out.indexOf(value);
    while (at >= 0) {
      if (wholeAt(out, at, value.length)) {
        const marker = `[REDACTED:${type}]`;
        out = out.slice(0, at) + marker + out.slice(at + value.length);
        found.push(type);
        at = out.indexOf(value, at + marker.length);
      } else at = out.indexOf(value, at + value.length);
    }
  }
  return { text: out, found };
}

/** Several texts of one record (a memory's summary and body) redacted, each also of the secrets the others held. */
export function redactTogether(texts: readonly string[], options: RedactOptions = {}): Redaction[] {
  const first = texts.map((t) => redact(t, { ...options, copies: true }));
  const copies = first.flatMap((r) => r.copies ?? []);
  if (copies.length === 0) return first;
  return first.map((r) => {
    const again = redactCopies(r.text, copies);
    return { text: again.text, found: [...r.found, ...again.found], copies: r.copies };
  });
}

export interface RedactOptions {
  /** SHA-256 hex digests (or prefixes of 12+ digits) of values that are known not to be secrets. */
  allow?: readonly string[];
  /** The rules to run, in order of precedence (default: all of SECRET_RULES); tests run one at a time. */
  rules?: readonly SecretRule[];
  /** Return Redaction.copies, for a record whose other fields are redacted too (redactTogether, a memory's fields). */
  copies?: boolean;
}

/** The digest users put in mem.secrets.allow for a value: `git mem` prints it in warnings. */
export function allowDigest(secret: string): string {
  return sha256Hex(secret);
}

interface Finding {
  start: number;
  end: number;
  rule: number;
  type: string;
  /** Allowed by the user, or an earlier marker: kept as it is, but still claims its text so no later rule takes it. */
  allowed: boolean;
}

/** The offsets of the secret in a match: its group's, or the whole match's. */
function secretSpan(rule: SecretRule, m: RegExpExecArray): [number, number, string] | null {
  if (rule.group === undefined) return [m.index, m.index + m[0].length, m[0]];
  const groups = typeof rule.group === 'number' ? [rule.group] : rule.group;
  for (const g of groups) {
    const value = m[g];
    const at = m.indices?.[g];
    if (value !== undefined && at) return [at[0], at[1], value];
  }
  return null;
}


/** How far (in characters) a secret's copy may stand from where it was found, to be redacted with it. */
const NEARBY = 400;
const TOKEN_CHAR = /[A-Za-z0-9+/_~=-]/;

/** Whether the `length` characters at `at` stand whole: not a piece of a longer token (`x<value>`). */
function wholeAt(text: string, at: number, length: number): boolean {
  return !TOKEN_CHAR.test(text[at - 1] ?? ' ') && !TOKEN_CHAR.test(text[at + length] ?? ' ');
}

/** Below this many characters a text's trigrams are kept in a set rather than the bitmap. */
const SMALL_TEXT = 4096;

/**
 * Which rule keywords can occur in the text, from one pass over it: the 1-, 2- and 3-character
 * sequences it holds (ASCII, case folded; other characters fold onto ASCII, which can only add
 * sequences). A keyword counts as present when all its trigrams are; at worst a rule runs for
 * nothing. On a 1 MB transcript this is one loop instead of an `includes` scan per keyword.
 */
function keywordFilter(text: string): (keyword: string) => boolean {
  // The trigram bitmap is 256 KB: a short text (a memory's summary, each of its tags) keeps its trigrams in a set
  // instead, or an import of 100,000 memories zeroes gigabytes (issue 31).
  const small = text.length < SMALL_TEXT;
  const triSet = small ? new Set<number>() : null;
  const tri = small ? new Uint32Array(0) : new Uint32Array((128 * 128 * 128) >>> 5);
  const bi = new Uint32Array((128 * 128) >>> 5);
  const uni = new Uint32Array(128 >>> 5);
  let a = 0;
  let b = 0;
  for (let i = 0; i < text.length; i++) {
    let c = text.charCodeAt(i);
    if (c >= 65 && c <= 90) c += 32;
    c &= 127;
    uni[c >>> 5]! |= 1 << (c & 31);
    const d = (b << 7) | c;
    bi[d >>> 5]! |= 1 << (d & 31);
    const t = (a << 14) | d;
    if (triSet) triSet.add(t);
    else tri[t >>> 5]! |= 1 << (t & 31);
    a = b;
    b = c;
  }
  const has = (bits: Uint32Array, n: number) => (bits[n >>> 5]! & (1 << (n & 31))) !== 0;
  return (k) => {
    if (k.length === 1) return has(uni, k.charCodeAt(0) & 127);
    if (k.length === 2) return has(bi, ((k.charCodeAt(0) & 127) << 7) | (k.charCodeAt(1) & 127));
    for (let i = 0; i + 3 <= k.length; i++) {
      const t = ((k.charCodeAt(i) & 127) << 14) | ((k.charCodeAt(i + 1) & 127) << 7) | (k.charCodeAt(i + 2) & 127);
      if (triSet ? !triSet.has(t) : !has(tri, t)) return false;
    }
    return true;
  };
}

export function redact(text: string, options: RedactOptions = {}): Redaction {
  const allow = (options.allow ?? []).filter((h) => h.length >= 12).map((h) => h.toLowerCase());
  const allowed = (secret: string) => allow.length > 0 && allow.some((h) => allowDigest(secret).startsWith(h));
  const present = keywordFilter(text);
  const findings: Finding[] = [];
  // Which characters a finding has claimed: an overlap test costs the span's length, not the number of findings.
  let claimed: Uint8Array | null = null;
  const claim = (f: Finding) => {
    findings.push(f);
    claimed ??= new Uint8Array(text.length);
    claimed.fill(1, f.start, f.end);
  };
  const overlaps = (start: number, end: number) => {
    if (!claimed) return false;
    for (let i = start; i < end; i++) if (claimed[i]) return true;
    return false;
  };
  // Markers from an earlier pass are claimed up front, so redacting twice changes nothing.
  if (text.includes('[REDACTED:')) {
    for (const m of text.matchAll(/\[REDACTED:[a-z0-9_]+\]/g)) claim({ start: m.index, end: m.index + m[0].length, rule: -1, type: '', allowed: true });
  }
  // The lines that hold a rule's words, found once per set of words: several rules share theirs (SECRET_WORDS).
  const lineSpans = new Map<string, number[]>();
  const linesOf = (words: RegExp): number[] => {
    const key = `${words.source}/${words.flags}`;
    let spans = lineSpans.get(key);
    if (!spans) {
      spans = [];
      words.lastIndex = 0;
      for (let w = words.exec(text); w; w = words.exec(text)) {
        const from = text.lastIndexOf('\n', w.index) + 1;
        let to = text.indexOf('\n', w.index);
        if (to < 0) to = text.length;
        spans.push(from, to);
        words.lastIndex = to;
      }
      lineSpans.set(key, spans);
    }
    return spans;
  };
  const rules = options.rules ?? SECRET_RULES;
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r]!;
    if (rule.keywords && !rule.keywords.some(present)) continue;
    if (!rule.lines) {
      scan(rule, r, text, 0);
      continue;
    }
    // Only the lines that hold one of the rule's words: a 1 MB transcript is mostly other lines.
    const spans = linesOf(rule.lines);
    for (let i = 0; i < spans.length; i += 2) {
      const from = spans[i]!;
      const to = spans[i + 1]!;
      scan(rule, r, from === 0 && to === text.length ? text : text.slice(from, to), from);
    }
  }

  /**
   * A random-looking secret found once is a secret where it stands again close by, whole: pasted twice, the
   * second time with nothing around it to say what it is (`token = '…' | '…'`, a key set, then echoed on the
   * next line). Only nearby (NEARBY characters): a copy far away is judged on its own context, so that a value
   * a rule took wrongly once does not take every copy in a document with it. One pass over the text's runs of
   * token characters, only when such a secret was found.
   */
  function recurrences(): void {
    const randomness = new Map<string, boolean>();
    for (const f of findings.slice()) {
      if (f.allowed || f.end - f.start < 16) continue;
      const v = text.slice(f.start, f.end);
      if (/\s/.test(v)) continue;
      const from = Math.max(0, f.start - NEARBY - v.length);
      const near = text.slice(from, Math.min(text.length, f.end + NEARBY + v.length));
      for (let i = near.indexOf(v); i >= 0; i = near.indexOf(v, i + v.length)) {
        const at = from + i;
        if (!wholeAt(text, at, v.length) || overlaps(at, at + v.length)) continue;
        // Asked only of a value that does recur: a password of words is not taken again where it stands alone.
        let random = randomness.get(v);
        if (random === undefined) randomness.set(v, (random = copyable(v)));
        if (!random) break;
        claim({ start: at, end: at + v.length, rule: f.rule, type: f.type, allowed: false });
      }
    }
  }

  /** Runs one rule over `input`, which starts at `offset` in the text. */
  function scan(rule: SecretRule, r: number, input: string, offset: number): void {
    const re = rule.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(input); m; m = re.exec(input)) {
      if (m[0].length === 0) {
        re.lastIndex++;
        continue;
      }
      const span = secretSpan(rule, m);
      if (!span) continue;
      // A match that proves not to be a secret gives back all but its first character, so that it
      // does not swallow one that starts inside it (`next session: Snyk token = …`).
      const retry = () => {
        if (rule.group !== undefined) re.lastIndex = m!.index + 1;
      };
      const start = span[0] + offset;
      const end = span[1] + offset;
      const secret = span[2];
      if (!secret.trim() || overlaps(start, end)) {
        retry();
        continue;
      }
      // A checksum that holds (GitHub's and npm's CRC32 tail) proves a real token; otherwise the value must not be a documented example or filler.
      if (!rule.checksum?.(secret)) {
        // A value of the format that its checksum or structure proves is not one (issue 34): left, and claimed
        // so that no generic rule takes it as a secret of its own.
        if (isDocumentationValue(secret) || rule.lookAlike?.(secret)) {
          // Claimed, so that no later rule takes a piece of it (a sample JWT's signature).
          claim({ start, end, rule: r, type: rule.type, allowed: true });
          continue;
        }
        if ((rule.entropy !== undefined && entropy(secret) < rule.entropy) || (rule.validate && !rule.validate(secret, m))) {
          retry();
          continue;
        }
      }
      claim({ start, end, rule: r, type: rule.typeOf?.(m) ?? rule.type, allowed: allowed(secret) });
    }
  }
  recurrences();
  const hits = findings.filter((f) => !f.allowed);
  if (hits.length === 0) return { text, found: [] };
  const copies = new Map<string, string>();
  if (options.copies) {
    for (const f of hits) {
      const v = text.slice(f.start, f.end);
      if (!copies.has(v) && copyable(v)) copies.set(v, f.type);
    }
  }
  let out = '';
  let at = 0;
  for (const f of [...hits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, f.start) + `[REDACTED:${f.type}]`;
    at = f.end;
  }
  out += text.slice(at);
  // One entry per redaction, in rule order, then in order of appearance.
  const found = hits.sort((a, b) => a.rule - b.rule || a.start - b.start).map((f) => f.type);
  return copies.size ? { text: out, found, copies: [...copies] } : { text: out, found };
}

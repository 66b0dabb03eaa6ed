import { sha256Hex } from './hash.ts';
import { entropy, isDocumentationValue } from './secret-checks.ts';
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
}

export interface RedactOptions {
  /** SHA-256 hex digests (or prefixes of 12+ digits) of values that are known not to be secrets. */
  allow?: readonly string[];
  /** The rules to run, in order of precedence (default: all of SECRET_RULES); tests run one at a time. */
  rules?: readonly SecretRule[];
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

function overlaps(findings: readonly Finding[], start: number, end: number): boolean {
  for (const f of findings) if (start < f.end && f.start < end) return true;
  return false;
}

export function redact(text: string, options: RedactOptions = {}): Redaction {
  const allow = (options.allow ?? []).filter((h) => h.length >= 12).map((h) => h.toLowerCase());
  const allowed = (secret: string) => allow.length > 0 && allow.some((h) => allowDigest(secret).startsWith(h));
  const lower = text.toLowerCase();
  const findings: Finding[] = [];
  // Markers from an earlier pass are claimed up front, so redacting twice changes nothing.
  if (text.includes('[REDACTED:')) {
    for (const m of text.matchAll(/\[REDACTED:[a-z0-9_]+\]/g)) findings.push({ start: m.index, end: m.index + m[0].length, rule: -1, type: '', allowed: true });
  }
  const rules = options.rules ?? SECRET_RULES;
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r]!;
    if (rule.keywords && !rule.keywords.some((k) => lower.includes(k))) continue;
    const re = rule.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
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
      const [start, end, secret] = span;
      if (!secret.trim() || overlaps(findings, start, end)) {
        retry();
        continue;
      }
      // A checksum that holds (GitHub's and npm's CRC32 tail) proves a real token; otherwise the value must not be a documented example or filler.
      if (!rule.checksum?.(secret)) {
        if (isDocumentationValue(secret)) {
          // Claimed, so that no later rule takes a piece of it (a sample JWT's signature).
          findings.push({ start, end, rule: r, type: rule.type, allowed: true });
          continue;
        }
        if ((rule.entropy !== undefined && entropy(secret) < rule.entropy) || (rule.validate && !rule.validate(secret, m))) {
          retry();
          continue;
        }
      }
      findings.push({ start, end, rule: r, type: rule.typeOf?.(m) ?? rule.type, allowed: allowed(secret) });
    }
  }
  const hits = findings.filter((f) => !f.allowed);
  if (hits.length === 0) return { text, found: [] };
  let out = '';
  let at = 0;
  for (const f of [...hits].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, f.start) + `[REDACTED:${f.type}]`;
    at = f.end;
  }
  out += text.slice(at);
  // One entry per redaction, in rule order, then in order of appearance.
  const found = hits.sort((a, b) => a.rule - b.rule || a.start - b.start).map((f) => f.type);
  return { text: out, found };
}

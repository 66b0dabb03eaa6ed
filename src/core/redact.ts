import { sha256Hex } from './hash.ts';

/**
 * Secret and PII redaction, applied to every text before it is written to a note.
 * Each detector replaces its match with `[REDACTED:<type>]`.
 */
interface Detector {
  type: string;
  pattern: RegExp;
  /** Index of the capture group holding the secret; the rest of the match is kept. */
  group?: number;
  accept?: (match: string) => boolean;
}

function luhn(digits: string): boolean {
  const d = digits.replace(/\D/g, '');
  if (d.length < 13 || d.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < d.length; i++) {
    let n = Number(d[d.length - 1 - i]);
    if (i % 2 === 1) n = n * 2 > 9 ? n * 2 - 9 : n * 2;
    sum += n;
  }
  return sum % 10 === 0;
}

function entropy(s: string): number {
  const counts = new Map<string, number>();
  for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) h -= (n / s.length) * Math.log2(n / s.length);
  return h;
}

/** Long tokens that mix cases and digits with high entropy; pure hex (commit ids, hashes) is left alone. */
function looksRandom(s: string): boolean {
  if (/^[0-9a-f]+$/i.test(s)) return false;
  // Paths: every segment short and word-like.
  if (s.includes('/') && s.split('/').every((seg) => /^[A-Za-z0-9_-]{0,24}$/.test(seg))) return false;
  if (!/[a-z]/.test(s) || !/[A-Z]/.test(s) || !/\d/.test(s)) return false;
  return entropy(s) >= 4.2;
}

const DETECTORS: Detector[] = [
  { type: 'private_key', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g },
  { type: 'aws_access_key', pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA)[0-9A-Z]{16}\b/g },
  { type: 'aws_secret_key', pattern: /(aws_secret_access_key|aws_secret_key)(["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})/gi, group: 3 },
  { type: 'github_token', pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{50,})\b/g },
  { type: 'anthropic_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { type: 'openai_key', pattern: /\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}/g },
  { type: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}/g },
  { type: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/]+/g },
  { type: 'stripe_key', pattern: /\b[sr]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g },
  { type: 'twilio_key', pattern: /\bSK[0-9a-f]{32}\b/g },
  { type: 'sendgrid_key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  { type: 'discord_token', pattern: /\b[MN][A-Za-z\d]{23,25}\.[\w-]{6}\.[\w-]{27,}\b/g },
  { type: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { type: 'azure_key', pattern: /(AccountKey=|SharedAccessSignature=|sig=)([A-Za-z0-9%/+=]{20,})/g, group: 2 },
  { type: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { type: 'url_credentials', pattern: /([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:)([^\s@/]+)(@)/gi, group: 2 },
  {
    type: 'password',
    pattern: /\b((?:[A-Za-z0-9]+[_-])*(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|secret[_-]?key)\b["']?\s*[:=]\s*)(["']?)([^\s"'`,;]{4,})/gi,
    group: 3,
    accept: (m) => !m.startsWith('[REDACTED'),
  },
  { type: 'ssn', pattern: /\b\d{3}-\d{2}-\d{4}\b/g },
  { type: 'credit_card', pattern: /\b(?:\d[ -]?){12,18}\d\b/g, accept: luhn },
  { type: 'phone', pattern: /(?<![\w.])(?:\+\d{1,3}[ .-]?)?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}(?![\w.])/g },
  { type: 'high_entropy', pattern: /(?<![A-Za-z0-9+/_-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_-])/g, accept: looksRandom },
];

export interface Redaction {
  text: string;
  /** Types found, one entry per redaction. */
  found: string[];
}

export interface RedactOptions {
  /** SHA-256 hex digests (or prefixes of 12+ digits) of values that are known not to be secrets. */
  allow?: readonly string[];
}

/** The digest users put in mem.secrets.allow for a value: `git mem` prints it in warnings. */
export function allowDigest(secret: string): string {
  return sha256Hex(secret);
}

export function redact(text: string, options: RedactOptions = {}): Redaction {
  const found: string[] = [];
  const allow = options.allow ?? [];
  const allowed = (secret: string) => allow.length > 0 && allow.some((h) => h.length >= 12 && allowDigest(secret).startsWith(h.toLowerCase()));
  let out = text;
  for (const d of DETECTORS) {
    out = out.replace(d.pattern, (match: string, ...groups: unknown[]) => {
      const secret = d.group ? String(groups[d.group - 1] ?? '') : match;
      if (!secret || (d.accept && !d.accept(secret)) || allowed(secret)) return match;
      found.push(d.type);
      const marker = `[REDACTED:${d.type}]`;
      if (!d.group) return marker;
      // Patterns with a group are written so that their groups, joined, are the whole match.
      const captures = groups.slice(0, groups.findIndex((g) => typeof g === 'number'));
      return captures.map((p, i) => (i === d.group! - 1 ? marker : String(p ?? ''))).join('');
    });
  }
  return { text: out, found };
}

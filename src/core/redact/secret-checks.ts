/**
 * Pure predicates used by the secret rules (secret-rules.ts): entropy, Luhn,
 * randomness, and the tests that tell a literal secret from a placeholder,
 * a reference to one (`${{ secrets.X }}`, `process.env.X`) or ordinary text.
 */

const ASCII_COUNTS = new Int32Array(128);

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (!s) return 0;
  // ASCII (nearly every token) is counted in a reused array; anything else by code point in a map.
  let other: Map<string, number> | null = null;
  let length = 0;
  for (const c of s) {
    length++;
    const code = c.charCodeAt(0);
    if (code < 128) ASCII_COUNTS[code]!++;
    else (other ??= new Map()).set(c, (other.get(c) ?? 0) + 1);
  }
  let h = 0;
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    if (code >= 128) continue;
    const n = ASCII_COUNTS[code]!;
    if (n === 0) continue;
    h -= (n / length) * Math.log2(n / length);
    ASCII_COUNTS[code] = 0;
  }
  if (other) for (const n of other.values()) h -= (n / length) * Math.log2(n / length);
  return h;
}

export function luhn(digits: string): boolean {
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

/** A card number: Luhn-valid, an issuer's prefix (2-6), and grouped as cards are printed when grouped at all. */
export function cardNumber(s: string): boolean {
  const d = s.replace(/\D/g, '');
  if (!/^[2-6]/.test(d) || !luhn(d)) return false;
  // Written without groups, only an issuer's prefix with its length (Visa 13/16, Mastercard 16, Amex 15, Diners 14,
  // JCB, Discover and UnionPay 16): a 17-19 digit number is an id or a hash (`"rustc":8891013984288978370`).
  if (d === s && !/^(?:4(?:\d{12}|\d{15})|(?:5[1-5]|2(?:2[2-9]|[3-6]\d|7[01])|35|6(?:011|4[4-9]|5|2))\d{14}|3[47]\d{13}|3(?:0[0-5]|[68])\d{12})$/.test(d)) return false;
  // A time stamp `YYYYMMDDhhmmss` (Go pseudo-versions in go.sum, backup names): one in ten passes Luhn.
  if (timestamp14(d)) return false;
  if (d === s) return true;
  const groups = s.split(/[ -]/).map((g) => g.length).join('-');
  return /^4-4-4-(?:4|4-3|1|2|3)$|^4-6-(?:4|5)$/.test(groups);
}

/** 14 digits that read as a date and time, 1970 to 2099: `20190131123155`. */
function timestamp14(d: string): boolean {
  const m = /^(19[7-9]\d|20\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])([01]\d|2[0-3])([0-5]\d)([0-5]\d)$/.exec(d);
  return m !== null;
}

/**
 * Share of the letters that sit in pronounceable word-like segments
 * (`parse`, `Front`, `Matter`, `components`): near 1 for identifiers and
 * paths, near 0.2 for random tokens.
 */
export function wordiness(s: string): number {
  const segments = s.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])/g);
  if (!segments) return 0;
  let letters = 0;
  let wordy = 0;
  for (const g of segments) {
    letters += g.length;
    if (g.length >= 3 && /[aeiouy]/i.test(g) && !/[bcdfghjklmnpqrstvwxz]{4}/i.test(g) && !/[aeiou]{3}/i.test(g)) wordy += g.length;
  }
  return letters ? wordy / letters : 0;
}

/** Bytes of base64 (standard or URL-safe, padding optional), or null when it is not base64. */
function base64Bytes(s: string): string | null {
  const t = s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '');
  if (!/^[A-Za-z0-9+/]+$/.test(t) || t.length % 4 === 1) return null;
  try {
    return atob(t + '='.repeat((4 - (t.length % 4)) % 4));
  } catch {
    return null;
  }
}

/** Base64 whose bytes are readable text (`aGVsbG8gd29ybGQ=`, a JWT header): an encoding, not a key. */
export function base64OfText(s: string): boolean {
  const bytes = base64Bytes(s);
  if (bytes === null || bytes.length < 6) return false;
  let printable = 0;
  let high = 0;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.charCodeAt(i);
    if ((c >= 0x20 && c < 0x7f) || c === 9 || c === 10 || c === 13) printable++;
    else if (c >= 0x80) high++;
  }
  // Text in UTF-8 (`✓`, accents) has bytes above 0x7f but almost no control bytes; random bytes have one in nine.
  return printable / bytes.length >= 0.95 || (bytes.length >= 24 && (bytes.length - printable - high) / bytes.length <= 0.02 && high / bytes.length <= 0.25);
}

/** Base64 of `user:password`, as in `Authorization: Basic …`. */
export function base64OfCredentials(s: string): boolean {
  const bytes = base64Bytes(s);
  return bytes !== null && /^[\x20-\x7e]+:[\x20-\x7e]+$/.test(bytes);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/**
 * A token that reads as random: long enough, high entropy, letters and digits
 * mixed, and not made of words (identifiers, paths, kebab-case names).
 */
export function looksRandom(s: string, minLength = 16, minEntropy = 3.3): boolean {
  if (s.length < minLength) return false;
  const bits = entropy(s);
  if (bits < minEntropy) return false;
  if (!/[A-Za-z]/.test(s) || !/\d/.test(s)) {
    // Base64 without digits still carries + or /, and both cases; a random mixed-case token of 20+
    // letters has no digit one time in thirty, and no words.
    if (!(/[a-z]/.test(s) && /[A-Z]/.test(s) && (/[+/]/.test(s) || (s.length >= 20 && bits >= 3.8 && wordiness(s) < 0.35)))) return false;
  }
  const digitRuns = s.match(/\d+/g)?.length ?? 0;
  return wordiness(s) < 0.6 || digitRuns >= 4;
}

/**
 * Words that, alone as a value, say something about a secret rather than being one
 * (`password: required`, `token: none`, `secret: true`).
 */
const WORD_VALUES = new Set(
  (
    'true false yes no on off none null nil undefined nan empty blank default auto optional required ' +
    'invalid incorrect wrong missing expired revoked rotated reset changed updated removed deleted omitted provided supplied ' +
    'set unset hidden masked redacted encrypted hashed plain plaintext string str text bytes number int integer bool boolean ' +
    'object array any unknown void env environment prompt stdin ask interactive keyring keychain vault file disabled enabled ' +
    'bearer basic oauth oauth2 jwt header cookie query body form inherit inherited sensitive secure insecure mandatory ' +
    'changeme changeit change_me change-me replaceme replace_me password passwd pass secret secrets token tokens apikey api_key nothing ' +
    'options option flags flag argument arguments parameter parameters field fields instead only also ' +
    'username user login email base64 base32 base58 base64url hex utf8 utf-8 ascii latin1 sha1 sha256 sha512 md5 aes128 aes256 hs256 rs256 es256 pbkdf2 argon2 bcrypt scrypt ' +
    'key value test testing example sample dummy fake placeholder todo tbd fixme foo bar baz qux foobar abc abc123 ' +
    '123 1234 12345 123456 1234567 12345678 123456789 qwerty xxx opaque generic files compat salt ' +
    // fetch()'s credentials modes, cookie SameSite values.
    'same-origin include omit lax strict'
  ).split(' '),
);

const PLACEHOLDER_WORDS = new Set(['your', 'yours', 'example', 'placeholder', 'dummy', 'sample', 'fake', 'changeme', 'here', 'replace', 'insert', 'redacted', 'xxx', 'todo', 'tbd']);

/** Whether `v` alternates letters and digits, and the letters (a, b, c, …) and the digits (1, 2, 3, …) each run in order. */
function countsUp(v: string): boolean {
  if (!/^(?:(?:[A-Za-z]\d){3,}[A-Za-z]?|(?:\d[A-Za-z]){3,}\d?)$/.test(v)) return false;
  const letters = v.toLowerCase().replace(/[^a-z]/g, '');
  const digits = v.replace(/\D/g, '');
  const run = (x: string) => [...x].every((c, i) => i === 0 || c.charCodeAt(0) === x.charCodeAt(i - 1) + 1);
  return letters.length >= 3 && digits.length >= 3 && run(letters) && run(digits);
}

/** Values that stand in for a secret: `xxxx`, `****`, `<your-token>`, `your_api_key_here`, `changeme`, `…`. */
export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  const lower = v.toLowerCase();
  if (v.length < 2) return true;
  if (WORD_VALUES.has(lower)) return true;
  // Several such words: `bcrypt/argon2`, `base64|hex`.
  if (/[/|,]/.test(lower) && lower.split(/[/|,]/).every((p) => WORD_VALUES.has(p.trim()))) return true;
  if (/^(.)\1+$/.test(v)) return true;
  // Letters and digits taking turns, each counting up: `a1B2c3D4e5F6`, `1a2b3c4d`.
  if (countsUp(v)) return true;
  if (/x{4,}|X{4,}|\*{3,}|•{3,}|#{4,}|\.{3,}|…|_{4,}|0{8,}/.test(v)) return true;
  if (/^\[.*\]$|^\(.*\)$|^<.*>$|^&lt;.*&gt;$/.test(v)) return true;
  if (/^(?:your|enter|insert|put|replace|paste|fill|add|example|sample|dummy|fake|placeholder|my)(?:[-_ .]|$)/i.test(v) && !/\d{3}/.test(v)) return true;
  if (/[-_ ](?:here|goes[-_ ]here)$/i.test(v)) return true;
  // `CHANGE_ME_IN_PRODUCTION_12345`, `replace-me-with-a-real-key`: templates say so in the value.
  if (/(?:^|[^a-z])(?:change|replace|update|set)[-_ ]?me(?:$|[^a-z])/i.test(v) && !lower.split(/[-_ .:/]+/).some((p) => p.length >= 16 && looksRandom(p, 16))) return true;
  // `sk-your-key`, `api_key_example_1`, `token-placeholder`: a word that no real secret contains.
  const parts = lower.split(/[-_ .:/]+/);
  if (parts.some((p) => PLACEHOLDER_WORDS.has(p)) && !parts.some((p) => p.length >= 16 && looksRandom(p, 16))) return true;
  if (/(?:password|passwd|secret|token|api[-_ ]?key|credential|changeme|example|placeholder|dummy|sample|redacted)/i.test(v) && !/\d/.test(v)) return true;
  return false;
}

/**
 * Values that name a secret kept elsewhere: shell and template variables,
 * environment look-ups, secret-manager references, encrypted (sops) values.
 */
export function isReference(value: string, yaml = false): boolean {
  const v = value.trim();
  if (/^(?:\$[A-Za-z_{(]|\$[0-9@*#?]$|%[A-Za-z_]\w*%$|#\{|\{\{|\{%|@[A-Za-z_]+@$)/.test(v)) return true;
  // YAML tags and aliases (`!vault |`, `!Ref DbPassword`, `*default_password`) exist only unquoted.
  if (yaml && /^(?:!!?[A-Za-z]+|&[A-Za-z][\w-]*|\*[A-Za-z][\w-]*)$/.test(v)) return true;
  if (/\$\{|\{\{|\$\(|%\(|%s\b|<%|\{\d*\}|\{[A-Za-z_][\w.]*\}/.test(v)) return true;
  // Environment look-ups, also when quotes inside cut them short (`"os.environ["DB_PASSWORD"]"`).
  if (/^(?:os\.environ|os\.getenv|process\.env|System\.getenv|getenv|ENV\[|env\(|Deno\.env)/.test(v)) return true;
  // A Bitwarden cipher string (`2.<iv>|<data>|<mac>`): encrypted on the client, stored as it is.
  if (/^[0-6]\.[A-Za-z0-9+/]{16,}={0,2}\|[A-Za-z0-9+/]{16,}={0,2}(?:\|[A-Za-z0-9+/]{16,}={0,2})?$/.test(v)) return true;
  // A Sealed Secrets ciphertext (Bitnami): the RSA-wrapped key's length (0x02 0x00) leads, encoded `Ag…`; made to be committed.
  if (/^Ag[A-D][A-Za-z0-9+/]{300,}={0,2}$/.test(v)) return true;
  if (/^(?:ENC\[|vault:|op:\/\/|arn:|ssm:|sm:\/\/|secretsmanager:|secretref:|env:|file:|keyring:|keychain:|akv:|ref\+|gcpsm:|awssm:)/i.test(v)) return true;
  return false;
}

/** Source code in place of a value: calls, indexing, member chains (`os.environ["X"]`, `config.secret`, `getpass()`). */
export function isCode(value: string): boolean {
  const v = value.trim();
  if (/[([]|->|::|\{\}?$/.test(v)) return true;
  // Member chains: `settings.SECRET_KEY`, `this.token`, `process.env.API_KEY`, `user?.password`.
  // (Not a random token that has a dot in it: `t.coOAwAkbb79xx7aJcn`.)
  // (Also ending a Python condition: `if token is self.prop:`.)
  const chain = v.replace(/:$/, '');
  if (/^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*)+$/.test(chain) && (wordiness(chain) >= 0.5 || !/\d/.test(chain))) return true;
  return false;
}

/** A file path or URL, not a secret (`/run/secrets/db`, `~/.ssh/id_rsa`, `https://oauth2.example.com/token`). */
export function isPathOrUrl(value: string): boolean {
  const v = value.trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v)) return true;
  if (/^(?:~|\.{1,2})?\/[\w.@~-]/.test(v) || /^[A-Za-z]:\\/.test(v)) return wordiness(v) >= 0.5 || /\.\w{1,5}$/.test(v);
  if (v.includes('/') && /\.[a-z]{1,5}$/.test(v) && wordiness(v) >= 0.6) return true;
  return false;
}

/** A validation message or other sentence: `"Password must be at least 8 characters"`. */
export function isSentence(value: string): boolean {
  const words = value.trim().split(/\s+/);
  if (words.length < 3) return false;
  return /\b(?:is|are|was|be|must|should|can|cannot|will|the|to|of|and|or|for|with|your|please|enter|at least|characters?|required|invalid|not|no|too|you)\b/i.test(value);
}

/** Words before a noun that say nothing about it (`the key …`, `our token …`). */
const ARTICLES = new Set(['the', 'a', 'an', 'this', 'that', 'its', 'our', 'your', 'my', 'their', 'same', 'new', 'old', 'one', 'of', 'and', 'or', 'with', 'by', 'as', 'is', 'no', 'for', 'to', 'in', 'on']);

/** Lower-case words of an identifier: `dbPassword` → db, password; `AWS_SECRET_ACCESS_KEY` → aws, secret, access, key. */
export function nameWords(name: string): string[] {
  // Letters with accents fold to ASCII: `contraseña` → contrasena.
  if (/[^\x00-\x7f]/.test(name)) name = name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/Ł/g, 'L');
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter(Boolean);
}

/**
 * "Password" in other languages, as identifiers write it (ASCII folded): `mot_de_passe` (its last word),
 * `contrasena`, `senha`.
 */
export const PASSWORD_NAMES_INTL = ['passe', 'contrasena', 'senha', 'passwort', 'kennwort', 'wachtwoord', 'losenord', 'passord', 'adgangskode', 'salasana', 'haslo', 'heslo', 'jelszo', 'parola', 'sifre', 'sifresi', 'parol'];

/** How much a name says that its value is a secret. */
export const Strength = {
  None: 0,
  /** `key`, `token`, `signature` alone: only a random-looking value counts. */
  Weak: 1,
  /** `api_key`, `client_secret`, `GITHUB_TOKEN`: any literal that is not a word. */
  Medium: 2,
  /** `password`, `DB_PASSWORD`, `passphrase`: any literal at all. */
  Strong: 3,
} as const;
export type Strength = (typeof Strength)[keyof typeof Strength];

const STRONG_WORDS = new Set(['password', 'passwd', 'passphrase', 'passcode', 'pwd', 'pw', 'pass', 'credentials', 'credential', 'creds', ...PASSWORD_NAMES_INTL]);
/** Compound words written without separators (`PGPASSWORD`, `apikey`, `accesstoken`, `clientsecret`). */
const COMPOUND = /(password|passwd|passphrase|secret|token|key)$/;
const SUFFIXES = new Set(['value', 'base', 'b64', 'base64', 'raw', 'plain', 'plaintext', 'str', 'string', 'hex', 'enc', 'literal']);
/** Before `token`: tokens that are not credentials (pagination, parsers, model tokens). */
const PLAIN_TOKENS = new Set([
  'next', 'page', 'continuation', 'cancel', 'cancellation', 'csrf', 'xsrf', 'sync', 'resume', 'pagination', 'current', 'last', 'first',
  'prev', 'previous', 'peek', 'eof', 'start', 'end', 'sentinel', 'lexer', 'parser', 'max', 'min', 'num', 'count', 'input', 'output',
  'total', 'completion', 'prompt', 'special', 'bos', 'eos', 'pad', 'unk', 'mask', 'sep', 'cls', 'stop', 'delimiter', 'design', 'color', 'with',
  // One-time and tracking tokens that name a request, not a credential to keep.
  'reset', 'verification', 'verify', 'confirmation', 'confirm', 'invite', 'invitation', 'request', 'trace', 'correlation', 'idempotency', 'unsubscribe',
]);
/** Before `key`: keys that are secrets. */
const SECRET_KEYS = new Set([
  'api', 'secret', 'access', 'private', 'client', 'encryption', 'encrypt', 'decryption', 'signing', 'sign', 'master', 'app', 'application',
  'account', 'service', 'license', 'licence', 'webhook', 'shared', 'storage', 'subscription', 'consumer', 'admin', 'session', 'jwt', 'hmac',
  'aes', 'crypto', 'cipher', 'deploy', 'auth', 'write', 'ingest', 'ingestion', 'live', 'restricted', 'rest', 'server', 'management', 'root',
  'user', 'personal', 'developer', 'dev', 'prod', 'production', 'staging', 'mailgun', 'sendgrid', 'stripe', 'openai', 'anthropic', 'twilio',
]);
/** Before `key`: keys that are not secrets. */
const PLAIN_KEYS = new Set([
  'primary', 'foreign', 'sort', 'cache', 'partition', 'idempotency', 'object', 'map', 'hot', 'lookup', 'unique', 'composite', 'hash',
  'route', 'translation', 'i18n', 'react', 'list', 'group', 'row', 'column', 'index', 'shortcut', 'public', 'pub', 'dedup', 'bucket', 's3',
  'redis', 'registry', 'range', 'join', 'dict', 'json', 'yaml', 'config', 'setting', 'settings', 'state', 'label', 'message', 'locale',
  'lang', 'cursor', 'kms', 'gpg', 'pgp', 'ssh', 'host', 'dedupe', 'entry', 'field', 'property', 'attribute', 'meta',
  'metadata', 'query', 'search', 'sorting', 'item', 'node', 'element', 'component', 'local', 'global', 'custom', 'menu', 'table',
  'type', 'event', 'mapping', 'natural', 'surrogate', 'shard', 'routing', 'parent', 'child', 'next', 'prev', 'last', 'first', 'start', 'end',
  'publishable', 'site', 'recaptcha', 'turnstile', 'anon', 'order', 'tracking', 'id',
  // `Sec-WebSocket-Key`: a handshake nonce.
  'socket',
]);

/** Classifies a variable, field, header or flag name by its last word (`DB_PASSWORD`, `x-api-key`, `clientSecret`). */
export function nameStrength(name: string): Strength {
  const words = nameWords(name).filter((w, i, all) => i === all.length - 1 || !ARTICLES.has(w));
  // `password_hash`, `hashed_password`, `password_digest`: what is stored in place of a password.
  if (words.some((w) => w === 'hash' || w === 'hashed' || w === 'digest' || w === 'salt' || w === 'salted')) return Strength.None;
  // git config `user.signingkey` names a key id (`3AA5C34371567BD2`), not a key.
  if (words[words.length - 1] === 'signingkey') return Strength.None;
  while (words.length > 1 && SUFFIXES.has(words[words.length - 1]!)) words.pop();
  // A numbered name is its name: `token1`, `API_KEY_2`, `secretKey2` (a second key kept while the first rotates);
  // not `auth0`, a product (an Auth0 tenant's domain is public).
  while (words.length > 1 && /^\d{1,2}$/.test(words[words.length - 1]!)) words.pop();
  if (words.length && /^[a-z]{3,}\d{1,2}$/.test(words[words.length - 1]!) && words[words.length - 1] !== 'auth0') words[words.length - 1] = words[words.length - 1]!.replace(/\d+$/, '');
  let last = words[words.length - 1] ?? '';
  let prev = words[words.length - 2] ?? '';
  // A PAT is a personal access token.
  if (last === 'pat') return Strength.Medium;
  // Session ids are bearer credentials while the session lives: `session_id`, `PHPSESSID`, `JSESSIONID`, `ASP.NET_SessionId`.
  if ((last === 'id' && (prev === 'session' || prev === 'sess')) || /^(?:php|j|asp)?sess(?:ion)?id$/.test(last)) return Strength.Weak;
  // Java keystores: `-storepass`, `-keypass`, `-srcstorepass`.
  if (/^(?:src|dest)?(?:store|key)pass$/.test(last)) return Strength.Strong;
  // `mot_de_passe`: `passe` alone is a French word.
  if (last === 'passe' && prev !== 'de') return Strength.None;
  if (!STRONG_WORDS.has(last) && !['secret', 'token', 'key', 'auth', 'authorization', 'signature', 'sig', 'session', 'sessionid', 'cookie'].includes(last)) {
    const m = COMPOUND.exec(last);
    if (!m) return Strength.None;
    const head = last.slice(0, last.length - m[1]!.length);
    // `monkey`, `hockey`, `turkey`: only `apikey`, `secretkey`, `authkey`… are keys.
    if (m[1] === 'key' && !SECRET_KEYS.has(head)) return Strength.None;
    last = m[1]!;
    prev = head;
  }
  // `allPass`, `anyPass`, `STENCIL_PASS`: a bare `pass` after another word is often not a password;
  // `SMTP_PASS=Fluffy12` still counts (Medium takes any literal that is not a word).
  if (last === 'pass' && prev && !['smtp', 'db', 'database', 'mail', 'email', 'user', 'admin', 'root', 'ftp', 'redis', 'mysql', 'pg', 'ldap', 'http', 'proxy', 'auth', 'login', 'app'].includes(prev)) return Strength.Medium;
  if (STRONG_WORDS.has(last)) return Strength.Strong;
  switch (last) {
    case 'secret':
    case 'authorization':
      return Strength.Medium;
    case 'token':
      if (PLAIN_TOKENS.has(prev)) return Strength.None;
      return prev ? Strength.Medium : Strength.Weak;
    case 'key':
      if (SECRET_KEYS.has(prev) || (prev === 'x' && words.includes('api'))) return Strength.Medium;
      if (PLAIN_KEYS.has(prev)) return Strength.None;
      return Strength.Weak;
    case 'auth':
      return prev === 'basic' || prev === 'http' ? Strength.Medium : Strength.Weak;
    default:
      return Strength.Weak;
  }
}

/**
 * Whether `value`, assigned to a name of the given strength, is a literal secret.
 * `quoted`: it stood in quotes, so it cannot be code. `prose`: the separator
 * was a word (`password is …`). `after`: the text that follows it on its line.
 */
export function secretValue(value: string, strength: Strength, quoted: boolean, prose = false, after = ''): boolean {
  const v = value;
  if (strength === Strength.None || v.trim().length < 3) return false;
  if (v.startsWith('[REDACTED')) return false;
  // A fragment of code around a string, not a value: `"Password:",rememberMe…`, `"+new Buffer(`.
  if (/^[,;:)\]}]/.test(v) || /^\+[ \t]*[A-Za-z_$][\w$.]*(?:[ \t]|\(|$)/.test(v)) return false;
  // A number in code: `STENCIL_PASS_DEPTH_PASS: 0x0B96`, `max_tokens: 4096.5`, `pricePerToken: 1_000_000n`.
  if (/^(?:0x[0-9a-f]+|\d+\.\d+|\d{1,3}(?:_\d{3})+n?|\d+n)$/i.test(v)) return false;
  // Stripe publishable keys are public by design.
  if (/^pk_(?:live|test)_/.test(v)) return false;
  if (shortProviderToken(v) || cacheKey(v)) return false;
  // `"auth": "<base64 of user:password>"` (docker config.json, .npmrc `_auth`).
  if (v.length >= 12 && base64OfCredentials(v)) return true;
  if (isReference(v, !quoted) || isPlaceholder(v) || isPathOrUrl(v) || isPasswordHash(v)) return false;
  // A regular expression (`(?:%25|%)…`), an SQL type (`VARCHAR(255)`), a protocol (`HTTP/1.1`), a file name (`.passphrase`).
  if (/\(\?[:=!<]|\\[dwsbDWS]|\[\^/.test(v) || /^(?:N?VARCHAR|CHAR|TEXT|INTEGER|INT|BIGINT|UUID|BOOLEAN|BYTEA|BLOB|(?:VAR)?BINARY|TIMESTAMP)(?:\(\d+\))?$/i.test(v) || /^[A-Z]{2,}\/\d(?:\.\d)*$/.test(v) || /^\.[a-z][\w.-]*$/.test(v)) return false;
  // A dotted identifier (a Python entry point, a module, a setting's name): `dispatch.plugins.core:HeaderAuthPlugin`.
  if (/^[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*){2,}(?::[A-Za-z_]\w*)?$/.test(v) && ((!/\d/.test(v) && wordiness(v) >= 0.5) || wordiness(v) >= 0.7)) return false;
  // A Python dunder name (`__root__`).
  if (/^__[A-Za-z]\w*__$/.test(v)) return false;
  // A reverse-DNS identifier (an app key, a bundle id): `com.github.integration.fusion-test`.
  if (/^(?:com|org|net|io|dev|app|me|co|de|uk|fr)\.[a-z][a-z0-9-]*(?:\.[a-z][a-z0-9-]*)+$/.test(v)) return false;
  // Cut short for display: `sk_test_...`, `ghp_…`.
  if (/^(?:\.{2,}|…)/.test(after)) return false;
  if (/\s/.test(v.trim()) && (strength < Strength.Strong || isSentence(v))) return false;
  if (!quoted) {
    if (isCode(v)) return false;
    // A bare identifier followed by `;`, `,` or `)` is a variable: `password = pwd;`.
    // (Not one with digits all through it: `l902yr7irs4sr5h4srooveyt;` is a session id in a Cookie header.)
    if (/^[A-Za-z_$][\w$]*$/.test(v) && /^\s*[;,)]/.test(after) && (!/\d/.test(v) || (wordiness(v) >= 0.6 && (v.match(/\d+/g)?.length ?? 0) < 3))) return false;
    // `password: string`, `token: Token`, `secret: SecretStr`: a type.
    if (/^(?:[A-Z][a-z]+)+$/.test(v) && !/\d/.test(v)) return false;
    // `secretKey: Uint8Array`, `key: Int32Array`: a type with a number in its name.
    if (/^(?:[A-Z][a-z]+)+\d+(?:[A-Z][a-z]+)+$/.test(v) && wordiness(v) >= 0.6) return false;
    // Prose: `password: must be …`, `**Authorization**: 6-tier security clearance matrix`.
    if (/^[a-z]+$/.test(v) && /^ +[A-Za-z]/.test(after)) return false;
    if (strength < Strength.Strong && /^ +[a-z]{2,} +[a-z]{2,}/.test(after) && wordiness(v) >= 0.5) return false;
    // A placeholder in brackets with spaces in it, cut at the first: `<keep it safe>`, `[your key here]`.
    if (/^[<[][^>\]]*$/.test(v) && /^[^<>[\]]*[>\]]/.test(after)) return false;
  }
  if (quoted && /^[A-Z][a-z]+(?: [A-Z]?[a-z]+)*$/.test(v)) return false; // a label: "Password", "Mot de passe"
  // A label translated (`"Password": "Hasło"`, `"API Key": "API-nøkkel"`): letters of another language, no digit.
  if (quoted && /[^\x00-\x7f]/.test(v) && /^\p{L}+(?:[ -]\p{L}+)*$/u.test(v)) return false;
  const hasDigit = /\d/.test(v);
  const hasLetter = /[A-Za-z]/.test(v);
  const hasSymbol = /[^A-Za-z0-9]/.test(v);
  if (prose && !quoted && !(hasDigit || hasSymbol) && !looksRandom(v, 12)) return false;
  // Words joined in prose: `the password is auto-generated`.
  if (prose && !quoted && /^[A-Za-z]+(?:-[A-Za-z]+)+$/.test(v)) return false;
  switch (strength) {
    case Strength.Strong:
      return v.length >= 4 && !(prose && !quoted && v.length < 6);
    case Strength.Medium:
      // A word, or words joined (`github_webhook`, `same-origin`): a name or an enum value.
      if (/^[A-Za-z]+$/.test(v) && !looksRandom(v, 16, 3.5)) return false;
      if (/^[A-Za-z]+(?:[_-][A-Za-z]+)+$/.test(v) && wordiness(v) >= 0.6) return false;
      // Words joined with a short number among them (`RBAC_4_levels`), or three or more words (`iap-oauth-client-id`).
      if (/^_*[A-Za-z]+(?:[_-](?:[A-Za-z]+|\d{1,3}))+$/.test(v) && (wordiness(v) >= 0.6 || (v.split(/[_-]+/).filter(Boolean).length >= 3 && wordiness(v) >= 0.5))) return false;
      return v.length >= 8 || (v.length >= 5 && hasDigit && hasLetter);
    default:
      if (isUuid(v)) return false;
      return looksRandom(v, 16, 3.2) || (/^[0-9a-f]{32,}$/i.test(v) && entropy(v) >= 3.4);
  }
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (IEEE) of an ASCII string. */
export function crc32(s: string): number {
  let c = 0xffffffff;
  for (let i = 0; i < s.length; i++) c = CRC_TABLE[(c ^ s.charCodeAt(i)) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const B62_DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` in base 62 (digits, then upper, then lower case), left-padded with 0 to `width`. */
export function base62(n: number, width = 0): string {
  let s = '';
  do {
    s = B62_DIGITS[n % 62] + s;
    n = Math.floor(n / 62);
  } while (n > 0);
  return s.padStart(width, '0');
}

/**
 * The checksum that GitHub and npm put in their tokens' last 6 characters:
 * CRC-32 of the 30 random characters after the prefix, in base 62.
 */
export function crc32Tail(token: string, prefixLength: number): boolean {
  const body = token.slice(prefixLength, prefixLength + 30);
  const tail = token.slice(prefixLength + 30);
  return tail.length === 6 && base62(crc32(body), 6) === tail;
}

/**
 * Values published in providers' documentation as examples, which leak nothing:
 * AWS's `…EXAMPLE` keys, Stripe's docs key, jwt.io's sample token. Any value with
 * EXAMPLE in it counts, as AWS and others mark theirs.
 */
const DOCUMENTATION_VALUES = new Set([
  's' + 'k_test_4eC39HqLyjWDarjtT1zdp7dc',
  's' + 'k_test_BQokikJOvBiI2HlWgH4olfQ2',
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.' + 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
]);

/**
 * A value that stands in for a secret in documentation or a template, whatever rule
 * found it: EXAMPLE in it, a published sample, or filler after a real prefix
 * (`ghp_xxxx…`, `dckr_pat_0000…`, `sk_live_****`, `T00000000/B00000000`).
 */
export function isDocumentationValue(secret: string): boolean {
  if (secret.includes('EXAMPLE') || DOCUMENTATION_VALUES.has(secret)) return true;
  return /x{5,}|X{5,}|\*{4,}|0{8,}|\.{3,}|…/.test(secret);
}

/**
 * A provider's prefix with a body far shorter than its format (`sk_test_123`, `ghp_abc`, `xoxb-1234`):
 * a documentation or test value, not a token (issue 34).
 */
export function shortProviderToken(v: string): boolean {
  const m = /^(?:[sr]k_(?:live|test)_|gh[pousr]_|github_pat_|npm_|glpat-|xox[abposr]-|hf_|sk-(?:proj-|ant-)?|SG\.|AKIA|AIza|dop_v1_|shp(?:at|ss|ca|pa)_|lin_api_|hvs\.|pypi-)(.*)$/.exec(v);
  return m !== null && m[1]!.length < 12;
}

/**
 * A cache key or build key: readable parts joined by `-`, ending in a hex digest
 * (`node-cache-Linux-x64-npm-<sha256>`, `v2-deps-<sha256>`): what CI prints after `key:` (issue 34).
 */
export function cacheKey(v: string): boolean {
  const m = /^((?:[A-Za-z0-9][A-Za-z0-9._]{0,24}-){2,})[0-9a-f]{32,}$/.exec(v);
  return m !== null && /[A-Za-z]{2}/.test(m[1]!);
}

/** A PyPI token's body is a macaroon whose location is pypi.org (or test.pypi.org): base64url of `\x02\x01…pypi.org`. */
export function pypiMacaroon(token: string): boolean {
  const bytes = base64Bytes(token.slice(token.indexOf('-') + 1, token.indexOf('-') + 25).replace(/-/g, '+').replace(/_/g, '/'));
  return bytes !== null && bytes.charCodeAt(0) === 2 && bytes.includes('pypi.org');
}

/** A JWT's header decodes to a JSON object that names its algorithm (`{"alg":…}`). */
export function jwtStructure(token: string): boolean {
  const head = token.slice(0, token.indexOf('.'));
  const bytes = base64Bytes(head.replace(/-/g, '+').replace(/_/g, '/'));
  if (bytes === null) return false;
  try {
    const o = JSON.parse(bytes) as unknown;
    return typeof o === 'object' && o !== null && 'alg' in o;
  } catch {
    return false;
  }
}

/** Password hashes (bcrypt, argon2, Django's pbkdf2, crypt's $6$): stored on purpose, not a password. */
function isPasswordHash(value: string): boolean {
  return /^(?:\$(?:2[abxy]?|argon2(?:id|i|d)|[156]|y|gy|7|scrypt|pbkdf2(?:-sha\d+)?)\$|(?:pbkdf2_sha\d+|bcrypt(?:_sha256)?|argon2|sha1|md5|scrypt)\$)/.test(value);
}

/**
 * Base64 of `user:password` (an HTTP Basic credential, a registry `auth`): the user a
 * word, the password without spaces and not just digits (`localhost:8080` is an address).
 */
export function base64OfUserPassword(s: string): boolean {
  const bytes = base64Bytes(s);
  if (bytes === null) return false;
  const m = /^([\w.@+-]{1,64}):([\x21-\x7e]{6,128})$/.exec(bytes);
  if (!m) return false;
  const pw = m[2]!;
  // `Content-Type:application/json`, `host:8080`, `path:/usr/lib`: data, not a login.
  if (/^\d+$/.test(pw) || !/[A-Za-z]/.test(pw) || isPlaceholder(pw) || isPathOrUrl(pw) || /^[a-z]+\/[\w.+-]+$/i.test(pw)) return false;
  return (/\d/.test(pw) && wordiness(pw) < 0.9) || looksRandom(pw, 8, 3.0);
}

/** Base64 of a JWT (`ZXlK…` is "eyJ"): three dot-separated parts once decoded. */
export function base64OfJwt(s: string): boolean {
  const bytes = base64Bytes(s.replace(/=+$/, ''));
  return bytes !== null && /^eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/.test(bytes);
}

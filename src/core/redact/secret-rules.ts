/**
 * The secret rules, as data: what `redact()` looks for and how each finding is named.
 *
 * Provider formats follow the vendors' documented token formats, cross-checked
 * against the rule lists that secret scanners publish (gitleaks' default config,
 * secretlint's recommended preset); the expressions here are written for
 * JavaScript's regex engine and for notes, where a false positive costs the
 * reader a word and a miss leaks a credential. Order matters: when two rules
 * match overlapping text, the earlier one wins, so specific formats come
 * before the generic ones (assignments, high entropy, personal data).
 */
import {
  base64OfCredentials,
  base64OfJwt,
  base64OfText,
  base64OfUserPassword,
  cacheKey,
  cardNumber,
  crc32Tail,
  entropy,
  isPathOrUrl,
  isPlaceholder,
  isReference,
  isUuid,
  jwtStructure,
  looksRandom,
  nameStrength,
  pypiMacaroon,
  Strength,
  secretValue,
  wordiness,
} from './secret-checks.ts';

export interface SecretRule {
  /** The `<type>` in `[REDACTED:<type>]`. */
  type: string;
  /** Lower-case strings of which one must occur in the text for the rule to run (a cheap prefilter). */
  keywords?: readonly string[];
  /** A global regex. Rules with `group` carry the `d` flag, so the group's offsets are known. */
  pattern: RegExp;
  /** The capture group(s) holding the secret, the first that took part in the match; the rest of the match is kept. */
  group?: number | readonly number[];
  /**
   * For rules that match within one line: a global, case-insensitive regex of which one match must
   * be on a line for the rule to run there; the rule then runs on those lines only (and its
   * match's `input` is the line).
   */
  lines?: RegExp;
  /** Minimum Shannon entropy, in bits per character, of the secret. */
  entropy?: number;
  /** A further check: the secret, and the match it came from (`m.input`, `m.index`). */
  validate?: (secret: string, m: RegExpExecArray) => boolean;
  /** The type for this match, when it depends on it (a generic assignment: `password` or `secret` by its name). */
  typeOf?: (m: RegExpExecArray) => string;
  /** The format's own checksum: when it holds, the finding stands without the checks above. */
  checksum?: (secret: string) => boolean;
  /**
   * A value in the format's shape that its checksum, length or structure proves is not one of its tokens
   * (a GitHub token whose CRC32 tail fails, a JWT whose header is not JSON): left as it is, and claimed so
   * that no later rule takes it.
   */
  lookAlike?: (secret: string) => boolean;
}

/** Filler in place of a real token body: `ghp_xxxxxxxx`, `AKIAXXXXXXXXXXXXXXXX`, `sk-…000…`. */
function filler(body: string): boolean {
  return /^[xX0*.#_\-/]*$/.test(body);
}

/** A provider token is real unless its body (after `prefixLength` characters) is filler. */
const notFiller =
  (prefixLength: number) =>
  (s: string): boolean =>
    !filler(s.slice(prefixLength));

/** The text after a match, to the end of its line (at most 80 characters). */
function after(m: RegExpExecArray): string {
  const from = m.index + m[0].length;
  const rest = m.input.slice(from, from + 80);
  const nl = rest.indexOf('\n');
  return nl < 0 ? rest : rest.slice(0, nl);
}

/** Random-looking tokens with no format of their own (bearer tokens, URL user names). */
function opaqueToken(s: string): boolean {
  if (isPlaceholder(s) || isReference(s)) return false;
  return looksRandom(s, 12, 3.0) || (/^[0-9a-f]{32,}$/i.test(s) && entropy(s) > 3.3);
}

const HIGH_ENTROPY_SKIP_BEFORE = /(?:\$[0-9a-z]{1,8}\$\S*|\b(?:sha(?:1|224|256|384|512)|md5|h1|blake2b?|xxh64|sha3-\d+)(?:[-:=]|[:=][ \t]*["']?|:[ \t]+)|base64,|\bQm|(?:ssh-(?:rsa|ed25519|dss)|ecdsa-sha2-nistp\d+)[ \t]+)$/i;

/**
 * A long key in one case of letters with digits all through it (base32 or base36, as some providers issue
 * their API keys: 40+ characters of A-Z and 0-9): random enough that no name, hash or word reads so.
 * Not hex (a digest), and not a run of words and numbers (`ABC123_DEF456`): one unbroken token.
 */
function upperCaseKey(s: string): boolean {
  if (!/^[A-Z0-9]{40,}$/.test(s) || /^[A-F0-9]+$/.test(s)) return false;
  const digits = s.replace(/[^0-9]/g, '').length;
  const letters = s.length - digits;
  return digits >= s.length / 8 && letters >= s.length / 3 && entropy(s) >= 4.6 && (s.match(/\d+/g)?.length ?? 0) >= 6;
}

/** Generic high-entropy tokens (no keyword, no known format): random, not text in base64, not in a URL, a hash or public key material. */
function highEntropy(s: string, m: RegExpExecArray): boolean {
  // Subresource-integrity hashes (lockfiles) and Stripe publishable keys (public by design).
  if (/^(?:sha(?:1|256|384|512)|md5)-|^pk_(?:live|test)_/i.test(s)) return false;
  if (/^[0-9a-f]+$/i.test(s.replace(/[-_]/g, ''))) return false; // commit ids, digests, UUIDs
  if (!/[a-z]/.test(s) || !/[A-Z]/.test(s) || !/\d/.test(s)) return upperCaseKey(s);
  // Alphabets (`ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef…`, `0123456789…`), written out in code.
  if (/abcdefgh|ABCDEFGH|0123456789/.test(s)) return false;
  // Identifiers of short parts (`COMPRESSED_SRGB8_ALPHA8_ASTC_10x10_KHR`, `get-user-by-id-v2`), also with a hex
  // nonce among upper-case words (a heredoc's delimiter `GH_AW_PROMPT_ee6a84c273424ae8_EOF`).
  if (/^[A-Za-z0-9]{1,12}(?:[_-][A-Za-z0-9]{1,12}){3,}$/.test(s) || /^(?:[A-Z][A-Z0-9]*_)+[0-9a-f]{8,40}(?:_[A-Z][A-Z0-9]*)*$/.test(s)) return false;
  // Files in base64 (JPEG, PNG, GIF, PDF, zip, gzip) and lines of a base64 block that began as one, or as a certificate.
  if (FILE_MAGIC.test(s) || encodedFileLine(m.input, m.index)) return false;
  // An identifier in CamelCase (`_BeautifulSoupHtml5LibFrameParser`), an Ethereum address with its case checksum (EIP-55),
  // an IPFS content id (CIDv0), binary data with runs of zero bytes (a serialised transaction: `AgAAAAcAAAAD…`).
  if (camelIdentifier(s) || /^0x[0-9a-fA-F]{40}$/.test(s) || /^Qm[1-9A-HJ-NP-Za-km-z]{44}$/.test(s) || /A{10,}/.test(s)) return false;
  // Cache keys: readable parts, then a digest (`node-cache-Linux-x64-npm-<sha256>`).
  if (cacheKey(s)) return false;
  // Ciphertexts made to be committed (a Sealed Secrets value).
  if (isReference(s)) return false;
  if (!looksRandom(s, 32, 4.0) || base64OfText(s.replace(/=+$/, ''))) return false;
  const input = m.input;
  const lineStart = input.lastIndexOf('\n', m.index) + 1;
  const before = input.slice(Math.max(lineStart, m.index - 80), m.index);
  if (HIGH_ENTROPY_SKIP_BEFORE.test(before)) return false;
  // A path of words (`/AdoptOpenJDK/openjdk8-binaries/releases/tag/…`), or a file's name (`backups/cases-…-LfgkHWYu.json`).
  if (s.includes('/') && (pathOfWords(s) || /^\.[A-Za-z][A-Za-z0-9]{0,4}\b/.test(input.slice(m.index + s.length, m.index + s.length + 6)))) return false;
  const lineEnd = input.indexOf('\n', m.index);
  const line = input.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  // A JSON Web Key's public members (the RSA modulus `n`, an EC point `x`, `y`): published in a JWKS.
  if (/"kty"/.test(line) && /["']?\b(?:n|e|x|y|x5c|x5t|x5t#S256|kid)["']?[ \t]*:[ \t]*\[?["']?$/.test(before)) return false;
  // Base58 of 32 bytes (up to 48 characters: Polkadot's SS58) near words that say what it is on a chain (a Solana address, a program id, a mint): public.
  // (A Solana secret key is 64 bytes: 87-88 characters.)
  if (/^[1-9A-HJ-NP-Za-km-z]{32,48}$/.test(s) && !/secret|priv|passw|seed|mnemonic|keypair/i.test(line) && CHAIN_WORDS.test(input.slice(Math.max(0, m.index - 2000), m.index + 200))) return false;
  // The path of a URL (`ipfs://Qm…`), and values of names that say what they are (`next_token`, `cache_key`, `etag`).
  if (s.startsWith('//') && /[a-z]:$/i.test(before)) return false;
  const name = /([A-Za-z_][\w.-]*)["']?[ \t]*(?:[:=]|=>)[ \t]*["']?$/.exec(before)?.[1];
  if (name && /(?:token|key|cursor|hash|digest|checksum|etag|nonce|id|sha|signature|integrity|seq|sequence|rev|revision|checkpoint|offset|marker)$/i.test(name) && nameStrength(name) === 0) return false;
  // The parts of a cipher string (Bitwarden's `2.<iv>|<data>|<mac>`): encrypted data.
  if (/\b[0-6]\.[A-Za-z0-9+/]{16,}={0,2}\|(?:[A-Za-z0-9+/]{16,}={0,2}\|)?$/.test(before)) return false;
  // Public material by its name (a truststore, a certificate, a CA bundle), and the parts of a sops value (`ENC[AES256_GCM,data:…,iv:…`).
  if (name && /(?:trust_?store|cert(?:ificate)?s?|ca_?bundle|ca_?cert|public_?key|pub_?key)$/i.test(name)) return false;
  if (/ENC\[[A-Z0-9_]+,[^\]]*$/.test(before)) return false;
  // In a URL without credentials (document ids, cache-busting hashes): URLs have rules of their own.
  if (/[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]*$/i.test(before)) return false;
  // Public key material: certificates and public keys are published on purpose.
  // Within the 64 KB before (a certificate chain is shorter): a search back to the start for every match
  // would cost a 1 MB transcript seconds.
  const from = Math.max(0, m.index - 65536);
  const near = input.slice(from, m.index).lastIndexOf('-----BEGIN ');
  const begin = near < 0 ? -1 : from + near;
  if (begin >= 0 && !/^-----BEGIN [A-Z0-9 ]*PRIVATE/.test(input.slice(begin, begin + 48))) {
    const end = input.indexOf('-----END ', begin);
    if (end < 0 || end > m.index) return false;
  }
  return true;
}

/** "Password" in other languages, as names and in prose (fr `mot de passe`, es `contraseña`, pt `senha`). */
const PASSWORD_WORDS_INTL = String.raw`passe|contrase(?:ñ|n)a|senha|passwort|kennwort|wachtwoord|l(?:ö|o)senord(?:et)?|passord(?:et)?|adgangskode|salasana|has(?:ł|l)o|heslo|jelsz(?:ó|o)|parola|(?:ş|s)ifre(?:si)?|parol|пароль|密码|密碼|口令|パスワード|비밀번호|mật khẩu|kata sandi|κωδικός`;

/** The first characters of files in base64: JPEG, PNG, GIF, PDF, zip, gzip, WebP/RIFF, an X.509 certificate's DER, an SSH public key. */
const FILE_MAGIC = /^(?:\/9j\/|iVBORw0KGgo|R0lGOD[lh]|JVBERi0|UEsDB|H4sI|eJ[w-z]|UklGR|MII[A-Za-z0-9+/]{1,3}CCA[A-Za-z0-9+/]{2,3}gAwIBAgI|AAAA(?:B3NzaC1|C3NzaC1|E2VjZHNh))/;

/**
 * Whether the line at `at` is inside a block of base64 lines (40+ characters each) whose first line begins
 * a file or a certificate: a picture in a fixture, a certificate in a test, not a key.
 */
function encodedFileLine(input: string, at: number): boolean {
  let start = input.lastIndexOf('\n', at - 1) + 1;
  for (let n = 0; n < 400 && start > 0; n++) {
    const prev = input.lastIndexOf('\n', start - 2) + 1;
    const line = input.slice(prev, start - 1).trim().replace(/^["'`]|["'`]?[ \t]*\+?[,;]?$/g, '');
    if (!/^[A-Za-z0-9+/]{40,}={0,2}$/.test(line)) break;
    start = prev;
  }
  if (start === input.lastIndexOf('\n', at - 1) + 1) return false;
  const first = input.slice(start, input.indexOf('\n', start) < 0 ? undefined : input.indexOf('\n', start)).trim().replace(/^["'`]/, '');
  return FILE_MAGIC.test(first.replace(/^[\w.-]+:[ \t]*[|>]?[ \t]*/, ''));
}

/** Four or more capitalised words make most of it: a class or function name. */
function camelIdentifier(s: string): boolean {
  const t = s.replace(/^_+/, '');
  if (!/^[A-Za-z0-9_]+$/.test(t)) return false;
  const words = t.match(/[A-Z][a-z]{2,}/g) ?? [];
  return words.length >= 4 && words.join('').length / t.length >= 0.75;
}

/** Words that say a base58 string is an on-chain address, not a key. */
const CHAIN_WORDS = /address|wallet|\b(?:program(?:[ _-]?id)?|mint|pubkey|public[ _-]?key|account|pda|solana|devnet|mainnet|testnet|contract|lamports|spl|anchor|on-?chain|explorer)\b/i;

/** A path whose segments are words, dates or versions: not one random token. */
function pathOfWords(s: string): boolean {
  const segs = s.split('/').filter(Boolean);
  if (segs.length < 2) return false;
  let words = 0;
  for (const g of segs) {
    if (wordiness(g) >= 0.5) words++;
    // Not base64 either way: standard base64 has `/` but no `-` or `_` (`jdk8u-2020-01-09`, `v1.2_rc`).
    else if (!/[._-]/.test(g) && !(g.length <= 12 && /^[A-Za-z]+\d*[A-Za-z]*$/.test(g))) return false;
  }
  return words >= 2;
}

/** `is` and `was` in prose, also in the languages of PASSWORD_WORDS_INTL (fr `est`, es `es`, pt `é`, it `è`). */
const PROSE_IS = String.raw`is|was|est|es|é|è|ist|är|er|jest|je|это`;

/** Words that make a two-word name in prose and labels: `API key: …`, `client secret: …`, `Bot User OAuth Token: …`. */
const QUALIFIER = String.raw`(?:api|secret|access|private|auth|client|bot|app|refresh|personal|oauth|master|admin|root|signing|encryption|deploy|service|webhook|session|security|db|database|user|account)`;
// Assignment of a value to a secret-sounding name, in the syntaxes developers write it:
// .env and shell (`DB_PASSWORD=…`), YAML and JSON (`"client_secret": "…"`), code
// (`api_key = '…'`, `password := "…"`, `token => '…'`), HTTP headers (`X-API-Key: …`),
// and prose (`the password is …`). The name must end with the keyword (`password_hash`
// is not a password); nameStrength() decides how much the name vouches for the value.
const KEYWORD = String.raw`pass(?:word|wd|phrase|code)?|pwd|pw|secret|token|key|auth|authorization|credentials?|creds|session(?:[_.-]?id)?|sessid|cookie|pat|PAT|${PASSWORD_WORDS_INTL}`;
const NAME = String.raw`((?:(?:${QUALIFIER}|[A-Z][A-Za-z0-9]*)[ \t])?[A-Za-z0-9_$.-]{0,60}?(?:${KEYWORD})(?:[_.-]?(?:value|base|b64|base64|raw|plain|plaintext|str|hex))?(?:[_.-]?\d{1,2}(?![\w$.-]))?)`;
// Markdown emphasis may wrap the name: `**Password:** …`, `**API key**: …`.
// A typed declaration (`ADMIN_PASSWORD: string = "…"`, Kotlin, Swift, Rust) counts as an assignment (issue 34).
const SEPARATOR = String.raw`([ \t]*(?:\*\*|__)?(?::[ \t]*[A-Za-z_][\w.]*(?:<[^<>\n]{0,40}>)?\??[ \t]*=(?![=>])|=>|:=|\?=|\+=|!==?|===?|=|:(?!:))(?:\*\*|__)?[ \t]*|[ \t]+(?:is|was)[ \t]+)`;
const VALUE = String.raw`(?:"([^"\n]*)"|'([^'\n]*)'|\x60([^\x60\n]*)\x60|([^\s"'\x60,;)}\]]*[^\s"'\x60,;)}\].]))`;
const ASSIGNMENT = new RegExp(String.raw`(?<![A-Za-z0-9_.$-]|[A-Za-z0-9]:|\$\{)(["'\x60]?)${NAME}\1${SEPARATOR}${VALUE}`, 'gid');

// Command-line flags: `--password hunter2`, `--api-key=…`, `--client-secret '…'`.
const FLAG = String.raw`(--?(?:[A-Za-z0-9]+-)*(?:password|passwd|passphrase|pass|pwd|secret|token|key|apikey|auth|credentials?|(?:src|dest)?(?:store|key)pass))`;

/** The words a secret's name ends in (KEYWORD's stems), for the generic rules' `lines`. */
const SECRET_WORDS = /pass|pwd|pw|secret|token|key|auth|cred|sess|cookie|pat|senha|contrase|kennwort|wachtwoord|senord|adgangskode|salasana|has[lł]o|heslo|jelsz|parol|[sş]ifre|пароль|密码|密碼|パスワード|비밀번호/gi;
/** The same as whole words, for the rules that read prose (`the API key …`, `… is the admin password`). */
const SECRET_NOUNS = /\b(?:pass(?:word|phrase)|secret|token|key|pat)\b/gi;

/** A hex digest (a commit, `sha256:…`) or a UUID among words: what a note cites, not a secret. */
function digestOrId(token: string): boolean {
  const t = token.replace(/^sha\d*[:-]/i, '');
  return /^[0-9a-f]+$/i.test(t) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t);
}

/**
 * The name a value on the next line was assigned to (`const apiKey =\n  "…"`): read from at most the 120
 * characters before the `=`, so a long line before it (a hex literal) costs nothing more.
 */
function nameBeforeLineBreak(m: RegExpExecArray): string | undefined {
  const line = m.input.slice(Math.max(0, m.input.lastIndexOf('\n', m.index - 1) + 1, m.index - 120), m.index);
  return /(?<![\w$.])([A-Za-z_$][\w$.]{0,80})[ \t]*(?::[ \t]*[\w$.<>[\]| ]{1,40})?[ \t]*$/.exec(line)?.[1];
}

/** Generic rules name what they removed by the name it was assigned to: a password, or some other secret. */
const byName =
  (group: number) =>
  (m: RegExpExecArray): string =>
    nameStrength(m[group] ?? '') === Strength.Strong ? 'password' : 'secret';

/** Base64 of public material (a certificate, a public key) or of a placeholder (`my-secret-token`): nothing to hide. */
function publicOrPlaceholderBase64(s: string): boolean {
  let text: string;
  try {
    text = atob(s.length % 4 === 0 ? s : s + '='.repeat(4 - (s.length % 4)));
  } catch {
    return false;
  }
  if (/-----BEGIN (?:CERTIFICATE|PUBLIC KEY|PGP PUBLIC KEY BLOCK|RSA PUBLIC KEY|X509 CRL|SSH2 PUBLIC KEY)/.test(text.slice(0, 64))) return true;
  return /^[\x20-\x7e]+\n?$/.test(text) && isPlaceholder(text.trim());
}

/** Whether the line at `at` is a value under `data:` (or `stringData:`) of a document with `kind: Secret`. */
function kubernetesSecretData(input: string, at: number): boolean {
  const doc = input.lastIndexOf('\n---', at);
  const head = input.slice(doc < 0 ? 0 : doc, at);
  if (!/^kind:[ \t]*Secret[ \t]*$/m.test(head) && !/^kind:[ \t]*Secret[ \t]*$/m.test(input.slice(at, input.indexOf('\n---', at) < 0 ? undefined : input.indexOf('\n---', at)))) return false;
  // The nearest line above that is not indented opens the block.
  const above = head.split('\n').reverse().find((l) => /^\S/.test(l));
  return above !== undefined && /^(?:data|stringData):[ \t]*$/.test(above);
}

/**
 * Provider tokens with a documented prefix, as [type, prefix keywords, body]: the
 * prefix and its fixed length and alphabet say enough on their own. The body is a
 * regex source; the token must stand alone (no word character or `-` on either side).
 */
const PREFIXED: ReadonlyArray<readonly [type: string, keywords: readonly string[], source: string]> = [
  ['azure_function_key', ['azfu'], String.raw`[A-Za-z0-9_-]{44}AzFu[A-Za-z0-9_-]{5,6}={0,2}`],
  ['azure_devops_token', ['azdo'], String.raw`[A-Za-z0-9]{52}AZDO[A-Za-z0-9]{28}`],
  ['cloudflare_origin_ca_key', ['v1.0-'], String.raw`v1\.0-[a-f0-9]{24}-[a-f0-9]{146}`],
  ['tencent_secret_id', ['akid'], String.raw`AKID[A-Za-z0-9]{32}`],
  // Cloud Storage HMAC access ids: 61 characters for a service account, 24 for a user.
  ['gcp_hmac_key', ['goog'], String.raw`GOOG[0-9A-Z]{20}(?:[0-9A-Z]{37})?`],
  ['yandex_key', ['aqvn', 't1.'], String.raw`AQVN[A-Za-z0-9_-]{35,38}|t1\.[A-Z0-9a-z_-]+={0,2}\.[A-Z0-9a-z_-]{86}={0,2}`],
  ['openshift_token', ['sha256~'], String.raw`sha256~[A-Za-z0-9_-]{43}`],
  ['huggingface_token', ['api_org_'], String.raw`api_org_[A-Za-z]{34}`],
  ['sourcegraph_token', ['sgp_', 'sgs_', 'sgph_'], String.raw`(?:sgp_(?:[a-f0-9]{16}_)?[a-f0-9]{40}|sgs_[a-f0-9]{64}|sgph_[a-f0-9]{16}_[a-f0-9]{40})`],
  ['sonar_token', ['squ_', 'sqp_', 'sqa_'], String.raw`sq[upa]_[a-f0-9]{40}`],
  ['sendinblue_key', ['xkeysib-', 'xsmtpsib-'], String.raw`x(?:keysib|smtpsib)-[a-f0-9]{64}-[A-Za-z0-9]{16}`],
  ['mailchimp_key', ['-us'], String.raw`[a-f0-9]{32}-us\d{1,2}`],
  ['mailersend_token', ['mlsn.'], String.raw`mlsn\.[a-f0-9]{64}`],
  ['resend_key', ['re_'], String.raw`re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}`],
  ['nuget_key', ['oy2'], String.raw`oy2[a-z0-9]{43}`],
  ['clojars_token', ['clojars_'], String.raw`CLOJARS_[a-z0-9]{60}`],
  ['artifactory_key', ['cmvmdgtu'], String.raw`cmVmdGtu[A-Za-z0-9]{56}`],
  ['circleci_token', ['ccipat_', 'cciprj_'], String.raw`CCI(?:PAT|PRJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}`],
  ['buildkite_token', ['bkua_'], String.raw`bkua_[a-f0-9]{40}`],
  ['octopus_key', ['api-'], String.raw`API-[A-Z0-9]{26}`],
  ['harness_token', ['pat.', 'sat.'], String.raw`(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}`],
  ['scalingo_token', ['tk-us-'], String.raw`tk-us-[A-Za-z0-9_-]{48}`],
  ['prefect_key', ['pnu_'], String.raw`pnu_[A-Za-z0-9]{36}`],
  ['infracost_key', ['ico-'], String.raw`ico-[A-Za-z0-9]{32}`],
  ['render_key', ['rnd_'], String.raw`rnd_[A-Za-z0-9]{32}`],
  ['deno_token', ['ddp_', 'ddw_'], String.raw`dd[pw]_[A-Za-z0-9]{36}`],
  ['neon_key', ['napi_'], String.raw`napi_[a-z0-9]{64}`],
  ['honeycomb_key', ['hcaik_', 'hcxik_'], String.raw`hc[ax]ik_[a-z0-9]{58}`],
  ['langsmith_key', ['lsv2_'], String.raw`lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}`],
  ['pinecone_key', ['pcsk_'], String.raw`pcsk_[A-Za-z0-9]{4,8}_[A-Za-z0-9]{40,80}`],
  ['fireworks_key', ['fw_'], String.raw`fw_[A-Za-z0-9]{24}`],
  ['typeform_token', ['tfp_'], String.raw`tfp_[A-Za-z0-9_.=-]{59}`],
  ['readme_key', ['rdme_'], String.raw`rdme_[a-z0-9]{70}`],
  ['contentful_token', ['cfpat-'], String.raw`CFPAT-[A-Za-z0-9_-]{43}`],
  ['hubspot_token', ['pat-na', 'pat-eu'], String.raw`pat-(?:na|eu)\d-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}`],
  ['trello_token', ['atta'], String.raw`ATTA[a-f0-9]{64}[A-F0-9]{8}`],
  ['bitbucket_app_password', ['atbb'], String.raw`ATBB[A-Za-z0-9]{32}`],
  ['asana_token', ['1/', '2/'], String.raw`[12]/\d{12,20}(?:/\d{12,20})?:[a-f0-9]{32}`],
  ['airtable_token', ['pat'], String.raw`pat[A-Za-z0-9]{14}\.[a-f0-9]{64}`],
  ['frameio_token', ['fio-u-'], String.raw`fio-u-[A-Za-z0-9_=-]{64}`],
  ['intra42_secret', ['s-s4t2'], String.raw`s-s4t2(?:ud|af)-[a-f0-9]{64}`],
  ['defined_networking_key', ['dnkey-'], String.raw`dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}`],
  ['adobe_client_secret', ['p8e-'], String.raw`p8e-[A-Za-z0-9]{32}`],
  ['settlemint_token', ['sm_pat_', 'sm_aat_', 'sm_sat_'], String.raw`sm_[pas]at_[A-Za-z0-9]{16}`],
  ['easypost_key', ['ezak', 'eztk'], String.raw`EZ[AT]K[A-Za-z0-9]{54}`],
  ['flutterwave_key', ['flwseck', 'flwsec'], String.raw`FLWSECK(?:_TEST)?-[a-h0-9]{12,32}(?:-X)?`],
  ['duffel_token', ['duffel_'], String.raw`duffel_(?:test|live)_[A-Za-z0-9_=-]{43}`],
  ['shippo_token', ['shippo_'], String.raw`shippo_(?:live|test)_[a-f0-9]{40}`],
  ['plaid_token', ['access-'], String.raw`access-(?:sandbox|development|production)-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}`],
  ['braintree_token', ['access_token$'], String.raw`access_token\$(?:production|sandbox)\$[a-z0-9]{16}\$[a-f0-9]{32}`],
  ['dropbox_token', ['sl.'], String.raw`sl\.[A-Za-z0-9_=-]{130,152}`],
  ['grafana_token', ['eyjrijoi'], String.raw`eyJrIjoi[A-Za-z0-9]{70,400}={0,2}`],
  ['newrelic_key', ['nral'], String.raw`[a-f0-9]{36}NRAL`],
  ['slack_token', ['xoxe-'], String.raw`xoxe-\d-[A-Za-z0-9]{100,}`],
  ['gitlab_token', ['glcbt-'], String.raw`glcbt-[a-f0-9]{1,5}_[A-Za-z0-9_-]{20}`],
  ['onepassword_token', ['ops_'], String.raw`ops_eyJ[A-Za-z0-9+/]{100,}={0,3}`],
  ['mailgun_key', ['pubkey-'], String.raw`pubkey-[a-f0-9]{32}`],
  ['maxmind_key', ['_mmk'], String.raw`[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk`],
  ['authress_key', ['.acc_', '.acc-'], String.raw`(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\.[a-z0-9]{4,6}\.acc[_-][a-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}`],
];

/**
 * Formats with no prefix of their own, as [type, provider words, body]: a token of exactly the
 * documented length and alphabet counts only on a line that names its provider (in a variable,
 * a flag, a label or a sentence, on either side). As gitleaks does for these providers, but
 * with the provider anywhere on the line, since notes say `the Datadog API key (…)` as often as
 * `DD_API_KEY=…`.
 */
const WEAK: ReadonlyArray<readonly [type: string, words: readonly string[], source: string]> = [
  ['datadog_key', ['datadog', 'dd_api', 'dd-api'], String.raw`[a-f0-9]{32}`],
  // 40 hex is also a commit id: only as an application key.
  ['datadog_key', ['dd_app', 'dd-app', 'datadog app', 'datadog_app', 'datadog application'], String.raw`[a-f0-9]{40}`],
  ['sentry_token', ['sentry'], String.raw`[a-f0-9]{64}`],
  ['algolia_key', ['algolia'], String.raw`[a-f0-9]{32}`],
  ['facebook_secret', ['facebook', 'fb_app', 'fb_secret'], String.raw`[a-f0-9]{32}`],
  ['logdna_key', ['logdna', 'mezmo'], String.raw`[a-f0-9]{32}`],
  ['rollbar_token', ['rollbar'], String.raw`[a-f0-9]{32}`],
  ['bugsnag_key', ['bugsnag'], String.raw`[a-f0-9]{32}`],
  ['twilio_key', ['twilio'], String.raw`[a-f0-9]{32}`],
  ['gitter_token', ['gitter'], String.raw`[a-f0-9]{40}`],
  ['sendbird_token', ['sendbird'], String.raw`[a-f0-9]{40}`],
  ['linode_token', ['linode'], String.raw`[a-f0-9]{64}`],
  ['cloudflare_key', ['cloudflare', 'cf_api'], String.raw`[a-f0-9]{37}`],
  ['cloudflare_key', ['cloudflare', 'cf_api'], String.raw`[A-Za-z0-9_-]{40}`],
  ['pusher_secret', ['pusher'], String.raw`[a-f0-9]{20}`],
  ['plaid_secret', ['plaid'], String.raw`[a-f0-9]{30}`],
  ['uuid_token', ['heroku', 'snyk', 'codecov', 'postmark', 'railway', 'hubspot', 'squarespace', 'scaleway', 'launchdarkly', 'ld_api'], String.raw`(?:api-|sdk-|mob-)?[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}`],
  ['twitch_secret', ['twitch'], String.raw`[a-z0-9]{30}`],
  ['mattermost_token', ['mattermost'], String.raw`[a-z0-9]{26}`],
  ['etsy_key', ['etsy'], String.raw`[a-z0-9]{24}`],
  ['dropbox_secret', ['dropbox'], String.raw`[a-z0-9]{15}`],
  ['vercel_token', ['vercel'], String.raw`[A-Za-z0-9]{24}`],
  ['atlassian_token', ['atlassian', 'jira', 'confluence'], String.raw`[A-Za-z0-9]{24}`],
  ['linkedin_secret', ['linkedin'], String.raw`[A-Za-z0-9]{14,16}`],
  ['vonage_secret', ['vonage', 'nexmo'], String.raw`[A-Za-z0-9]{16}`],
  ['airtable_key', ['airtable'], String.raw`key[A-Za-z0-9]{14}`],
  ['travis_token', ['travis'], String.raw`[A-Za-z0-9_-]{22}`],
  ['messagebird_key', ['messagebird'], String.raw`[A-Za-z0-9]{25}`],
  ['pagerduty_token', ['pagerduty'], String.raw`u\+[A-Za-z0-9_+-]{18}`],
  ['alibaba_secret', ['alibaba', 'aliyun'], String.raw`[A-Za-z0-9]{30}`],
  ['lob_key', ['lob_', 'lob '], String.raw`(?:live|test)_[a-f0-9]{35}`],
  ['okta_token', ['okta'], String.raw`00[A-Za-z0-9_-]{40}`],
  ['twitter_secret', ['twitter'], String.raw`[A-Za-z0-9]{25}|[A-Za-z0-9]{35}|[A-Za-z0-9]{45}|[A-Za-z0-9]{50}|\d{15,25}-[A-Za-z0-9]{20,40}`],
  ['zendesk_token', ['zendesk'], String.raw`[A-Za-z0-9]{40}`],
  ['netlify_token', ['netlify'], String.raw`[A-Za-z0-9_-]{40,46}`],
  ['razorpay_secret', ['razorpay'], String.raw`[A-Za-z0-9]{24}`],
  ['coinbase_secret', ['coinbase'], String.raw`[A-Za-z0-9]{32}|[A-Za-z0-9+/]{86}==`],
  ['fastly_token', ['fastly'], String.raw`[A-Za-z0-9_-]{32}`],
  ['jenkins_token', ['jenkins'], String.raw`11[a-f0-9]{32}|[a-f0-9]{32,34}`],
  ['vultr_key', ['vultr'], String.raw`[A-Z0-9]{36}`],
  ['sumologic_key', ['sumo'], String.raw`[A-Za-z0-9]{64}|su[A-Za-z0-9]{12}`],
  ['ibm_cloud_key', ['ibm'], String.raw`[A-Za-z0-9_-]{44}`],
  ['gcp_hmac_secret', ['hmac', 'goog'], String.raw`[A-Za-z0-9+/]{40}`],
  ['tencent_secret', ['tencent'], String.raw`[A-Za-z0-9]{32}`],
  ['huawei_key', ['huawei'], String.raw`[A-Z0-9]{20}|[A-Za-z0-9]{40}`],
  ['adafruit_key', ['adafruit', 'aio_key'], String.raw`[A-Za-z0-9_-]{32}`],
  ['adobe_client_id', ['adobe'], String.raw`[a-f0-9]{32}`],
  ['asana_secret', ['asana'], String.raw`[a-z0-9]{32}`],
  ['beamer_key', ['beamer'], String.raw`b_[A-Za-z0-9=_-]{44}`],
  ['bitbucket_secret', ['bitbucket'], String.raw`[A-Za-z0-9]{32}|[A-Za-z0-9=_-]{64}`],
  ['bittrex_key', ['bittrex'], String.raw`[a-z0-9]{32}`],
  ['confluent_key', ['confluent'], String.raw`[A-Za-z0-9]{16}|[A-Za-z0-9+/]{64}`],
  ['contentful_token', ['contentful'], String.raw`[A-Za-z0-9=_-]{43}`],
  ['discord_secret', ['discord'], String.raw`[a-f0-9]{64}`],
  ['discord_secret', ['discord'], String.raw`[A-Za-z0-9=_-]{32}`],
  ['drone_token', ['drone'], String.raw`[A-Za-z0-9]{32}`],
  ['finicity_secret', ['finicity'], String.raw`[A-Za-z0-9]{20}|[a-f0-9]{32}`],
  ['finnhub_key', ['finnhub'], String.raw`[a-z0-9]{20}`],
  ['flickr_key', ['flickr'], String.raw`[a-z0-9]{32}`],
  ['freshbooks_token', ['freshbooks'], String.raw`[a-z0-9]{64}`],
  ['gocardless_token', ['gocardless'], String.raw`live_[A-Za-z0-9_=-]{40}`],
  ['intercom_token', ['intercom'], String.raw`[A-Za-z0-9=_+/-]{59,60}`],
  ['jfrog_key', ['jfrog', 'artifactory'], String.raw`[A-Za-z0-9]{73}|[A-Za-z0-9]{64}`],
  ['kraken_secret', ['kraken'], String.raw`[A-Za-z0-9/=_+-]{80,90}`],
  ['kucoin_secret', ['kucoin'], String.raw`[a-f0-9]{24}`],
  ['launchdarkly_token', ['launchdarkly'], String.raw`[A-Za-z0-9=_-]{40}`],
  ['linear_secret', ['linear'], String.raw`[a-f0-9]{32}`],
  ['looker_secret', ['looker'], String.raw`[A-Za-z0-9]{20}|[A-Za-z0-9]{24}`],
  ['nytimes_key', ['nytimes', 'new-york-times', 'newyorktimes'], String.raw`[A-Za-z0-9=_-]{32}`],
  ['rapidapi_key', ['rapidapi'], String.raw`[A-Za-z0-9_-]{50}`],
  ['cohere_key', ['co_api', 'cohere'], String.raw`[A-Za-z0-9]{40}`],
  ['mistral_key', ['mistral'], String.raw`[A-Za-z0-9]{32}`],
  // SonarQube's legacy token, given as the `sonar.login` property.
  ['sonar_token', ['sonar.login', 'sonarlogin', 'sonar_login'], String.raw`[a-f0-9]{40}`],
];

/** A WEAK format as a rule: standalone, random enough, with its provider named on the line. */
function weak(type: string, words: readonly string[], source: string): SecretRule {
  // Hex formats have no other letter class (UUIDs and `live_` + hex included).
  const hexFormat = !/A-Z|a-z/.test(source);
  return {
    type,
    keywords: words,
    lines: new RegExp(words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi'),
    pattern: new RegExp(String.raw`(?<![A-Za-z0-9_+/.-])(?:${source})(?![A-Za-z0-9_+/=-]|\.[A-Za-z0-9])`, 'g'),
    // `lines`: the rule runs only on the lines naming the provider, so the line need not be checked again.
    validate: (s) => {
      if (isPlaceholder(s) || isReference(s)) return false;
      const body = s.replace(/^(?:api|sdk|mob)-|^(?:live|test)_|^key/, '');
      // A format that is not hex does not take a hex value: that is a commit id or a digest.
      if (!hexFormat && /^[a-f0-9]+$/.test(body)) return false;
      if (/^[a-f0-9-]+$/.test(body)) return entropy(body.replace(/-/g, '')) > 3.0;
      // The provider is named and the length is exact, so a lower bar than looksRandom: random, not words.
      const classes = Number(/[a-z]/.test(body)) + Number(/[A-Z]/.test(body)) + Number(/\d/.test(body));
      const digitRuns = body.match(/\d+/g)?.length ?? 0;
      return entropy(body) >= 3.0 && classes >= 2 && (wordiness(body) < 0.5 || ((digitRuns >= 2 || classes === 3) && wordiness(body) < 0.9));
    },
  };
}

/** The tokens of PREFIXED as rules: alone in their text, and not filler. */
function prefixed(type: string, keywords: readonly string[], source: string): SecretRule {
  return { type, keywords, pattern: new RegExp(String.raw`(?<![A-Za-z0-9_-])(?:${source})(?![A-Za-z0-9_-])`, 'g'), validate: (s) => !isPlaceholder(s.replace(/^[^_.-]+[_.-]/, '')) };
}

export const SECRET_RULES: readonly SecretRule[] = [
  // --- Private keys (first: they contain base64 that other rules would take piecemeal).
  {
    type: 'private_key',
    keywords: ['private key'],
    pattern:
      /-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?=(?:\s|\\[rn])*(?:[A-Za-z0-9+/=]{16}|Proc-Type:|Comment:|Version:))[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
  },
  {
    type: 'private_key',
    keywords: ['private-lines'],
    pattern: /(PuTTY-User-Key-File-\d: [\s\S]*?Private-Lines: \d+(?:\r?\n|\\n))((?:[A-Za-z0-9+/=\r\n]|\\n)+)/dg,
    group: 2,
  },
  {
    // A private key in base64 (kubeconfig `client-key-data`, Kubernetes secrets): "-----BEGIN" encodes to LS0tLS1CRUdJTi.
    type: 'private_key',
    keywords: ['ls0tls1crudjti'],
    pattern: /\bLS0tLS1CRUdJTi[A-Za-z0-9+/]{40,}={0,2}/g,
    validate: (s) => {
      try {
        return /PRIVATE KEY/.test(atob(s.slice(0, 80).replace(/=+$/, '').slice(0, 76)));
      } catch {
        return false;
      }
    },
  },
  // Django's `startproject` secret key: `django-insecure-` and 50 characters of its alphabet.
  { type: 'django_secret_key', keywords: ['django-insecure-'], pattern: /\bdjango-insecure-[a-z0-9!@#$%^&*(\-_=+)]{40,60}/g, validate: (s) => !filler(s.slice(16)) },
  { type: 'age_secret_key', keywords: ['age-secret-key-1'], pattern: /\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b/g },
  {
    // A JSON Web Key's private members: `d` (RSA, EC, OKP), the RSA primes and exponents, a symmetric key `k`.
    type: 'private_key',
    keywords: ['kty'],
    lines: /"kty"/g,
    pattern: /"(?:d|p|q|dp|dq|qi|k)"[ \t]*:[ \t]*"([A-Za-z0-9_-]{20,})"/dg,
    group: 1,
    validate: (s) => looksRandom(s, 20, 3.5),
  },
  {
    // A line of an htpasswd or shadow file: a user and the hash of its password (crackable offline, so not kept).
    type: 'password_hash',
    keywords: ['$apr1$', '$2', '$1$', '$5$', '$6$', '$y$', '{sha}', '{ssha}'],
    validate: (s) => entropy(s.replace(/^\$[^$]*\$(?:\d\d\$)?/, '')) > 3.0,
    pattern: /^[ \t]*[A-Za-z_][\w.@-]{0,63}:((?:\$(?:apr1|1|5|6)\$[./A-Za-z0-9]{1,16}\$[./A-Za-z0-9]{22,86}|\$2[abxy]?\$\d\d\$[./A-Za-z0-9]{53}|\$y\$[./A-Za-z0-9]+\$[./A-Za-z0-9]+\$[./A-Za-z0-9]{43}|\{S?SHA\}[A-Za-z0-9+/]{27,}={0,2}))(?=:|[ \t]*$)/dgm,
    group: 1,
  },

  // --- Webhook URLs whose path is the credential.
  { type: 'slack_webhook', keywords: ['hooks.slack.com'], pattern: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9+/_-]{20,}/g, validate: (s) => !filler(s.replace(/^.*?\/(?:services|workflows|triggers)\//, '')) },
  { type: 'discord_webhook', keywords: ['discord'], pattern: /https:\/\/(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d+\/[A-Za-z0-9_-]{30,}/g },
  // IFTTT's Webhooks service key and Make's (Integromat's) hook id: the URL is the credential (issue 34).
  { type: 'ifttt_webhook', keywords: ['maker.ifttt.com'], pattern: /https?:\/\/maker\.ifttt\.com\/(?:trigger\/[^\s/]+\/(?:json\/)?with\/key|use)\/([A-Za-z0-9_-]{16,})/dg, group: 1, validate: notFiller(0) },
  { type: 'make_webhook', keywords: ['make.com', 'integromat.com'], pattern: /https?:\/\/hook\.(?:[a-z0-9]+\.)?(?:make|integromat)\.com\/([a-z0-9]{24,40})(?![A-Za-z0-9])/dg, group: 1, validate: (s) => entropy(s) > 3.5 },
  {
    // Self-hosted chat and automation hooks (Mattermost, Rocket.Chat, …): a random path segment after /hook(s)/ or /webhook(s)/.
    type: 'webhook',
    keywords: ['/hook', '/webhook'],
    lines: /\/(?:web)?hooks?\//gi,
    pattern: /\bhttps?:\/\/[\w.-]+(?::\d+)?\/(?:[\w.-]+\/)*?(?:hooks?|webhooks?)\/(?:[\w-]+\/){0,3}?([A-Za-z0-9_-]{20,})(?![A-Za-z0-9_-])/dgi,
    group: 1,
    validate: (s) => !isPlaceholder(s) && !filler(s) && (isUuid(s) || looksRandom(s, 20, 3.5) || (/^[a-z0-9]{26,}$/.test(s) && /\d/.test(s) && entropy(s) > 3.8)),
  },
  {
    // The same with the credential in the query (`…/webhook/send?key=<uuid>`, `…/robot/send?access_token=…`).
    type: 'webhook',
    keywords: ['hook', 'robot'],
    lines: /\/(?:(?:web)?hooks?|robot|bot)\/[^\s?]*\?/gi,
    pattern: /\bhttps?:\/\/[\w.-]+(?::\d+)?\/(?:[\w.-]+\/)*?(?:hooks?|webhooks?|robot|bot)\/[\w/.-]*\?(?:[^\s#"'<>]*&)?(?:key|token|access_token|sig)=([A-Za-z0-9_-]{20,})/dgi,
    group: 1,
    validate: (s) => !isPlaceholder(s) && !filler(s) && (isUuid(s) || looksRandom(s, 20, 3.5) || (/^[a-f0-9]{32,}$/.test(s) && entropy(s) > 3.3)),
  },

  // --- Cloud providers.
  {
    type: 'aws_access_key',
    keywords: ['akia', 'asia', 'abia', 'acca', 'a3t', 'agpa', 'aida', 'aroa', 'aipa', 'anpa', 'anva', 'apka'],
    pattern: /\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}\b/g,
    validate: notFiller(4),
  },
  {
    type: 'aws_secret_key',
    keywords: ['secret'],
    pattern: /((?:aws_?)?secret_?(?:access_?)?key(?:_?id)?|aws_?secret)(["']?[ \t]*(?:[:=]|=>)[ \t]*["']?)([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 3,
    validate: (s) => !filler(s) && entropy(s) > 3.5,
  },
  {
    // The id and the key side by side (credentials CSV, `aws configure` transcripts).
    type: 'aws_secret_key',
    keywords: ['akia', 'asia'],
    pattern: /\b(?:AKIA|ASIA)[A-Z0-9]{16}(?:["']?[ \t]*[,;|:\t][ \t]*["']?|[ \t]+)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dg,
    group: 1,
    validate: (s) => looksRandom(s, 40, 4.0),
  },
  {
    type: 'aws_secret_key',
    keywords: ['aws'],
    pattern: /\baws[ _-]?secret(?:[ _-]?access)?(?:[ _-]?key)?[ \t]*(?:is|was|:|=)?[ \t]*["'`]?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/dgi,
    group: 1,
    validate: (s) => looksRandom(s, 40, 4.0),
  },
  {
    type: 'aws_session_token',
    keywords: ['session', 'security-token'],
    pattern: /((?:aws_?session_?token|x-amz-security-token|session_?token)["']?[ \t]*(?:[:=]|=>)[ \t]*["']?)([A-Za-z0-9/+=]{100,})/dgi,
    group: 2,
  },
  {
    type: 'azure_key',
    keywords: ['accountkey=', 'sharedaccesskey=', 'sharedsecretkey=', 'sharedaccesssignature=', 'sig='],
    pattern: /(AccountKey=|SharedAccessKey=|SharedSecretKey=|SharedAccessSignature=|(?<![A-Za-z0-9])sig=)([A-Za-z0-9%/+=]{20,})/dgi,
    group: 2,
    validate: (s) => !filler(s) && entropy(s) > 3.0,
  },
  { type: 'azure_key', keywords: ['q~'], pattern: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g },
  { type: 'google_api_key', keywords: ['aiza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g, validate: notFiller(4) },
  { type: 'google_oauth_secret', keywords: ['gocspx-'], pattern: /\bGOCSPX-[A-Za-z0-9_-]{28}(?![A-Za-z0-9_-])/g, validate: notFiller(7) },
  { type: 'google_oauth_token', keywords: ['ya29.', '1//0'], pattern: /\bya29\.[A-Za-z0-9_-]{30,}|(?<![\w/])1\/\/0[A-Za-z0-9_-]{40,}/g },
  { type: 'alibaba_key', keywords: ['ltai'], pattern: /\bLTAI[A-Za-z0-9]{20}\b/g, validate: (s) => looksRandom(s.slice(4), 16, 3.0) },
  { type: 'digitalocean_token', keywords: ['_v1_'], pattern: /\bdo[opr]_v1_[a-f0-9]{64}\b/g },
  { type: 'heroku_key', keywords: ['hrku-'], pattern: /\bHRKU-[A-Za-z0-9_-]{40,}(?![A-Za-z0-9_-])/g },
  {
    type: 'heroku_key',
    keywords: ['heroku'],
    pattern: /(heroku[\w.-]*(?:key|token|secret|password)["']?[ \t]*(?:[:=]|=>)[ \t]*["']?)([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b/dgi,
    group: 2,
  },
  { type: 'vault_token', keywords: ['hvs.', 'hvb.', 'hvr.'], pattern: /\bhv[sbr]\.[A-Za-z0-9_-]{24,}(?![A-Za-z0-9_-])/g },
  { type: 'terraform_token', keywords: ['atlasv1'], pattern: /\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,70}(?![A-Za-z0-9_=-])/g },
  { type: 'pulumi_token', keywords: ['pul-'], pattern: /\bpul-[a-f0-9]{40}\b/g },
  { type: 'doppler_token', keywords: ['dp.'], pattern: /\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9_-]{40,44}\b/g },
  { type: 'fly_token', keywords: ['flyv1'], pattern: /\bFlyV1 fm[12]_[A-Za-z0-9+/=_,-]{50,}/g },
  { type: 'planetscale_token', keywords: ['pscale_'], pattern: /\bpscale_(?:tkn|pw|oauth)_[A-Za-z0-9_.=-]{32,64}/g },
  { type: 'supabase_token', keywords: ['sbp_', 'sb_secret_'], pattern: /\bsbp_[a-f0-9]{40}\b|\bsb_secret_[A-Za-z0-9_-]{20,}/g },
  { type: 'databricks_token', keywords: ['dapi'], pattern: /\bdapi[a-f0-9]{32}(?:-\d)?\b/g },
  { type: 'dynatrace_token', keywords: ['dt0c01.'], pattern: /\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b/g },
  { type: 'newrelic_key', keywords: ['nrak-', 'nrjs-', 'nrii-', 'nraa-'], pattern: /\bNR(?:AK|JS|II|AA)-[A-Za-z0-9]{19,32}\b/g },
  { type: 'grafana_token', keywords: ['glsa_', 'glc_'], pattern: /\bglsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}\b|\bglc_[A-Za-z0-9+/]{32,}={0,2}/g },
  { type: 'sentry_token', keywords: ['sntry'], pattern: /\bsntry[su]_[A-Za-z0-9+/=_-]{40,}/g },

  ...PREFIXED.map(([type, keywords, source]) => prefixed(type, keywords, source)),
  ...WEAK.map(([type, words, source]) => weak(type, words, source)),
  {
    // Azure Functions keys before the AzFu signature: in the `code=` query parameter or the x-functions-key header.
    type: 'azure_function_key',
    keywords: ['code=', 'functions-key'],
    pattern: /(?:[?&]code=|x-functions-key["']?[ \t]*[:=][ \t]*["']?)([A-Za-z0-9_/+%-]{40,100}(?:={1,2}|%3D){0,2})/dgi,
    group: 1,
    validate: (s) => looksRandom(decodeURIComponentSafe(s), 32, 3.5),
  },
  { type: 'vault_token', keywords: ['vault'], pattern: /(?<![\w.-])s\.[A-Za-z0-9]{24}(?![\w-]|\.\w)/g, lines: /vault/gi, validate: (s) => looksRandom(s, 12, 3.0) },
  {
    // Sidekiq Enterprise credentials: `BUNDLE_ENTERPRISE__CONTRIBSYS__COM=8hex:8hex`.
    type: 'sidekiq_credentials',
    keywords: ['contribsys', 'sidekiq'],
    pattern: /(?<![\w:])[a-f0-9]{8}:[a-f0-9]{8}(?![\w:])/g,
    lines: /contribsys|sidekiq/gi,
    validate: (s) => entropy(s) > 2.5,
  },
  {
    // An app access token: the numeric app id, `|` (or %7C), and the secret.
    type: 'facebook_token',
    keywords: ['|', '%7c'],
    pattern: /(?<![\w|])\d{15,16}(?:\||%7C)([A-Za-z0-9_-]{27,40})(?![\w-])/dg,
    group: 1,
    validate: (s) => looksRandom(s, 27, 3.5) || /^[a-f0-9]{32}$/.test(s),
  },
  {
    type: 'teams_webhook',
    keywords: ['webhook.office.com', 'logic.azure.com'],
    pattern: /https:\/\/[\w-]+\.webhook\.office\.com\/webhookb2\/[\w@-]+\/IncomingWebhook\/[a-f0-9]{32}\/[\w-]+(?:\/[\w-]+)?|https:\/\/[\w.-]+\.logic\.azure\.com(?::\d+)?\/workflows\/[a-f0-9]{32}\/triggers\/[^\s"'<>]*sig=[\w-]{43}/g,
  },
  { type: 'zapier_webhook', keywords: ['hooks.zapier.com'], pattern: /https:\/\/hooks\.zapier\.com\/hooks\/catch\/\d+\/[a-z0-9]+\/?/g },
  { type: 'jwt', keywords: ['zxlk'], pattern: /(?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9+/]{60,}={0,2}(?![A-Za-z0-9+/=])/g, validate: base64OfJwt },

  // --- Source hosting and package registries.
  {
    type: 'github_token',
    keywords: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_', 'github_pat_'],
    pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,251}|github_pat_[A-Za-z0-9_]{40,250})\b/g,
    validate: notFiller(4),
    checksum: (s) => crc32Tail(s, 4),
    // Every token of the 40-character format ends in its CRC32: one that fails it is made up.
    lookAlike: (s) => /^gh[pousr]_[A-Za-z0-9]{36}$/.test(s) && !filler(s.slice(4)),
  },
  {
    type: 'gitlab_token',
    keywords: ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glimt-', 'glft-', 'glsoat-', 'gloas-', 'glagent-', 'glwt-', 'glffct-', 'gr1348941'],
    pattern: /\b(?:gl(?:pat|dt|rt|ptt|cbt|imt|ft|soat|oas|agent|wt|ffct)-[A-Za-z0-9_-]{20,}(?:\.[A-Za-z0-9_-]+)*|GR1348941[A-Za-z0-9_-]{20,})(?![A-Za-z0-9_-])/g,
    validate: (s) => !filler(s.slice(s.indexOf('-') + 1)) && /\d/.test(s),
  },
  { type: 'npm_token', keywords: ['npm_'], pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, validate: notFiller(4), checksum: (s) => crc32Tail(s, 4), lookAlike: (s) => !filler(s.slice(4)) },
  // The body is a macaroon whose location is pypi.org.
  { type: 'pypi_token', keywords: ['pypi-age'], pattern: /\bpypi-AgE[A-Za-z0-9_-]{50,}/g, lookAlike: (s) => !pypiMacaroon(s) },
  { type: 'rubygems_token', keywords: ['rubygems_'], pattern: /\brubygems_[a-f0-9]{48}\b/g },
  { type: 'dockerhub_token', keywords: ['dckr_'], pattern: /\bdckr_(?:pat|oat)_[A-Za-z0-9_-]{27,}/g },
  { type: 'artifactory_key', keywords: ['akcp'], pattern: /\bAKCp[A-Za-z0-9]{69}\b/g },
  { type: 'atlassian_token', keywords: ['atatt3'], pattern: /\bATATT3[A-Za-z0-9_=-]{150,}/g },
  { type: 'postman_key', keywords: ['pmak-'], pattern: /\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b/g },
  { type: 'linear_key', keywords: ['lin_api_', 'lin_oauth_'], pattern: /\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b/g },
  { type: 'figma_token', keywords: ['figd_', 'figh_', 'figu_'], pattern: /\bfig[dhu]_[A-Za-z0-9_-]{40,}/g },
  { type: 'notion_token', keywords: ['secret_', 'ntn_'], pattern: /\b(?:secret_[A-Za-z0-9]{43}|ntn_[A-Za-z0-9]{40,50})\b/g, validate: (s) => looksRandom(s.slice(s.indexOf('_') + 1), 30, 3.5) },
  { type: 'onepassword_token', keywords: ['ops_eyj', 'a3-'], pattern: /\bops_eyJ[A-Za-z0-9+/]{200,}={0,3}|\bA3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}\b/g },

  // --- Messaging, payments, email.
  {
    type: 'slack_token',
    keywords: ['xox', 'xapp-'],
    pattern: /\bxox(?:[abposreu]|e\.xox[bp])-[A-Za-z0-9-]{10,}|\bxapp-\d-[A-Za-z0-9-]{20,}/g,
    validate: (s) => /\d/.test(s.slice(5)) && !isPlaceholder(s.slice(5)),
  },
  {
    type: 'discord_token',
    pattern: /\b[MNO][A-Za-z0-9_-]{23,27}\.[A-Za-z0-9_-]{6,7}\.[A-Za-z0-9_-]{27,40}(?![A-Za-z0-9_-])/g,
    validate: (s) => {
      const id = s.slice(0, s.indexOf('.'));
      try {
        if (/^\d{15,21}$/.test(atob(id.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (id.length % 4)) % 4)))) return true;
      } catch {
        // not base64: judge by looks
      }
      return looksRandom(s, 50, 4.0);
    },
  },
  { type: 'telegram_bot_token', keywords: [':a'], pattern: /(?<!\d)\d{8,10}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g, validate: (s) => looksRandom(s.slice(s.indexOf(':') + 1), 30, 3.5) },
  {
    type: 'stripe_key',
    keywords: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'],
    pattern: /\b(?:[sr]k_(?:live|test)_[A-Za-z0-9]{16,247}|whsec_[A-Za-z0-9]{24,})\b/g,
    validate: (s) => !filler(s.slice(s.lastIndexOf('_') + 1)),
  },
  { type: 'square_token', keywords: ['eaaa', 'sq0atp-', 'sq0csp-'], pattern: /\bEAAA[A-Za-z0-9_-]{60}(?![A-Za-z0-9_-])|\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}(?![A-Za-z0-9_-])/g, validate: notFiller(7) },
  { type: 'shopify_token', keywords: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], pattern: /\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b/g, validate: notFiller(6) },
  { type: 'twilio_key', keywords: ['sk'], pattern: /\bSK[0-9a-fA-F]{32}\b/g, validate: notFiller(2) },
  {
    // Account SID then auth token, as positional arguments: `Client("AC…", "…")`.
    type: 'twilio_key',
    keywords: ['ac'],
    pattern: /\bAC[0-9a-f]{32}\b["']?[ \t]*[,:;][ \t]*["']?([0-9a-f]{32})\b/dg,
    group: 1,
  },
  { type: 'sendgrid_key', keywords: ['sg.'], pattern: /\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}(?![A-Za-z0-9_-])/g },
  { type: 'mailgun_key', keywords: ['key-'], pattern: /\bkey-[0-9a-f]{32}\b/g, validate: notFiller(4) },
  { type: 'mailgun_key', pattern: /\b[0-9a-f]{32}-[0-9a-f]{8}-[0-9a-f]{8}\b/g, entropy: 3.2 },
  { type: 'facebook_token', keywords: ['eaa'], pattern: /\bEAA[A-Za-z0-9]{90,}\b/g },
  { type: 'twitter_token', keywords: ['aaaaaaaaaaaaaaaaaaaa'], pattern: /\bA{20,}[A-Za-z0-9%]{30,}/g },
  // Secret (`sk.`) and temporary (`tk.`) tokens; `pk.` ones are public by design.
  { type: 'mapbox_token', keywords: ['sk.eyj', 'tk.eyj'], pattern: /\b[st]k\.eyJ[A-Za-z0-9_-]{50,}\.[A-Za-z0-9_-]{20,}/g },
  // Salesforce: the organisation id, `!`, the opaque token.
  { type: 'salesforce_token', keywords: ['!'], pattern: /\b00[A-Za-z0-9]{13}![A-Za-z0-9._]{80,}/g, validate: (s) => looksRandom(s.slice(s.indexOf('!') + 1), 40, 4.0) },

  // --- AI providers.
  { type: 'anthropic_key', keywords: ['sk-ant-'], pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g, validate: notFiller(7) },
  {
    type: 'openai_key',
    keywords: ['sk-'],
    pattern: /\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}(?![A-Za-z0-9_-])/g,
    validate: (s) => {
      const body = s.replace(/^sk-(?:proj-|svcacct-|admin-|None-)?/, '');
      return /\d/.test(body) && /[A-Za-z]/.test(body) && wordiness(body) < 0.6 && !filler(body);
    },
  },
  { type: 'huggingface_token', keywords: ['hf_'], pattern: /\bhf_[A-Za-z0-9]{34,}\b/g, validate: (s) => /[a-z]/.test(s) && /[A-Z]/.test(s) && (wordiness(s.slice(3)) < 0.6 || (/^[A-Za-z]{34}$/.test(s.slice(3)) && entropy(s.slice(3)) >= 4.3)) },
  { type: 'groq_key', keywords: ['gsk_'], pattern: /\bgsk_[A-Za-z0-9]{48,}\b/g },
  { type: 'replicate_token', keywords: ['r8_'], pattern: /\br8_[A-Za-z0-9]{37}\b/g },
  { type: 'xai_key', keywords: ['xai-'], pattern: /\bxai-[A-Za-z0-9]{70,}\b/g },
  { type: 'perplexity_key', keywords: ['pplx-'], pattern: /\bpplx-[A-Za-z0-9]{40,}\b/g },

  // --- Formats shared by many providers.
  // The header is JSON that names its algorithm.
  { type: 'jwt', keywords: ['eyj'], pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, lookAlike: (s) => !jwtStructure(s) },
  {
    type: 'auth_header',
    keywords: ['bearer'],
    pattern: /\b([Bb]earer|BEARER)[ \t]+([A-Za-z0-9._~+/-]{12,}=*)/dg,
    group: 2,
    validate: opaqueToken,
  },
  { type: 'auth_header', keywords: ['basic'], pattern: /\b([Bb]asic|BASIC)[ \t]+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])/dg, group: 2, validate: base64OfCredentials },
  {
    type: 'auth_header',
    keywords: ['authorization'],
    pattern: /\bAuthorization["']?[ \t]*[:=][ \t]*["']?(?:token|Token|SSWS|Bot|ApiKey|Apikey|OAuth|JWT|Key|Digest)[ \t]+([A-Za-z0-9._~+/=-]{12,})/dgi,
    group: 1,
    validate: opaqueToken,
  },

  // --- Credentials in URLs and connection strings.
  {
    type: 'url_credentials',
    keywords: ['://'],
    // The password may hold a `?` written raw (`amqp://app:pa55?@host`), not a `/`.
    pattern: /\b([a-z][a-z0-9+.-]{1,30}:\/\/)([^\s:/?#@"'<>[\]]*):([^\s/"'<>]+)@(?=[A-Za-z0-9[])/dgi,
    group: 3,
    validate: (s, m) => s !== m[2] && !s.startsWith('[REDACTED') && !/^\d*[?#]/.test(s) && !isPlaceholder(s) && !isReference(s) && !/^%[sd]$/.test(s),
  },
  {
    // A token as the user name, for git hosts: `https://<token>@github.com/org/repo.git`.
    type: 'url_credentials',
    keywords: ['://'],
    pattern: /\bhttps?:\/\/([A-Za-z0-9_-]{20,})@(?:github\.com|gitlab\.com|bitbucket\.org|[\w.-]*dev\.azure\.com|[\w.-]*visualstudio\.com)\b/dgi,
    group: 1,
    validate: opaqueToken,
  },
  {
    // Go's MySQL driver: `user:password@tcp(host:3306)/db`.
    type: 'url_credentials',
    keywords: ['@tcp(', '@unix(', '@udp('],
    pattern: /(?<![\w.-])[\w.-]{1,64}:([^\s"'/]{3,128}?)@(?:tcp|unix|udp)\(/dg,
    group: 1,
    validate: (s) => !isPlaceholder(s) && !isReference(s),
  },
  {
    // Oracle style: `scott/tiger@//db.example.com:1521/ORCL`.
    type: 'url_credentials',
    keywords: ['@'],
    pattern: /\b[A-Za-z]\w*\/([^\s@/"']+)@(?:\/\/)?[\w.-]+:\d{2,5}\/\w+/dg,
    group: 1,
    validate: (s) => !isPlaceholder(s) && !isReference(s),
  },
  {
    type: 'url_secret',
    keywords: ['?', '&'],
    pattern: /[?&]([A-Za-z0-9_.-]{1,40})=([^&\s#"'<>]{6,})/dg,
    group: 2,
    validate: (s, m) => secretValue(decodeURIComponentSafe(s), nameStrength(m[1] ?? ''), true),
  },

  // --- Command lines and config files.
  {
    // Base64 of `user:password` on a line of its own (a copied header value, a .dockercfg or Jenkins credential).
    type: 'basic_auth',
    pattern: /^[ \t]*([A-Za-z0-9+/]{12,172}={0,2})[ \t]*$/dgm,
    group: 1,
    validate: base64OfUserPassword,
  },
  {
    type: 'password',
    keywords: ['secret set', 'secrets set'],
    pattern: /\bgh[ \t]+secrets?[ \t]+set[ \t]+\S+[^\n]*?[ \t](?:--body|-b)(?:=|[ \t]+)(["']?)([^\s"']+)\1/dg,
    group: 2,
    validate: (s) => !isPlaceholder(s) && !isReference(s),
  },
  {
    // A name and its value as two fields: Kubernetes and ECS environment entries (`- name: DB_PASSWORD` then
    // `value: …`, `{"name": "API_KEY", "value": "…"}`), secret-manager commands (`--name /prod/api_key --value …`).
    type: 'password',
    keywords: ['value'],
    pattern: /\bname["']?[ \t]*[:=][ \t]*["']?([\w./-]{2,128})["']?[ \t]*(?:,[ \t]*|\r?\n[ \t]*)["']?value["']?[ \t]*:[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"',}]+))|--name[ =]["']?([\w./-]{2,128})["']?(?:[ \t]+(?!--value)[^\s]+)*?[ \t]+--value[ =](?:"([^"\n]*)"|'([^'\n]*)'|([^\s"']+))/dg,
    group: [2, 3, 4, 6, 7, 8],
    validate: (s, m) => secretValue(s, nameStrength((m[1] ?? m[5] ?? '').replace(/^.*\//, '')), m[4] === undefined && m[8] === undefined),
    typeOf: (m) => (nameStrength((m[1] ?? m[5] ?? '').replace(/^.*\//, '')) === Strength.Strong ? 'password' : 'secret'),
  },
  {
    // A Kubernetes Secret's data: each value is base64 of the secret itself.
    type: 'kubernetes_secret',
    keywords: ['kind: secret'],
    pattern: /^([ \t]+[\w.-]+:[ \t]*)([A-Za-z0-9+/]{4,}={0,2})[ \t]*$/dgm,
    group: 2,
    validate: (s, m) => kubernetesSecretData(m.input, m.index) && !isPlaceholder(s) && !isReference(s) && !isPathOrUrl(s),
    // Base64 of a certificate, a public key or a placeholder: left, and claimed so that no generic rule takes it.
    lookAlike: publicOrPlaceholderBase64,
  },
  {
    // A setter or builder given the secret: `ds.setPassword("…")`, `.withApiKey('…')`, `set_token("…")`.
    type: 'password',
    keywords: ['set', 'with'],
    pattern: /\b(?:set|with)_?([A-Za-z_]*?(?:[Pp]assword|PASSWORD|[Pp]asswd|[Ss]ecret|SECRET|[Tt]oken|TOKEN|[Aa]pi_?[Kk]ey|API_?KEY|[Cc]redentials?))[ \t]*\([ \t]*(["'])([^"'\n]{3,256})\2[ \t]*\)/dg,
    group: 3,
    // Setting a token is as good as naming it an access token.
    validate: (s, m) => secretValue(s, Math.max(nameStrength(m[1] ?? ''), Strength.Medium) as Strength, true),
    typeOf: byName(1),
  },
  {
    // HCL: a variable's default, named on the block (`variable "db_password" { default = "…" }`).
    type: 'password',
    keywords: ['variable'],
    pattern: /\bvariable[ \t]+"([\w-]+)"[ \t]*\{[^{}]*?\bdefault[ \t]*=[ \t]*"([^"\n]*)"/dg,
    group: 2,
    validate: (s, m) => secretValue(s, nameStrength(m[1] ?? ''), true),
    typeOf: byName(1),
  },
  {
    type: 'password',
    keywords: ['curl'],
    // Also on a continuation line of the command (`curl … \\` then `-u user:pass`), and with the password
    // alone in quotes (`--user admin:'pw'`: the quotes are not part of it; a quoted password with spaces is not read).
    pattern: /\bcurl\b(?:[^\n\\^\x60]|[\\^\x60](?:\r?\n|.))*?[ \t](?:-u|--user)(?:[ \t]*|=)(["']?)([^\s:"']+):(["']?)([^\s"']+)\3\1/dg,
    group: 4,
    validate: (s) => !isPlaceholder(s) && !isReference(s),
  },
  {
    type: 'password',
    keywords: ['mysql', 'mariadb', 'sshpass', 'docker', 'redis-cli', 'mongo', 'sqlcmd', 'bcp', 'htpasswd', 'pass:', 'lftp', 'smbclient', '7z', 'zip', 'rabbitmqctl', 'ldap', 'freerdp', 'rdesktop'],
    pattern: /\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b(?:[^\n\\^\x60]|[\\^\x60](?:\r?\n|.))*?[ \t]-p(?=\S)|sshpass[ \t]+-p[ \t]*|docker[ \t]+login\b(?:[^\n\\^\x60]|[\\^\x60](?:\r?\n|.))*?[ \t]-p[ \t]+|redis-cli\b(?:[^\n\\^\x60]|[\\^\x60](?:\r?\n|.))*?[ \t]-a[ \t]+|(?:mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport)\b(?:[^\n\\^\x60]|[\\^\x60](?:\r?\n|.))*?[ \t]-p[ \t]+|(?:sqlcmd|bcp)\b(?:[^\n\\^\x60]|[\\^\x60](?:\r?\n|.))*?[ \t]-P[ \t]*|htpasswd(?:[ \t]+-[A-Za-z]+)*?[ \t]+-[A-Za-z]*b[A-Za-z]*(?:[ \t]+-[A-Za-z]+)*[ \t]+\S+[ \t]+\S+[ \t]+|7za?[ \t]+[axu]\b[^\n]*?[ \t]-p(?=\S)|(?:un)?zip\b[^\n]*?[ \t]-P[ \t]*|rabbitmqctl[ \t]+(?:add_user|change_password)[ \t]+\S+[ \t]+|ldap(?:search|modify|add|delete|whoami|passwd|compare|modrdn)\b[^\n]*?[ \t]-w[ \t]+|(?:[xw]freerdp|sdl-freerdp)\b[^\n]*?[ \t][/+]p:|rdesktop\b[^\n]*?[ \t]-p[ \t]*|-pass(?:in|out)?[ \t]+pass:|lftp\b[^\n]*?[ \t]-u[ \t]+[^\s,]+,|smbclient\b[^\n]*?[ \t]-U[ \t]+["']?[^\s%"']+%)(["']?)([^\s"']+)\1/dg,
    group: 2,
    validate: (s) => s.length >= 3 && !isPlaceholder(s) && !isReference(s),
  },
  {
    type: 'password',
    keywords: ['-'],
    pattern: new RegExp(String.raw`(?<![\w-])${FLAG}(?:=|[ \t]+)(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"'-][^\s"']*))`, 'dgi'),
    group: [2, 3, 4],
    validate: (s, m) => secretValue(s, nameStrength(m[1] ?? ''), m[4] === undefined, false, after(m)),
    typeOf: byName(1),
  },
  // netrc: `login <user> password <pw>` (not prose: `the user and password from the container`).
  { type: 'password', keywords: ['password'], pattern: /\b(?:login|user)[ \t]+\S+\s+password[ \t]+(\S+)/dg, group: 1, validate: (s) => !isPlaceholder(s) && !isReference(s) && !/^[a-z]{2,8}$/.test(s) },
  {
    // PowerShell: `ConvertTo-SecureString 'pw' -AsPlainText -Force`.
    type: 'password',
    keywords: ['convertto-securestring'],
    pattern: /\bConvertTo-SecureString[ \t]+(?:-String[ \t]+)?(["'])([^"'\n]{3,256})\1[ \t]+-AsPlainText/dgi,
    group: 2,
    validate: (s) => !isPlaceholder(s) && !isReference(s),
  },
  {
    // `user:password` under a name that says so, camelCase or not: `basicAuth: "ops:…"`, `"proxyAuth": "…"`,
    // `dbCredentials=svc:…`, `userInfo := "…"` (issue 34). The password is the secret; a port (`host:8080`) is not one.
    type: 'password',
    keywords: ['auth', 'cred', 'userinfo', 'login'],
    lines: /auth|cred|userinfo|login/gi,
    pattern: /(?<![\w.$-])(["']?)((?:[A-Za-z][\w.-]{0,40}?)?(?:auth|credentials?|creds|userinfo|login))\1[ \t]*(?:=>|:=|=|:)[ \t]*(["'\x60]?)([\w.@+-]{1,64}):([^\s"'\x60]{3,128})\3(?=[\s,;})\]]|$)/dgi,
    group: 5,
    // Not a short word (`aws:iam`, `github:read`), a scheme (`vault:secret/db`, `env:X`) or a path.
    validate: (s, m) => s !== m[4] && s.length >= 4 && !/^\d+$|^[a-z]{1,7}$/.test(s) && !isPlaceholder(s) && !isReference(s) && !isReference(`${m[4]}:${s}`) && !isPathOrUrl(s) && !/^\/\//.test(s),
  },
  {
    // A secret's name ending a line, its value alone on the next: `here's the Heroku API key:` then the key (issue 34).
    type: 'password',
    keywords: ['pass', 'secret', 'token', 'key', 'auth', 'cred'],
    // Found from the `:` that ends the line (rare before a line holding one long token), then the name is read back.
    // (A blank line may come between: Jenkins prints `…password to proceed to installation:`, a blank line, the password.)
    pattern: /:[ \t]*\r?\n(?:[ \t]*\r?\n)?[ \t]*["'\x60]?([A-Za-z0-9+/_~=.-]{16,}?)["'\x60]?[ \t]*(?=\r?\n|$)/dg,
    group: 1,
    validate: (s, m) => {
      const line = m.input.slice(Math.max(0, m.input.lastIndexOf('\n', m.index - 1) + 1, m.index - 80), m.index);
      // The name: a secret's noun, with the word before it (`twilio auth token`: the strongest pair counts).
      const words = line.toLowerCase().split(/[^a-z0-9_-]+/);
      let strength = -1;
      for (let i = 0; i < words.length; i++) {
        if (/^(?:pass(?:word|phrase)|secret|token|key|auth|credentials?)$/.test(words[i]!)) strength = Math.max(strength, nameStrength(`${words[i - 1] ?? ''}_${words[i]}`));
      }
      if (strength < 0 || isPlaceholder(s) || base64OfText(s)) return false;
      if (!isUuid(s) && !/^[0-9a-f]+$/i.test(s)) return looksRandom(s, 16, 3.3);
      // A UUID or hex only after a name that makes it a credential (`API key:`), not `cache key:`.
      return strength >= 2 && entropy(s.replace(/-/g, '')) > 3.0;
    },
  },
  {
    // A long value on the line after its name, as formatters break it (Prettier, Black, gofmt'd literals):
    // `const scrapingBeeApiKey =\n  "…";`, `API_KEY = (\n    "…"\n)`, `token: string =\n  '…'`.
    type: 'password',
    keywords: ['=\n', '=\r', '= \n', '(\n'],
    pattern: /(?<![=!<>])=[ \t]*\(?[ \t]*\r?\n[ \t]*(["'\x60])([^"'\x60\n]{3,512})\1/dg,
    group: 2,
    validate: (s, m) => {
      const name = nameBeforeLineBreak(m);
      return !!name && secretValue(s, nameStrength(name), true);
    },
    typeOf: (m) => (nameStrength(nameBeforeLineBreak(m) ?? '') === Strength.Strong ? 'password' : 'secret'),
  },
  {
    // Windows: `net use Z: \\\\fs01\\share /user:CORP\\svc pa55word` (`*` asks for it instead), on one line or continued with ^.
    type: 'password',
    keywords: ['net use'],
    pattern: /\bnet[ \t]+use\b(?:[^\n\\^\x60]|[\\^\x60](?:\r?\n|.))*?[ \t]\/user:[^\s"']+[ \t]+(["']?)([^\s"'*\/][^\s"']*)\1/dgi,
    group: 2,
    validate: (s) => s.length >= 3 && !isPlaceholder(s) && !isReference(s),
  },
  {
    // A default after an environment look-up: `getenv('DB_PASSWORD') ?: '…'`, `ENV.fetch("X") { "…" }`,
    // `os.Getenv("X") or "…"`, `process.env.X ?? "…"` (issue 34). The variable's name decides.
    type: 'password',
    keywords: ['env'],
    lines: /env/gi,
    pattern: /(?:(["'])([A-Za-z_][\w.]{1,64})\1[ \t]*[)\]]|\benv\.([A-Za-z_]\w{1,64}))[ \t]*(?:\?:|\?\?|\|\||\bor\b|\{)[ \t]*(["'])([^"'\n]{3,256})\4/dg,
    group: 5,
    validate: (s, m) => secretValue(s, nameStrength(m[2] ?? m[3] ?? ''), true),
    typeOf: (m) => (nameStrength(m[2] ?? m[3] ?? '') === Strength.Strong ? 'password' : 'secret'),
  },
  // Redis: a directive at the start of a line, or `CONFIG SET` (`# The requirepass is not …` is a comment).
  { type: 'password', keywords: ['requirepass', 'masterauth'], pattern: /(?:^[ \t]*|\bconfig[ \t]+set[ \t]+)(?:requirepass|masterauth)[ \t]+(["']?)([^\s"']+)\1/dgim, group: 2, validate: (s) => !isPlaceholder(s) && !isReference(s) },
  {
    type: 'password',
    keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'],
    pattern: /<((?:[\w-]+:)?[A-Za-z_][\w.-]*)>([^<>\n]{3,1024})<\/\1>/dg,
    group: 2,
    // Words around the value (`<secret>{AQAAABAAA… 5422…}</secret>`, a Jenkins credential with a note): the element
    // is redacted whole when one of its words is a random token.
    validate: (s, m) =>
      secretValue(s, nameStrength(m[1] ?? ''), true) ||
      (/\S\s+\S/.test(s) &&
        nameStrength(m[1] ?? '') >= Strength.Weak &&
        // Under a weak name (`<key>fixed in 3f2a9c1…</key>`) a hex digest or a UUID among words is cited, not kept secret.
        s.split(/[\s{}()[\]]+/).some((t) => looksRandom(t, 16, 3.3) && !isPlaceholder(t) && !isPathOrUrl(t) && !(digestOrId(t) && nameStrength(m[1] ?? '') === Strength.Weak))),
    typeOf: byName(1),
  },
  {
    type: 'password',
    keywords: ['value='],
    pattern: /\bkey=(["'])([^"'\n]{1,64})\1[ \t]+value=(["'])([^"'\n]*)\3/dg,
    group: 4,
    validate: (s, m) => secretValue(s, nameStrength(m[2] ?? ''), true),
    typeOf: byName(2),
  },
  {
    // A name and a value as two string arguments: `define('DB_PASSWORD', '…')`, `headers.put("X-Api-Key", "…")`.
    type: 'password',
    keywords: ['pass', 'pwd', 'secret', 'token', 'key', 'auth', 'cred'],
    lines: SECRET_WORDS,
    // The first argument of a call or an initializer (`(` or `{` before it), not an element of a list (`['password', 'passcode']`).
    pattern: /(?<=[({][ \t]*)(["'])([A-Za-z0-9_.-]{2,64})\1[ \t]*,[ \t]*(["'])([^"'\n]{3,512})\3/dg,
    group: 4,
    validate: (s, m) => secretValue(s, nameStrength(m[2] ?? ''), true),
    typeOf: byName(2),
  },
  {
    // A user and a password passed to a credential's constructor or a login call: `new NetworkCredential("u", "…")`,
    // `HTTPBasicAuth('u', '…')`, `auth=('u', '…')`, `smtp.login("u", "…")`, `new DirectoryEntry("LDAP://…", "u", "…")`.
    type: 'password',
    keywords: ['credential', 'auth', 'login', 'directoryentry'],
    lines: /credential|auth|login|directoryentry/gi,
    pattern: /\b(?:NetworkCredential|PasswordAuthentication|HTTPBasicAuth|HTTPDigestAuth|HTTPProxyAuth|BasicAuth|UsernamePasswordCredentials|UsernamePasswordAuthenticationToken|DirectoryEntry|login|auth|basic_auth|http_basic_authenticate_with|withCredentials)[ \t]*(?:=[ \t]*)?\(\s*(?:(["'])[^"'\n]*\1\s*,\s*)?(["'])([^"'\n]{1,128})\2\s*,\s*(["'])([^"'\n]{3,128})\4/dgi,
    group: 5,
    validate: (s, m) => s !== m[3] && secretValue(s, Strength.Strong, true),
  },
  {
    // fish and Windows shells: `set -gx API_KEY …`, `setx API_KEY "…"`.
    type: 'password',
    keywords: ['set -', 'setx'],
    lines: /set(?:x|[ \t]+-)/gi,
    // A command of its own: at the start of a line or after `;`, `&&`, `|`, a prompt (`$ `, `> `); the value not a flag.
    pattern: /(?:^|[;&|({]|[$>][ \t])[ \t]*(?:set(?:[ \t]+-{1,2}[A-Za-z-]+)+|setx)[ \t]+([A-Za-z_][\w]{1,64})[ \t]+(?:"([^"\n]*)"|'([^'\n]*)'|([^\s"';|&-][^\s"';|&]*))/dgm,
    group: [2, 3, 4],
    validate: (s, m) => secretValue(s, nameStrength(m[1] ?? ''), m[4] === undefined, false, after(m)),
    typeOf: byName(1),
  },
  {
    // A value stored under a subscript: `os.environ["API_KEY"] = "…"`, `headers['X-Api-Key'] = '…'`,
    // `config[:api_secret] = "…"`, also with its quotes escaped inside a JSON string (a notebook's cell).
    type: 'password',
    keywords: ['] =', ']='],
    lines: SECRET_WORDS,
    pattern: /\[[ \t]*(?:(\\?["'])([\w.-]{2,64})\1|:(\w{2,64}))[ \t]*\][ \t]*=[ \t]*(\\?["'])([^"'\\\n]{3,256})\4/dg,
    group: 5,
    validate: (s, m) => secretValue(s, nameStrength(m[2] ?? m[3] ?? ''), true),
    typeOf: (m) => (nameStrength(m[2] ?? m[3] ?? '') === Strength.Strong ? 'password' : 'secret'),
  },
  {
    // "Password" in other languages, then a colon (also the full-width one) or `is`, then the value:
    // `пароль от базы: …`, `数据库密码：…`, `Das Passwort für die Staging-DB ist …`, `hasło do bazy: …`.
    type: 'password',
    keywords: ['passwort', 'kennwort', 'wachtwoord', 'senord', 'passord', 'adgangskode', 'salasana', 'haslo', 'hasło', 'heslo', 'jelsz', 'parol', 'ifre', 'senha', 'contrase', 'de passe', 'de_passe', 'пароль', '密码', '密碼', '口令', 'パスワード', '비밀번호', 'khẩu', 'sandi', 'κωδικός'],
    // A cheap superset of PASSWORD_WORDS_INTL: their stems, or a letter of the scripts they are written in.
    lines: /[\u0370-\u03ff\u0400-\u04ff\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]|wort|wacht|senord|passord|adgang|salasana|has[lł]o|heslo|jelsz|parol|[sş]ifre|senha|contrase|passe|sandi|khẩu/gi,
    pattern: new RegExp(String.raw`(${PASSWORD_WORDS_INTL})(?:[^\S\n]+[^\s:：=]{1,30}){0,4}?(?:[ \t]*[:：=][ \t]*|[ \t]+(?:${PROSE_IS})[ \t]+)["'\x60「]?([^\s"'\x60」，。、]{4,128}[^\s"'\x60」，。、.,;:!?])`, 'dgi'),
    group: 2,
    validate: (s) => /[A-Za-z]/.test(s) && (/\d/.test(s) || /[^A-Za-z0-9]/.test(s)) && secretValue(s, Strength.Strong, false, true),
  },
  {
    // A password set to a value in a sentence: `I reset the root password on the bastion to … for now`.
    type: 'password',
    keywords: ['pass', 'pw'],
    lines: /pass|pw/gi,
    pattern: new RegExp(String.raw`\b(?:reset|set|changed?|updated?|rotated?)\b[^\n]{0,40}?\b(pass(?:word|phrase|code)|pwd?|${PASSWORD_WORDS_INTL})\b[^\n]{0,40}?[ \t](?:to|into)[ \t]+["'\x60]?([^\s"'\x60,;]*[^\s"'\x60,;.])`, 'dgi'),
    group: 2,
    validate: (s, m) => /\d|[^A-Za-z0-9]/.test(s) && /[A-Za-z]/.test(s) && secretValue(s, nameStrength(m[1] ?? ''), false, true, after(m)),
  },
  {
    // A login given as user / password: `Login with admin / …`, `sign in as ops / …`, `creds: deploy / …`.
    type: 'password',
    keywords: ['log', 'sign', 'cred'],
    lines: /log[ \t]?in|sign[ \t]?in|cred/gi,
    pattern: /\b(?:log[ \t]?in|sign[ \t]?in|credentials?|creds)\b[^\n]{0,30}?(?:[ \t]|:)["'\x60]?([\w.@+-]{2,40})["'\x60]?[ \t]+\/[ \t]+["'\x60]?([^\s"'\x60]{4,64}[^\s"'\x60.,;])/dgi,
    group: 2,
    validate: (s) => /[A-Za-z]/.test(s) && (/\d/.test(s) || /[^A-Za-z0-9]/.test(s)) && !isPlaceholder(s) && !isReference(s) && !isPathOrUrl(s) && !/\//.test(s),
  },
  {
    // `user:password` after words that name a login: `creds for the test tenant: ops:…`.
    type: 'password',
    keywords: ['cred', 'login'],
    lines: /cred|login/gi,
    pattern: /\b(?:credentials?|creds|login)\b[^\n:]{0,40}:[ \t]+["'\x60]?([\w.@+-]{1,64}):([^\s"'\x60]{4,128})["'\x60]?(?=[\s,;)]|$)/dgi,
    group: 2,
    validate: (s, m) => s !== m[1] && /[A-Za-z]/.test(s) && (/\d/.test(s) || /[^A-Za-z0-9]/.test(s)) && !/^\d+$/.test(s) && !isPlaceholder(s) && !isReference(s) && !isPathOrUrl(s) && !/^\/\//.test(s),
  },
  {
    // Prose with words between the name and the value: `the root password for db1 is …`.
    type: 'password',
    keywords: ['pass', 'pw'],
    pattern: new RegExp(String.raw`\b(pass(?:word|phrase|code)|pwd?)\b((?:[ \t]+(?!(?:${PROSE_IS})\b)[\w.@'"\x60-]+){1,6}?)[ \t]+(?:${PROSE_IS})[ \t]+(?:(["'\x60])([^"'\x60\n]{1,64})\3|([^\s"'\x60,;]*[^\s"'\x60,;.]))`, 'dgi'),
    group: [4, 5],
    // A value in quotes is one (`the default password is 'blooberry'`), even a word; not when the words between
    // begin another clause (`… a hashed password and returns whether the hash is "stale"`).
    validate: (s, m) =>
      !/\b(?:and|or|but|whether|if|when|which|that|it|this|hash|hashed|digest|salt)\b/i.test(m[2] ?? '') &&
      secretValue(s, nameStrength(m[1] ?? ''), m[4] !== undefined, true, after(m)),
  },
  {
    // A name, a space, and a random token: `token LQMf…`, `the API key 8f2k…`.
    type: 'password',
    keywords: ['pass', 'secret', 'token', 'key', 'pat'],
    lines: SECRET_NOUNS,
    // (Also with a dash between, as lists and logs write it: `API key - 8f2k…`, `token – '…'`.)
    pattern: /(?:\b([A-Za-z][\w-]{1,30})[ \t]+)?\b(pass(?:word|phrase)|secret|token|key|pat)[ \t]+(?:[-–—][ \t]+)?["'`]?([A-Za-z0-9+/_~=-]{16,}[A-Za-z0-9=])(?![A-Za-z0-9+/_~=.-]*[A-Za-z0-9])/dgi,
    group: 3,
    // A UUID or a SHA-1/SHA-256 digest only after a name that makes it a credential (`API key 550e8400-…`,
    // `Codecov token …`): `the key e3b0c442…`, `sort key 550e…` name ids and hashes in prose.
    validate: (s, m) => {
      if (!looksRandom(s, 16, 3.3) || isPlaceholder(s) || base64OfText(s)) return false;
      if (!isUuid(s) && !/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/i.test(s)) return true;
      const prev = m[1]?.toLowerCase();
      return !!prev && nameStrength(`${prev}_${m[2]!.toLowerCase()}`) >= 2;
    },
  },
  {
    // A password named in prose, then given: `the database password Gantern1423* stays in the vault`.
    type: 'password',
    keywords: ['pass'],
    lines: /pass/gi,
    pattern: /\b(pass(?:word|phrase))[ \t]+["'`]?([^\s"'`]{5,63}[^\s"'`.,;:!?)])(?=["'`]?(?:[\s.,;:!?)]|$))/dgi,
    group: 2,
    validate: (s, m) => /\d/.test(s) && /[A-Za-z]/.test(s) && !/^v?\d+(?:\.\d+)+$/.test(s) && secretValue(s, nameStrength(m[1] ?? ''), false, true, after(m)),
  },
  {
    // A value in brackets after a secret's name in a sentence: `the passphrase in the old runbook (…) is still live`.
    type: 'password',
    keywords: ['('],
    lines: SECRET_NOUNS,
    // (Not a markdown link's target: `[…key…](#2-4-kms-key)`.)
    pattern: /\b([A-Za-z][\w-]{1,30}[ \t]+)?(pass(?:word|phrase)|secret|token|key|pat)\b[^\n.;()]{0,50}?(?<!\])\([ \t]*["'`]?([^\s"'`()#]{8,}[^\s"'`().,;:])["'`]?[ \t]*\)/dgi,
    group: 3,
    // Brackets in prose also hold names (`a secret (aws_access_key)`): the value must not read as words.
    validate: (s, m) => {
      const strength = nameStrength(`${(m[1] ?? '').trim()}_${m[2]!}`);
      return (wordiness(s) < 0.6 || (strength === Strength.Strong && /\d/.test(s))) && secretValue(s, strength, false, true, after(m));
    },
  },
  {
    // A value, then what it is: `try with … ? it's the admin password`, `use … as the API key`. Not a hex
    // value or a UUID: `3f2a… is the commit that fixed the token` names a commit.
    type: 'password',
    keywords: ['pass', 'secret', 'token', 'key', 'pat'],
    lines: SECRET_NOUNS,
    pattern: /(?<![^\s("'`])["'`]?([^\s"'`()]{8,64}[^\s"'`().,;:?!])["'`]?[^\n.]{0,20}?\b(?:is|was|as|it'?s|that'?s)[ \t]+(?:(?:the|our|my|a|an|your)[ \t]+)?((?:[\w-]+[ \t]+){0,3}?)(pass(?:word|phrase)|secret|token|key|pat)\b/dgi,
    group: 1,
    validate: (s, m) => {
      if (/^[a-f0-9-]+$/i.test(s) || isUuid(s)) return false;
      const strength = nameStrength(`${(m[2] ?? '').trim().split(/\s+/).pop() ?? ''}_${m[3]!}`);
      return strength >= 2 ? looksRandom(s, 12, 3.0) || (strength === 3 && /\d/.test(s) && /[A-Za-z]/.test(s) && /[^A-Za-z0-9]/.test(s)) : looksRandom(s, 20, 3.5);
    },
  },
  {
    // A markdown table row: a secret's name in one cell, its value in the next.
    type: 'password',
    keywords: ['|'],
    lines: /^[ \t]*\|/gm,
    pattern: /^[ \t]*\|[ \t]*\x60?([A-Za-z_][\w.-]{1,64})\x60?[ \t]*\|[ \t]*(?:\x60([^\x60\n|]+)\x60|([^|\n]*[^|\s]))[ \t]*\|/dgm,
    group: [2, 3],
    validate: (s, m) => secretValue(s.trim(), nameStrength(m[1] ?? ''), m[2] !== undefined),
    typeOf: byName(1),
  },
  {
    // .pgpass: `host:port:database:user:password`.
    type: 'password',
    keywords: [':'],
    pattern: /^[\w.-]+:(?:\d{2,5}|\*):[\w*.-]+:[\w*.-]+:(\S+)$/dgm,
    group: 1,
    validate: (s) => !isPlaceholder(s) && !isReference(s) && s.length >= 4,
  },
  {
    // A secret named, then given by a pronoun later in the sentence: `rotated the Datadog API key; the leaked one was …`.
    type: 'password',
    keywords: ['one ', 'value ', 'it '],
    lines: SECRET_NOUNS,
    pattern: /\b([A-Za-z][\w-]{1,30}[ \t]+)?(pass(?:word|phrase)|secret|token|key|pat)\b[^\n]{0,80}?\b(?:(?:one|value|it)[ \t]+(?:is|was)|value)[ \t]+["'`]?([^\s"'`,;)]*[^\s"'`,;.)])/dgi,
    group: 3,
    validate: (s, m) => secretValue(s, nameStrength(`${(m[1] ?? '').trim()}_${m[2]!}`), false, true, after(m)),
  },
  {
    type: 'password',
    lines: SECRET_WORDS,
    pattern: ASSIGNMENT,
    group: [4, 5, 6, 7],
    // Groups: 2 the name, 3 the separator (a word in prose), 4-6 a quoted value, 7 a bare one.
    // Not a TypeScript type (`type RequestCredentials = "include" | "omit"`).
    validate: (s, m) =>
      !/\btype[ \t]+$/.test(m.input.slice(Math.max(0, m.index - 8), m.index)) &&
      // A union's members are words (`"include" | "omit"`); a random token before `|` is a value (piped, or listed twice).
      (!/^["'\x60]?[ \t]*\|/.test(after(m)) || looksRandom(s, 16, 3.3)) &&
      // Base64 and its padding, not a name and `==` (`…/vr9qhOPG9Buj2HatrPw==`).
      !(/[/+]/.test(m.input[m.index - 1] ?? '') && /^=+$/.test(m[3] ?? '')) &&
      // A value that repeats its name (`AppInsights_InstrumentationKey="AppInsightsInstrumentationKey"`): a placeholder.
      s.replace(/[^A-Za-z0-9]/g, '').toLowerCase() !== (m[2] ?? '').replace(/[^A-Za-z0-9]/g, '').toLowerCase() &&
      // `rails credentials:edit`, `scope secret:read`: a command or a scope, not a value.
      !(m[3] === ':' && m[7] !== undefined && /^[a-z]+(?:[-_][a-z]+)*$/.test(s)) &&
      secretValue(s, nameStrength(m[2] ?? ''), m[7] === undefined, /[a-z]/i.test(m[3] ?? ''), after(m)),
    typeOf: byName(2),
  },

  // --- Personal data.
  { type: 'ssn', keywords: ['-'], pattern: /\b\d{3}-\d{2}-\d{4}\b/g, validate: (s) => !/^(?:000|666)|^\d{3}-00|0000$/.test(s) },
  // Not the digits of a decimal fraction (`score: 0.5768911502526741`).
  { type: 'credit_card', pattern: /(?<![\d.])\b(?:\d[ -]?){12,18}\d\b(?!\.\d)/g, validate: cardNumber },
  {
    type: 'phone',
    pattern: /(?<![\w.@/=:#+-])(?:\+\d{1,3}[ .-]?)?\(?\d{3}\)?[ .-]\d{3}[ .-]\d{4}(?![\w.-])/g,
    // `version 202.405.1234`, `bump from 100.200.3000`: a version, not a number to call.
    // 555 numbers are the ones films and documentation use (NANP reserves 555-0100 to 555-0199).
    // North American numbers: neither the area code nor the exchange starts with 0 or 1 (`123-123-1234`, `918-000-0000` are fake).
    validate: (s, m) => !/(?:^|[^\d+])[01]\d\d\)?[ .-]\d{3}[ .-]\d{4}$|\d{3}\)?[ .-][01]\d\d[ .-]\d{4}$/.test(s.replace(/^\+1[ .-]?/, '')) && !/(?:^|\D)555[ .-]\d{4}$/.test(s) && (!/^\d+\.\d+\.\d+$/.test(s) || !/(?:version|ver|v|release|build|rev|revision|tag|update|upgrade|bump|bumped|from|to|@|==|>=|<=|~|\^)[ \t]*[:=]?[ \t]*$/i.test(m.input.slice(Math.max(0, m.index - 30), m.index))),
  },

  // --- Last: anything long and random that nothing above claimed.
  { type: 'high_entropy', pattern: /(?<![A-Za-z0-9+/_=-])[A-Za-z0-9+/_-]{32,}={0,2}(?![A-Za-z0-9+/_=-])/g, validate: highEntropy },
];

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

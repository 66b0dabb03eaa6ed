// Every rule in SECRET_RULES, run alone: a positive example it redacts, and a negative it leaves
// as it is. Positives come from the corpora (kinds.ts, corpus.ts) or, for the few rules no corpus
// line needs alone, from the table below; the negative is the same line with the secret's letters
// and digits turned to filler, as templates write them (`ghp_xxxx…`), which no rule may take.
// A rule added without any example fails here.
import { describe, expect, it } from 'vitest';
import { redact } from '../../src/core/redact/redact.ts';
import { SECRET_RULES } from '../../src/core/redact/secret-rules.ts';
import { secretCases } from '../fixtures/secrets/corpus.ts';
import { providerCases } from '../fixtures/secrets/kinds.ts';
import { unseenCases } from '../fixtures/secrets/unseen.ts';
import { positives2 } from '../fixtures/secrets2/corpus.ts';
import { positives3 } from '../fixtures/secrets3/corpus.ts';

// Fake values, assembled from parts.
const EXTRA = [
  'git clone https://' + 'q8Zr2LkP9xWm4TnB7vYc3Jd6' + '@github.com/acme/api.git',
  'SSN on the form: 512-' + '34-7781',
  'call me on (415) 723-' + '0148 after six',
  '      - name: ROLLBAR_ACCESS_TOKEN\n        value: "adbc85d806a2' + '4884ab1fcedcc1bf4a5d"',
  // Issue 34: forms the tuning half of secrets2 does not hold.
  'WECOM_HOOK=https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=' + '3c9e1f52-7a4b-4d08-9b6e-' + '5f20a8c71d94',
  'net use Z: \\\\fs01\\share /user:CORP\\svc_backup ' + 'Gr4nite_77215!',
  // A third corpus (secrets3): a JSON Web Key's private exponent.
  'paid with card ' + '4111 1111 ' + '1111 1111' + ' last week',
  'mvn sonar:sonar -Dsonar.login=' + '7f3c9a1e5b2d8f4a6c0e' + '9b7d5f3a1c8e6b4d2f0a',
  'Access Token      00D5g000004' + 'XyZa!AQ' + 'kAQHc7Lr2mVx9pT4sWqE1nBdG6yKj8ZfR3uLoP5iMaC0vXwN7tYbS2hJeD4gQ9rUlF6oIk1zVcW8mPxT3nRy5sA0dEqB',
  'sender.Credentials = new NetworkCredential("builds@acme.io", "' + 'vq7Lm2Xr9Tz4' + '");',
  'dsn := "svc_orders:' + 'Tq7#wLm29xPz' + '@tcp(10.4.2.9:3306)/orders"',
  '{"kty":"EC","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","d":"' + 'jpsQnnGQmL-YBIffH1136cspYG6' + '-0iY7X1fCE9-E9LI"}',
  // A fourth corpus (secrets4): a value on the line after its name, as Prettier breaks a long assignment.
  'const weatherApiKey =\n  "' + 'Q7mZp2Lx9RtV4wKc8NbJ3yHd' + '";',
];

const corpus = [...providerCases().map((c) => c.text), ...secretCases().map((c) => c.text), ...unseenCases().map((c) => c.text), ...positives2().filter((c) => c.half === 'tuning').map((c) => c.text), ...positives3().filter((c) => c.half === 'tuning').map((c) => c.text), ...EXTRA];

/** The part of `input` that `output` replaced with one marker. */
function replaced(input: string, output: string): [number, number] {
  let a = 0;
  while (a < input.length && input[a] === output[a]) a++;
  let b = 0;
  while (b < input.length - a && input[input.length - 1 - b] === output[output.length - 1 - b]) b++;
  return [a, input.length - b];
}

describe('redact: each rule alone', () => {
  SECRET_RULES.forEach((rule, i) => {
    const name = `rule ${i} (${rule.type}, ${String(rule.pattern.source).slice(0, 40)})`;
    const positive = corpus.find((t) => redact(t, { rules: [rule] }).found.length > 0);

    it(`${name} has a positive example it redacts`, () => {
      expect(positive, 'no example in the corpora or EXTRA').toBeDefined();
      const out = redact(positive!, { rules: [rule] });
      expect(out.text).not.toBe(positive);
      expect(out.text).toMatch(/\[REDACTED:[a-z0-9_]+\]/);
    });

    it(`${name} leaves the same line alone when the secret is filler`, () => {
      const out = redact(positive!, { rules: [rule] }).text;
      const [a, b] = replaced(positive!, out);
      const negative = positive!.slice(0, a) + positive!.slice(a, b).replace(/[A-Za-z0-9]/g, 'x') + positive!.slice(b);
      expect(redact(negative, { rules: [rule] }).text).toBe(negative);
    });
  });
});

describe('redact: the issue 18 examples', () => {
  const B = (s: string) => btoa(s);
  const found = [
    'curl -u developer:' + 'yqDVtkqPECriaLRi' + ' https://ci.example.com/api/json',
    'Authorization: Basic ' + B('deploy:Zx81kLq0pWm'),
    B('jenkins:' + 'S3cretPassw0rd'),
    'graph.facebook.com/me?access_token=1234567890123456|' + 'aB3dE5fG7hI9jK1lM3nO5pQ7rS9',
    'CF_ORIGIN_CA_KEY=v1' + '.0-' + '0123456789abcdef01234567-' + '9f8e7d6c5b4a3921'.repeat(9) + '01',
    'HF_TOKEN=h' + 'f_' + 'AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh',
    'SRC_ACCESS_TOKEN=sg' + 'p_' + '0123456789abcdef_' + 'a1b2c3d4e5'.repeat(4),
    'SENTRY_AUTH_TOKEN=sn' + 'tryu_' + 'a1b2c3d4'.repeat(8),
    'curl "https://acme-fn.azurewebsites.net/api/resize?code=' + 'Onvap1Y9HRHx9Ge7wqRD0VKeTr1YXGY22ZUr4jLjoesx' + 'AzFu' + 'fjFCKH=="',
    'api_key = "Zk29sLqP0xWm4TnB7vYc3Jd6"',
    'SMTP_PASS=Fluffy12',
    "auth: { user: 'mailer', pass: 'Tr0ub4dor&3' }",
  ];
  for (const text of found) {
    it(`redacts ${JSON.stringify(text.slice(0, 48))}`, () => {
      expect(redact(text).found.length).toBeGreaterThan(0);
    });
  }
  const left = [
    'curl --user "$1:$2" https://api.example.com/upload',
    'AK' + 'IAIOSFODNN7EXAMPLE',
    'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEY',
    'GITHUB_TOKEN=gh' + 'p_' + 'x'.repeat(36),
    'STRIPE_SECRET_KEY=s' + 'k_live_' + 'x'.repeat(24),
    'SLACK_BOT_TOKEN=xo' + 'xb-' + 'xxxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx',
    'HF_TOKEN=h' + 'f_' + 'x'.repeat(34),
    // A weak format's provider named on the line does not make a commit id a key.
    'Bumped the cloudflare worker to 3f2a9c0b1d4e5f60718293a4b5c6d7e8f9012345 today',
    'datadog-agent pinned to 3f2a9c0b1d4e5f60718293a4b5c6d7e8f9012345',
    // Ordinary text that a broader run over node_modules' docs and type definitions (230,220 lines) caught.
    "  { label: 'Cat', score: 0.22365376353263855 },",
    'readonly STENCIL_PASS_DEPTH_PASS: 0x0B96;',
    'readonly COMPRESSED_SRGB8_ALPHA8_ASTC_10x10_KHR: 0x93DB;',
    'type RequestCredentials = "include" | "omit" | "same-origin";',
    'Server-attested source token: "github_webhook" | "trigger_fire"',
    "const key1 = scryptSync('password', 'salt', 64);",
    'headers: max-age=0; pin-sha256="WoiWRyIOVNa9ihaBciRSC7XHjliYS9VwUGOIud4PB18=";',
    '<phone type="home">123-555-4567</phone>',
    'the analysis is not a validation pass: valid JS source is always analyzed correctly',
    // And over 2,175 of its JavaScript files (128,069 lines).
    "var intToCharMap = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('');",
    "'allPass': 'overEvery',",
    'return fetch(N,{credentials:"same-origin"}).then(function(f){return f})',
  ];
  for (const text of left) {
    it(`leaves ${JSON.stringify(text.slice(0, 48))}`, () => {
      expect(redact(text)).toEqual({ text, found: [] });
    });
  }
});

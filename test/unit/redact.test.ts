import { describe, expect, it } from 'vitest';
import { redact } from '../../src/core/redact/redact.ts';
import { base62, crc32 } from '../../src/core/redact/secret-checks.ts';

// Fake secrets, assembled from parts so the file itself does not look like it leaks any.
/** 30 characters and their CRC32 tail, as GitHub issues tokens (issue 34: a tail that fails is a look-alike, left alone). */
const crcTail = (body: string) => body + base62(crc32(body), 6);
const ALNUM36 = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const GH36 = crcTail(ALNUM36.slice(0, 30));
const cases: Array<{ type: string; secret: string; before?: string; after?: string }> = [
  {
    type: 'private_key',
    secret: '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7bq3x\nq9Zr2Lk8\n-----END RSA PRIVATE KEY-----',
  },
  { type: 'aws_access_key', secret: 'AKIA' + 'Q3VZ7K2MWD5TRX4N' },
  { type: 'github_token', secret: 'ghp_' + GH36 },
  { type: 'github_token', secret: 'github_pat_' + '11ABCDEFG0' + 'a'.repeat(20) + '_' + 'B9c8D7e6F5g4H3i2J1k0L9m8N7' },
  { type: 'anthropic_key', secret: 'sk-ant-' + 'api03-' + 'Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2' },
  { type: 'openai_key', secret: 'sk-' + 'proj-' + 'Ab12Cd34Ef56Gh78Ij90Kl12' },
  { type: 'slack_token', secret: 'xoxb-' + '123456789012-1234567890123-AbCdEfGhIjKl' },
  { type: 'slack_webhook', secret: 'https://hooks.slack.com/services/' + 'T04K2M8Q1Z/B07R3X9P2L5W/' + 'q8Zr2LkP9xWm4TnB7vYc3Jd6' },
  { type: 'stripe_key', secret: 'sk_' + 'live_' + '4eC39HqLyjWDarjtT1zdp7dc' },
  { type: 'twilio_key', secret: 'SK' + '0123456789abcdef0123456789abcdef' },
  { type: 'sendgrid_key', secret: 'SG.' + 'abcdefghijklmnopqrstuv' + '.' + 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefg' },
  { type: 'discord_token', secret: 'M' + 'TIzNDU2Nzg5MDEyMzQ1Njc4' + '.' + 'GaBcDe' + '.' + 'abcdefghijklmnopqrstuvwxyz_AB-12' },
  { type: 'google_api_key', secret: 'AIza' + 'SyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q' },
  {
    type: 'jwt',
    secret: 'eyJhbGciOiJIUzI1NiJ9' + '.' + 'eyJzdWIiOiIxMjM0NTY3ODkwIn0' + '.' + 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
  },
  { type: 'ssn', secret: '123-45-6789' },
  { type: 'credit_card', secret: '4111 1111 1111 1111' },
  { type: 'credit_card', secret: '4111-1111-1111-1111' },
  { type: 'credit_card', secret: '4111111111111111' },
  { type: 'phone', secret: '(415) 723-0148' },
  { type: 'phone', secret: '+1 415-723-0148' },
  { type: 'phone', secret: '415.723.0148' },
  { type: 'high_entropy', secret: 'Tk9Ab3xQ7vLm2ZpR8sWc4YdE6fGh1JnK' },
  // Detectors that keep the surrounding context and replace only the secret.
  { type: 'aws_secret_key', before: 'aws_secret_access_key = ', secret: 'kP7vQ2xL9mW4nB8tR3yC6dF1/' + 'gH5jK0sZ+aE2uI7' },
  { type: 'azure_key', before: 'DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=', secret: 'Zm9vYmFyYmF6cXV4cXV1eDEyMzQ1Njc4OTA=', after: ';EndpointSuffix=core.windows.net' },
  { type: 'url_credentials', before: 'https://deploy:', secret: 'S3cr3tPa55', after: '@example.com/repo.git' },
  { type: 'password', before: 'password = "', secret: 'hunter2hunter2', after: '"' },
  { type: 'password', before: 'Password: ', secret: 'correcthorse' },
  { type: 'secret', before: "api_key='", secret: 'zzzz-yyyy', after: "'" },
  { type: 'secret', before: 'client_secret=', secret: 'abc123def' },
];

describe('redact: each detector', () => {
  for (const { type, secret, before = '', after = '' } of cases) {
    it(`redacts ${type}: ${JSON.stringify(before + secret.slice(0, 12))}…`, () => {
      const text = `Note: ${before}${secret}${after} (end)`;
      const result = redact(text);
      expect(result.text).toBe(`Note: ${before}[REDACTED:${type}]${after} (end)`);
      expect(result.found).toEqual([type]);
      expect(result.text).not.toContain(secret);
    });
  }

  it('reports one entry per redaction, in detector order', () => {
    const text = `key AKIA${'Q3VZ7K2MWD5TRX4N'} and ssn 123-45-6789 and another ssn 987-65-4321`;
    const result = redact(text);
    expect(result.text).toBe('key [REDACTED:aws_access_key] and ssn [REDACTED:ssn] and another ssn [REDACTED:ssn]');
    expect(result.found).toEqual(['aws_access_key', 'ssn', 'ssn']);
  });

  it('redacts a private key that has no END line to the end of the text', () => {
    const result = redact('here:\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA\nmore');
    expect(result.text).toBe('here:\n[REDACTED:private_key]');
    expect(result.found).toEqual(['private_key']);
  });

  it('is idempotent: redacting redacted text changes nothing more', () => {
    const once = redact('password: hunter2hunter2 and token ghp_' + GH36);
    const twice = redact(once.text);
    expect(twice.text).toBe(once.text);
    expect(twice.found).toEqual([]);
  });

  // BUG (reported): `\b(?:password|secret|api_key…)\b` needs a word boundary before the name,
  // and `_` is a word character, so prefixed env-var names (.env files, `export …`) are missed.
  // Flip to `it` once fixed.
  it('redacts passwords assigned to prefixed env-var names', () => {
    for (const [name, value] of [['POSTGRES_PASSWORD', 'hunter2hunter2'], ['DB_PASSWORD', 'correcthorse'], ['STRIPE_API_KEY', 'abcd1234'], ['db_password', 'x9x9x9x9']]) {
      const result = redact(`export ${name}=${value}`);
      // Named by what the name says: a password, or another secret (an API key).
      expect(result.text).toBe(`export ${name}=[REDACTED:${/PASSWORD/i.test(name ?? '') ? 'password' : 'secret'}]`);
    }
  });

  it('does not redact a number that fails the Luhn check as a credit card', () => {
    const result = redact('order 4111 1111 1111 1112 shipped');
    expect(result.found).not.toContain('credit_card');
    expect(result.text).toContain('4111 1111 1111 1112');
  });
});

describe('redact: no false positives on ordinary developer text', () => {
  const ordinary: Array<[string, string]> = [
    ['40-hex git SHA', 'Fixed in commit 60643ab1c2d3e4f5a6b7c8d9e0f1a2b3c4d5e6f7, see also e83c5163316f89bfbde7d9ab23ca2e25604af290.'],
    ['upper-case 40-hex SHA', 'SHA 60643AB1C2D3E4F5A6B7C8D9E0F1A2B3C4D5E6F7'],
    ['64-hex sha256', 'digest e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['short SHA', 'reverted 60643ab'],
    ['UUID', 'request 550e8400-e29b-41d4-a716-446655440000 failed'],
    ['upper-case UUID', 'id 550E8400-E29B-41D4-A716-446655440000'],
    ['digit-heavy UUID', 'id 12345678-1234-4234-8234-123456789012'],
    ['file paths', 'Edit src/stores/git/notes-tree.ts and test/unit/note-format.test.ts'],
    ['absolute path', 'see /home/dev/projects/git-mem/node_modules/sql.js/dist/sql-wasm.wasm'],
    ['mixed-case paths', 'frontend/src/components/Dashboard/Widgets/ChartV2.tsx and src/main/java/com/example/OrderService2Impl.java'],
    ['version numbers', 'upgrade 1.2.3 to v10.20.30; node 20.19.0; vitest@4.1.12; python 3.12.1'],
    ['URL without credentials', 'https://github.com/anthropics/claude-code/issues/12345 and https://example.com:8080/api/v2/users?id=42&sort=asc'],
    ['git remote', 'git@github.com:org/repo.git and ssh://git@github.com/org/repo.git'],
    ['URL with @ in the path', 'https://www.npmjs.com/package/@types/node'],
    ['ISO dates', 'on 2025-12-21T05:46:36Z, 2025-12-21T05:46:36.123Z, 2026-01-31 and 2025-12-21T07:46:36+02:00'],
    ['host and port', 'localhost:3000 and 127.0.0.1:8080 and 192.168.100.200'],
    ['prose about passwords', 'the password must be at least 12 characters long'],
    ['plain numbers', 'took 1234 ms over 56789 rows, 3 retries'],
    ['camelCase identifiers', 'call parseNoteFrontMatterOrThrow() from serializeMemoryToYamlDocument'],
  ];
  for (const [name, text] of ordinary) {
    it(`leaves ${name} alone`, () => {
      expect(redact(text)).toEqual({ text, found: [] });
    });
  }

  // BUG (reported): a long, extension-less, mixed-case path containing a digit (an import
  // specifier, a directory) has enough entropy to be taken for a secret. Flip to `it` once fixed.
  it('leaves an extension-less mixed-case import path alone', () => {
    const text = "import { Card } from '/home/user/projects/MyWebApp2/src/components/UserProfileCard'";
    expect(redact(text)).toEqual({ text, found: [] });
  });
});

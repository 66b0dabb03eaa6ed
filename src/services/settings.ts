/**
 * The one place that reads configuration: git config `mem.*` (repository or
 * global), overridden by `GIT_MEM_*` environment variables. One `git var -l`
 * gives the config and the identities together.
 */
import { type NamespaceInfo, resolveNamespaces } from '../core/namespaces.ts';
import type { Repo } from '../stores/git/repo.ts';

export interface Settings {
  namespaces: NamespaceInfo[];
  invalidNamespaces: string[];
  /** For notes commits: `Name <email> <epoch> <tz>`. */
  committerIdent: string;
  /** For the memory's `author` field: `Name <email>`. */
  author: string;
  /** mem.autoCapture: hooks capture high-confidence statements (default true). */
  autoCapture: boolean;
  /** mem.hooks.pullOnStart: SessionStart pulls first, bounded in time (default false). */
  pullOnStart: boolean;
  /** mem.hooks.pushOnEnd: SessionEnd pushes in a detached process (default false). */
  pushOnEnd: boolean;
  /** mem.secrets: what a capture does with a detected secret: redact (default), block or warn. */
  secrets: SecretsMode;
  /** mem.secrets.allow (repeatable): SHA-256 digests of values that are not secrets. */
  secretsAllow: string[];
}

export const SECRETS_MODES = ['redact', 'block', 'warn'] as const;
export type SecretsMode = (typeof SECRETS_MODES)[number];

function parseBool(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined) return fallback;
  const v = value.trim().toLowerCase();
  if (['true', 'yes', 'on', '1', ''].includes(v)) return true;
  if (['false', 'no', 'off', '0'].includes(v)) return false;
  return fallback;
}

function splitList(values: readonly string[]): string[] {
  return values.flatMap((v) => v.split(/[\s,]+/)).filter(Boolean);
}

function secretsMode(value: string | undefined): SecretsMode {
  const v = value?.trim().toLowerCase();
  return (SECRETS_MODES as readonly string[]).includes(v ?? '') ? (v as SecretsMode) : 'redact';
}

export function loadSettings(repo: Repo, env: NodeJS.ProcessEnv): Settings {
  const config = new Map<string, string[]>();
  for (const line of repo.git.run(['var', '-l']).split('\n')) {
    const eq = line.indexOf('=');
    if (eq <= 0) continue;
    const key = line.slice(0, eq);
    config.set(key, [...(config.get(key) ?? []), line.slice(eq + 1)]);
  }
  const last = (key: string) => config.get(key)?.at(-1);
  const extra = env.GIT_MEM_NAMESPACES !== undefined ? splitList([env.GIT_MEM_NAMESPACES]) : splitList(config.get('mem.namespaces') ?? []);
  const { namespaces, invalid } = resolveNamespaces(extra);
  const committerIdent = last('GIT_COMMITTER_IDENT') ?? `git-mem <git-mem@localhost> ${Math.floor(Date.now() / 1000)} +0000`;
  const author = (last('GIT_AUTHOR_IDENT') ?? committerIdent).replace(/\s+\d+\s+[+-]\d{4}$/, '');
  const bool = (key: string, envName: string, fallback: boolean) => parseBool(env[envName] ?? last(key), fallback);
  return {
    namespaces,
    invalidNamespaces: invalid,
    committerIdent,
    author,
    autoCapture: bool('mem.autocapture', 'GIT_MEM_AUTO_CAPTURE', true),
    pullOnStart: bool('mem.hooks.pullonstart', 'GIT_MEM_HOOKS_PULL_ON_START', false),
    pushOnEnd: bool('mem.hooks.pushonend', 'GIT_MEM_HOOKS_PUSH_ON_END', false),
    secrets: secretsMode(env.GIT_MEM_SECRETS ?? last('mem.secrets')),
    secretsAllow: splitList(config.get('mem.secrets.allow') ?? []),
  };
}
